// What the rest of mmbench reads from a machine profile, as one value, and
// the one place where a profile turns into choices: the lb a tuned PDGEMM
// asks for, the GEMM at the bottom of the local kernel, the local levels
// `auto` means. `run`, `predict` and the ranking (through cli::Machine and
// ranking::OptionContext) and the dispatcher (dispatch::MachineFacts) hold
// a ProfileFacts and ask these functions; none restates a profile field.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/lb_in_force.hpp"
#include "local/fast_gemm.hpp"
#include "local/packed_gemm.hpp"
#include "profile/core_layout.hpp"
#include "profile/lb_record.hpp"
#include "profile/machine_profile.hpp"
#include "profile/packed_tune_record.hpp"
#include "profile/peak_record.hpp"

namespace mmbench::profile {

struct ProfileFacts {
  bool present = false;  // false: no profile (every field below its default)
  // The tuned lb at the tuning size (0 = none), and how every PDGEMM
  // follows it (profile/lb_record.hpp cap_of: the lb curve, or without one
  // lb held to lb_panels panels per process share).
  int lb = 0;
  LbCap lb_cap = LbCap::tuned();
  // The local Strassen crossover: the largest n tune tried (0 = not
  // measured) and the smallest n where one level beat DGEMM (0 = none).
  std::int64_t local_tried_n = 0;
  std::int64_t local_l1_n = 0;
  PackedTuneRecord packed;           // tune's packed GEMM step (measured = false: none)
  CoreLayoutRecord core_layout;      // ranks x threads (measured = false: none)
  std::optional<PeakRecord> peak;    // cpu_peak (none: an older profile)
  std::string blas;                  // libraries.blas
  double memory_per_rank_bytes = 0;  // 0 = not recorded
  double dgemm_noise = 0;            // dgemm_profile_noise, 0 = not recorded
};

ProfileFacts facts_of(const MachineProfile& profile);

// The lb a tuned PDGEMM asks for: the profile's lb, and how every PDGEMM
// turns it into the lb for its own size: the profile's lb curve
// (LbCap::measured), or without one lb held to lb_panels panels per share
// (LbCap::tuned). lb 0: none tuned.
struct TunedLb {
  int lb = 0;
  LbCap cap = LbCap::tuned();
};
TunedLb tuned_lb(const ProfileFacts& facts);

// What `tuned` gives a PDGEMM of size n on a pr x pc grid, for n from
// n0 / 4 (at least 1: n0 may be as small as the grid) to 4 n0, doubling:
// "512: 256, 1024: 512, ..." (tune's report of a curve it recorded).
std::string lb_by_size(const TunedLb& tuned, std::int64_t n0, int pr, int pc, int nb);

// The GEMM at the bottom of the local kernel: `asked`, or where it is
// empty ("auto") the profile's faster leaf (tune's packed step; blas
// without one). Packed runs the profile's measured blocking for the kernel
// this process runs where the packed step was measured, else the kernel's
// defaults. Throws std::runtime_error where MMBENCH_PACKED_ISA names no
// kernel this CPU runs (local::packed_isa).
struct LeafChoice {
  local::LeafGemm gemm = local::LeafGemm::blas;
  local::PackedBlocking blocking{};
};
LeafChoice leaf_choice(std::optional<local::LeafGemm> asked, const ProfileFacts& facts);

// What `--local-strassen auto` means on this profile: up to
// kAutoLocalLevels levels while a block is at least the measured crossover
// (4096 -> 2048 -> 1024 ...: with a crossover of 1536, 8192^3 gets 3 levels,
// 12288^3 4), or none where no level won within the sizes tune tried.
// Only meaningful where the crossover was measured (local_tried_n > 0).
inline constexpr int kAutoLocalLevels = 4;
struct LocalLevels {
  int levels = 0;
  std::int64_t min_dim = 0;  // 0 = the kernel's default cut-off
};
LocalLevels auto_local_levels(const ProfileFacts& facts);

}  // namespace mmbench::profile
