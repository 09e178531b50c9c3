// The PBLAS logical block size lb in force for one PDGEMM: the one place
// that turns "the lb asked for" into "the lb PBLAS gets" (docs/cost-models.md,
// "An lb that fits every size"). Used by the PDGEMM plan (also inside
// parallel Strassen's leaves), the cost models, the tuner's lb check and the
// preload library libmmbench-lb.so -- which links neither MPI nor mmbench,
// so this unit depends on nothing but the standard library.
//
// Why a cap: PBLAS's PDGEMM (PB_CpgemmAB, the variant it picks for square
// operands) walks k in panels of lb columns of A and lb rows of B. For each
// panel it broadcasts the panel along the process rows and columns (ring
// topologies, which it forces only when m, n and k all exceed lb), then every
// process updates its block of C with one DGEMM(m/pr, n/pc, lb). With many
// panels per process share of k the ring's hops of the next panel run while
// the processes that already hold the current one compute, so the
// broadcasts hide behind the DGEMMs. With lb as wide as a process's share
// (k/pc columns of A, k/pr rows of B) a single panel carries that whole
// share: nothing is left to overlap its broadcast with, the last panel's
// update runs after everyone has waited for it, and a wider lb only gathers
// the panel from several owners (one broadcast each), saving no startups.
// So a tuned lb is kept to at most 1 / kLbPanelsPerProcess of the smaller
// share. An lb the user gives explicitly is run as given: it is a
// measurement request.
#pragma once

#include <array>
#include <cstdint>

namespace mmbench {

// ScaLAPACK 2.x PILAENV's answer: the lb when nobody chose one.
inline constexpr int kScalapackDefaultLb = 32;

// Panels per process share of k that a tuned lb keeps, where the profile
// measured nothing else. Chosen from interleaved lb ladders at p = 2 on an
// Intel VM (docs/cost-models.md, "An lb that fits every size"): large
// shares ran best with 8 to 16 panels each and clearly slower with 4, while
// small shares hardly cared. Other machines want fewer (a Zen 1 VM: one or
// two), so `tune` times PDGEMM past this cap and records the panels it
// found (the profile's lb_panels).
inline constexpr int kLbPanelsPerProcess = 8;

// One point of a measured lb curve: at a process share of `share` columns
// of k (k / max(pr, pc)), PDGEMM ran fastest with `lb`.
struct LbPoint {
  std::int64_t share = 0;
  std::int64_t lb = 0;
};

// The lb PDGEMM wants as a function of a process's share of k, as `tune`
// measured it: its PDGEMM check at up to kMaxPoints problem sizes (the
// profile's "lb_curve"), and the widest lb worth running beyond the largest
// of them (the ceiling, profile/lb_curve_record.hpp curve_of: twice the
// largest point's lb or the DGEMM rule's plateau lb, whichever is wider).
// Fixed size, so that LbCap stays a plain value the preload library can hold
// without allocating.
struct LbCurve {
  static constexpr int kMaxPoints = 4;
  std::array<LbPoint, kMaxPoints> points{};  // the first `count`, ascending share
  int count = 0;                             // 0: no curve
  std::int64_t ceiling = 0;
  bool empty() const { return count == 0; }
};

// How a requested lb is held to a PDGEMM's share: panels > 0 keeps at least
// that many panels in every process's share (a tuned lb); 0 runs the lb as
// requested (an explicit lb). A tuned lb with a measured curve follows the
// curve instead (lb_on_curve). No conversion from bool, so that a caller
// cannot pass "capped" where a count is meant.
struct LbCap {
  int panels = 0;
  LbCurve curve{};
  static LbCap none() { return {}; }
  static LbCap tuned(int panels = kLbPanelsPerProcess) { return {panels > 0 ? panels : kLbPanelsPerProcess, {}}; }
  // A tuned lb that follows a measured curve; `panels` holds where the
  // curve is empty (a profile written before curves existed).
  static LbCap measured(const LbCurve& curve, int panels = kLbPanelsPerProcess) {
    LbCap c = tuned(panels);
    c.curve = curve;
    return c;
  }
};

// The widest lb that keeps `panels` panels in every process's share of k on
// a pr x pc grid with block size nb:
//   w   = floor(k / max(pr, pc))            the smaller share (A's k/pc
//                                           columns, B's k/pr rows)
//   raw = floor(w / panels)
//   cap = raw rounded down to a multiple of nb when raw >= nb (a panel of
//         whole blocks is gathered from whole blocks of its owners),
//   and never below kScalapackDefaultLb (the cap only forbids what the
//   library's own default would not do).
// Example (panels 8): k = 1024, 1 x 2, nb = 64: w = 512, raw = 64, cap = 64;
//          k = 4096, 1 x 2, nb = 64: w = 2048, raw = 256, cap = 256;
//          k = 3000, 1 x 2, nb = 64: w = 1500, raw = 187, cap = 128;
//          k = 512, 2 x 2, nb = 64: w = 256, raw = 32, cap = 32;
// (panels 2): k = 1024, 1 x 2, nb = 64: w = 512, raw = 256, cap = 256.
// Arguments < 1 count as 1.
std::int64_t lb_cap(std::int64_t k, int pr, int pc, int nb, int panels = kLbPanelsPerProcess);

// The lb a measured curve gives a PDGEMM of inner dimension k on a pr x pc
// grid with block size nb. With w = floor(k / max(pr, pc)) and the points
// (s_i, l_i):
//   w equal to a point's share   -> that point's lb, exactly as measured;
//   w between two points         -> interpolated on log(lb) over log(w);
//   w below the smallest point   -> l_0 * w / s_0 (as many panels per share
//                                   as there), at least min(l_0, 32);
//   w above the largest point    -> l_n * w / s_n (as many panels per
//                                   share), at most max(l_n, ceiling);
// an interpolated value is rounded to the nearest multiple of nb where it
// is at least nb (a panel of whole blocks), else to an integer. That
// rounding comes after the ceiling, so it may pass it by up to half a
// block: one point (1024, 472), ceiling 944, nb 64, k = 4096 on 1 x 2
// (w 2048) gives 960, the nearest whole blocks to 944.
// Example, 1 x 2, nb 64, points (256, 128), (512, 256), (1024, 512),
// ceiling 512: k = 1024 (w 512) -> 256; k = 1536 (w 768) -> 384;
// k = 256 (w 128) -> 64; k = 4096 (w 2048) -> min(1024, 512) = 512.
// 0 where the curve is empty.
std::int64_t lb_on_curve(const LbCurve& curve, std::int64_t k, int pr, int pc, int nb);

// Why a second bound, on a panel's bytes: PBLAS allocates its panel
// workspaces (lb columns of A's local rows, lb rows of B's local columns)
// with malloc and frees them again, some once per panel. glibc serves a
// block of 32 MiB or more (DEFAULT_MMAP_THRESHOLD_MAX on 64-bit, the
// largest its mmap threshold ever grows to, and the threshold mmbench's
// heap policy sets) with a fresh mapping on every allocation, so each such
// panel is written to fresh pages again, at the host's first-touch rate.
// A tuned lb keeps every panel below that size; an explicit lb is run as
// given. Example: n = 8192 on 1 x 2 (local A 8192 x 4096): lb 1024 makes
// panels of 1024 x 4096 doubles = 32 MiB, mapped afresh once per panel;
// the bound allows lb 448 there (448 x 8192 x 8 B = 28 MiB).
inline constexpr std::int64_t kFreshMappingBytes = std::int64_t(32) << 20;

// The longest side of an lb-wide panel of a PDGEMM of C m x n on a pr x pc
// grid: A's local rows ceil(m / pr) or B's local columns ceil(n / pc),
// whichever is longer. Example: m = n = 8192 on 1 x 2 -> 8192.
std::int64_t panel_length(std::int64_t m, std::int64_t n, int pr, int pc);

// For callers that do not know the PDGEMM's m and n: no bound on bytes.
inline constexpr std::int64_t kPanelLengthUnknown = 0;

// The widest lb whose panels (lb x `length` doubles, plus malloc's own
// header) stay below kFreshMappingBytes: in whole blocks of nb where that
// is at least nb, never below kScalapackDefaultLb; 0 (no bound) for
// length <= 0. Example: length 8192, nb 64: (32 MiB - 64 KiB of slack) /
// (8 B x 8192) = 511 columns -> 448 in whole blocks; length 4096 -> 960;
// length 1024 -> 4032.
std::int64_t lb_mapping_bound(std::int64_t length, int nb);

// Whether glibc serves a request of `bytes` (a panel workspace) with a fresh
// mapping: more than kFreshMappingBytes less the slack lb_mapping_bound
// leaves, so that a panel of an lb within that bound (above its floor of
// 32) never counts. Example: 448 x 8192 doubles (28 MiB) -> false;
// 1024 x 4096 doubles (32 MiB) -> true.
bool mapped_afresh(double bytes);

// The lb PBLAS gets when `requested` was asked for:
//   requested <= 0        -> kScalapackDefaultLb (the library default)
//   cap.panels == 0       -> requested (an explicit lb is an experiment:
//                            `--lb 512`, MMBENCH_LB=512 run exactly that)
//   a measured curve      -> lb_on_curve(cap.curve, k, pr, pc, nb) (a tuned
//                            lb from a profile with a curve: `requested`,
//                            the curve's lb at the tuning size, is only its
//                            name)
//   cap.panels > 0        -> min(requested, lb_cap(k, pr, pc, nb, panels))
//                            (a tuned lb: `--lb auto`, a profile's lb, the
//                            model's choice from a profile)
// and a tuned lb (either of the last two) is then held to
// lb_mapping_bound(length, nb), `length` being panel_length of the PDGEMM
// (kPanelLengthUnknown: no such bound).
// The result is at most INT32_MAX (PILAENV returns an INTEGER).
int lb_in_force(std::int64_t requested, LbCap cap, std::int64_t k, int pr, int pc, int nb, std::int64_t length);

}  // namespace mmbench
