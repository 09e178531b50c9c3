#include "cli/machine_report.hpp"

#include "core/machine/heap_policy.hpp"
#include "core/machine/openblas_cores.hpp"

#include <cblas.h>
#include <fmt/format.h>

#include <cstdlib>

#include "core/machine/blas.hpp"
#include "core/machine/sysinfo.hpp"
#include "tuner/blas_check.hpp"
#include "tuner/machine_check.hpp"

namespace mmbench::cli {

MachineReport gather_machine_report(std::optional<profile::PeakRecord> peak, std::string peak_source) {
  MachineReport f;
  f.cpu = detect_cpu();
  f.blas = blas_config();
  f.blas_core = blas_core_name(openblas_get_config());
  f.blas_threads = blas_threads();
  f.mpi = mpi_library_version();
  f.scalapack = scalapack_version();
  f.allocator = heap_policy::describe();
  for (const char* name : kPinVariables)
    if (const char* value = std::getenv(name)) f.pins.emplace_back(name, value);
  f.peak = std::move(peak);
  f.peak_source = std::move(peak_source);
  return f;
}

std::vector<std::string> machine_report_warnings(const MachineReport& f) {
  std::vector<std::string> out;
  if (f.peak)
    if (std::string w = tuner::recorded_blas_warning(*f.peak, f.blas_core); !w.empty()) out.push_back(std::move(w));
#ifndef NDEBUG
  out.push_back(
      "warning: mmbench was built without NDEBUG (not a Release build): its own kernels run slower than they "
      "should (cmake -DCMAKE_BUILD_TYPE=Release)");
#endif
  return out;
}

std::string pin_value(const MachineReport& f, const std::string& name) {
  for (const auto& [k, v] : f.pins)
    if (k == name) return v;
  return "";
}

namespace {

std::string kernel_text(const MachineReport& f) {
  if (f.blas_core.empty()) return "unknown (the BLAS names no core)";
  const auto kernel = find_openblas_core(f.blas_core);
  std::string s = f.blas_core + (kernel ? " (" + std::string(kernel->isa) + ")" : " (width unknown to mmbench)");
  const std::string pin = pin_value(f, "OPENBLAS_CORETYPE");
  s += pin.empty() ? ", detected by OpenBLAS" : ", pinned by OPENBLAS_CORETYPE=" + pin;
  s += fmt::format("; the CPU's widest: {}", tuner::width_label(tuner::cpu_width(f.cpu.flags)));
  return s;
}

}  // namespace

nlohmann::json machine_report_json(const MachineReport& f) {
  nlohmann::json doc;
  doc["cpu"] = {{"model", f.cpu.model},
                {"vendor", f.cpu.vendor},
                {"family", f.cpu.family},
                {"model_number", f.cpu.model_number},
                {"flags", to_string(f.cpu.flags)},
                {"widest_vector", tuner::width_label(tuner::cpu_width(f.cpu.flags))},
                {"cores", f.cpu.cores}};
  const auto kernel = find_openblas_core(f.blas_core);
  doc["blas"] = {{"config", f.blas},
                 {"core", f.blas_core},
                 {"core_isa", kernel ? std::string(kernel->isa) : std::string()},
                 {"threads", f.blas_threads}};
  doc["mpi"] = f.mpi;
  doc["scalapack"] = f.scalapack;
  doc["allocator"] = f.allocator;
  nlohmann::json env = nlohmann::json::object();
  for (const auto& [k, v] : f.pins) env[k] = v;
  doc["environment"] = env;
  if (f.peak) {
    nlohmann::ordered_json holder = nlohmann::ordered_json::object();
    profile::write_peak_record(f.peak, holder);
    nlohmann::json peak = nlohmann::json::parse(holder["cpu_peak"].dump());
    peak["source"] = f.peak_source;
    doc["peak"] = std::move(peak);
  }
  doc["warnings"] = machine_report_warnings(f);
  return doc;
}

std::vector<std::string> machine_report_lines(const MachineReport& f) {
  std::vector<std::string> out;
  out.push_back(fmt::format("cpu: {}, {} cores; flags: {}", describe_cpu(f.cpu), f.cpu.cores,
                            to_string(f.cpu.flags).empty() ? "none of those mmbench measures" : to_string(f.cpu.flags)));
  if (f.peak) {
    out.push_back("peak: " + tuner::describe_recorded_peak(*f.peak) +
                  (f.peak_source.empty() ? "" : " (" + f.peak_source + ")"));
    std::string by_isa;
    for (const profile::IsaPeakRecord& i : f.peak->isas)
      by_isa += fmt::format("{}{} {:.1f} / {:.1f}", by_isa.empty() ? "" : ", ", i.isa, i.one_core_gflops,
                            i.all_cores_gflops_per_core);
    out.push_back("peak by ISA: " +
                  (by_isa.empty() ? std::string("none") : by_isa + " GFLOP/s (one core / per core on all cores)"));
  } else {
    out.push_back("peak: not measured");
  }
  out.push_back("blas: " + f.blas);
  out.push_back("blas kernel: " + kernel_text(f));
  out.push_back("blas dgemm: " + (f.peak ? tuner::describe_recorded_dgemm(*f.peak) : std::string("not measured")));
  out.push_back(fmt::format("blas threads: {}", f.blas_threads));
  out.push_back("mpi: " + f.mpi);
  out.push_back("scalapack: " + f.scalapack);
  std::string set, unset;
  for (const char* name : kPinVariables) {
    const std::string v = pin_value(f, name);
    bool present = false;
    for (const auto& kv : f.pins) present = present || kv.first == name;
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on
    // a + "=" + b chains here.
    std::string& to = present ? set : unset;
    if (!to.empty()) to += present ? " " : ", ";
    to += name;
    if (present) {
      to += '=';
      to += v;
    }
  }
  out.push_back("environment: " + (set.empty() ? std::string("no pin") : set) +
                (unset.empty() ? "" : " (unset: " + unset + ")"));
  return out;
}

void print_peak_summary(const profile::PeakRecord& r) {
  fmt::print("  {}\n", tuner::describe_peak_record(r));
  if (const std::string w = tuner::recorded_blas_warning(r, r.blas_core); !w.empty()) fmt::print(stderr, "{}\n", w);
}

}  // namespace mmbench::cli
