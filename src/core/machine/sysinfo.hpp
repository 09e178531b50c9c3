// Facts about the machine and the libraries, recorded with every result.
#pragma once

#include <cstdint>
#include <string>

namespace mmbench {

std::string host_name();
std::string cpu_model();                // /proc/cpuinfo "model name"
int cpu_cores();                        // logical CPUs this process's cpuset allows (all online ones without one)
std::int64_t available_memory_bytes();  // /proc/meminfo MemAvailable (0 if unknown)
std::int64_t total_memory_bytes();      // /proc/meminfo MemTotal (0 if unknown)
std::string mpi_library_version();      // first line of MPI_Get_library_version
std::string scalapack_version();        // from pkg-config at build time
std::string mmbench_version();          // version + git commit at build time
std::string utc_timestamp();            // 2026-11-22T12:00:00Z
std::string utc_date();                 // 2026-11-22

}  // namespace mmbench
