#include "profile/profile_facts.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace mmbench::profile {

ProfileFacts facts_of(const MachineProfile& p) {
  ProfileFacts f;
  f.present = true;
  f.lb = static_cast<int>(p.lb);
  f.lb_cap = cap_of(LbRecord{p.lb, p.rule_lb, p.lb_panels, p.lb_curve});
  f.local_tried_n = p.strassen_tried_n;
  f.local_l1_n = p.strassen_l1_n;
  f.packed = p.packed;
  f.core_layout = p.core_layout;
  f.peak = p.cpu_peak;
  f.blas = p.libraries.blas;
  f.memory_per_rank_bytes = double(p.memory_per_rank_bytes);
  f.dgemm_noise = p.dgemm_profile_noise;
  return f;
}

TunedLb tuned_lb(const ProfileFacts& f) { return {f.lb > 0 ? f.lb : 0, f.lb_cap}; }

std::string lb_by_size(const TunedLb& tuned, std::int64_t n0, int pr, int pc, int nb) {
  std::string out;
  for (std::int64_t n = std::max<std::int64_t>(1, n0 / 4); n <= 4 * n0; n *= 2)
    out += fmt::format("{}{}: {}", out.empty() ? "" : ", ", n,
                       lb_in_force(tuned.lb, tuned.cap, n, pr, pc, nb, panel_length(n, n, pr, pc)));
  return out;
}

LeafChoice leaf_choice(std::optional<local::LeafGemm> asked, const ProfileFacts& f) {
  const local::LeafGemm gemm = asked.value_or(f.packed.measured ? f.packed.leaf : local::LeafGemm::blas);
  if (gemm != local::LeafGemm::packed) return {gemm, {}};
  return {gemm, f.packed.measured ? recorded_blocking(f.packed, local::packed_isa()) : local::PackedBlocking{}};
}

LocalLevels auto_local_levels(const ProfileFacts& f) {
  if (f.local_l1_n <= 0) return {};  // no win up to the largest size tried: nothing shows a level pays
  return {kAutoLocalLevels, f.local_l1_n};
}

}  // namespace mmbench::profile
