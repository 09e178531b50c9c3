#include "preload/launch_rank.hpp"

#include <dlfcn.h>

#include <cerrno>
#include <cstdlib>
#include <initializer_list>

namespace mmbench::preload {

namespace {

// A non-negative decimal rank, or -1.
int parse_rank(const char* text) {
  if (text == nullptr || *text == '\0') return -1;
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text, &end, 10);
  if (errno != 0 || *end != '\0' || v < 0 || v > 1 << 30) return -1;
  return static_cast<int>(v);
}

}  // namespace

int launch_rank() noexcept {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
    if (int r = parse_rank(std::getenv(name)); r >= 0) return r;
  // No launcher variables: ask the program's own MPI and BLACS, if it has
  // them. Cblacs_pinfo would start MPI itself, so only once MPI is up.
  using Initialized = int (*)(int*);
  using Pinfo = void (*)(int*, int*);
  auto initialized = reinterpret_cast<Initialized>(dlsym(RTLD_DEFAULT, "MPI_Initialized"));
  auto pinfo = reinterpret_cast<Pinfo>(dlsym(RTLD_DEFAULT, "Cblacs_pinfo"));
  int up = 0;
  if (initialized != nullptr && pinfo != nullptr && initialized(&up) == 0 && up) {
    int me = 0, procs = 0;
    pinfo(&me, &procs);
    if (me >= 0) return me;
  }
  return 0;
}

}  // namespace mmbench::preload
