#include "ranking/option_table.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "core/lb_in_force.hpp"
#include "core/usage_error.hpp"
#include "core/value_lists.hpp"
#include "local/fast_gemm.hpp"
#include "model/algorithm_models.hpp"
#include "model/refined_model.hpp"
#include "space/hybrid.hpp"
#include "space/replicas.hpp"
#include "space/ring_chunks.hpp"
#include "space/strassen_groups.hpp"

namespace mmbench::ranking {

using algos::Algorithm;
using algos::Options;
using algos::Problem;

std::vector<LbValue> parse_lb_values(const std::string& text, const OptionContext& ctx) {
  std::vector<LbValue> lbs;
  for (const std::string& w : parse_word_list("--lb", text)) {
    if (w == "default") {
      lbs.push_back({0, false});
    } else if (w == "auto") {
      if (ctx.profile.empty()) throw UsageError("--lb auto needs --profile FILE (a machine profile from `mmbench tune`)");
      const profile::TunedLb tuned = ctx.facts ? profile::tuned_lb(*ctx.facts) : profile::TunedLb{};
      if (tuned.lb <= 0) throw UsageError("--lb auto: the profile has no tuned lb");
      lbs.push_back({tuned.lb, true, tuned.cap});
    } else {
      lbs.push_back({static_cast<int>(parse_int_list("--lb", w, 1, 1 << 20).at(0)), false});
    }
  }
  return lbs;
}

std::vector<std::string> parse_local_gemm_words(const std::string& text) {
  std::vector<std::string> out;
  for (const std::string& w : parse_word_list("--local-gemm", text)) {
    if (w == "auto") {
      out.push_back(w);
      continue;
    }
    try {
      out.emplace_back(local::to_string(local::parse_leaf_gemm(w)));
    } catch (const std::invalid_argument&) {
      throw UsageError("--local-gemm: unknown local gemm '" + w + "' (allowed: blas, packed, auto)");
    }
  }
  return out;
}

LocalGemmChoice resolve_local_gemm(const std::string& word, const OptionContext& ctx) {
  const bool profiled = !ctx.profile.empty() && ctx.facts && ctx.facts->packed.measured;
  if (word == "auto") {
    if (ctx.profile.empty())
      throw UsageError("--local-gemm auto needs --profile FILE (a machine profile from `mmbench tune`)");
    if (!profiled)
      throw UsageError("--local-gemm auto: the profile " + ctx.profile +
                       " has no packed GEMM step (tuned with --no-packed-tune, or before it existed); run `mmbench "
                       "tune` or give blas or packed");
  }
  // A word parse_local_gemm_words let through: auto, blas or packed.
  const std::optional<local::LeafGemm> asked =
      word == "auto" ? std::nullopt : std::optional<local::LeafGemm>(local::parse_leaf_gemm(word));
  try {
    return profile::leaf_choice(asked, ctx.facts ? *ctx.facts : profile::ProfileFacts{});
  } catch (const std::runtime_error& e) {  // MMBENCH_PACKED_ISA names no kernel this CPU runs
    throw UsageError(std::string("--local-gemm packed: ") + e.what());
  }
}

int SearchContext::ranks_of(const Options& o) const { return space::hybrid_inner(o, p).ranks; }

namespace {

// A value that only sets fields of the options.
template <class F>
Setting plain(std::string asked, F f) {
  return {std::move(asked), [f](Options& o, const Algorithm&, const Problem&) {
            f(o);
            return std::string();
          }};
}

// ---- --grid ----
std::vector<Setting> parse_grid_values(const std::string& text, const OptionContext& ctx) {
  std::vector<Setting> out;
  for (const std::string& w : parse_word_list("--grid", text)) {
    const auto [pr, pc] = parse_grid("--grid", w);
    // A hybrid's grid covers its computing ranks, p / t of them: a grid
    // that fits one of the sweep's is taken, and the algorithm's own check
    // refuses it for the configurations it does not fit
    // (space/process_grid.hpp).
    const std::vector<int> fits = ctx.grid_ranks.empty() ? std::vector<int>{ctx.ranks} : ctx.grid_ranks;
    if (pr > 0 && std::find(fits.begin(), fits.end(), pr * pc) == fits.end())
      throw UsageError("--grid: grid " + w + " needs " + std::to_string(pr * pc) + " ranks, have " +
                       std::to_string(ctx.ranks) + " (pr x pc must equal the number of MPI ranks" +
                       (fits.size() > 1 ? ", or p / t for --hybrid t)" : ")"));
    out.push_back(plain(w, [pr = pr, pc = pc](Options& o) { o.pr = pr, o.pc = pc; }));
  }
  return out;
}

// Every pr x pc = p with pr <= pc, squarest last. p = 12 -> 1x12 2x6 3x4.
std::vector<Options> search_grids(const Options& o, const SearchContext& x) {
  std::vector<Options> out;
  const long long p = x.ranks_of(o);
  for (long long pr = 1; pr * pr <= p; ++pr)
    if (p % pr == 0) {
      out.push_back(o);
      out.back().pr = static_cast<int>(pr);
      out.back().pc = static_cast<int>(p / pr);
    }
  return out;
}

std::string label_grid(const Options& o) {
  return o.pr > 0 ? " grid=" + std::to_string(o.pr) + "x" + std::to_string(o.pc) : "";
}

// ---- --hybrid ----
std::vector<Setting> parse_hybrids(const std::string& text, const OptionContext&) {
  std::vector<Setting> out;
  for (std::int64_t t : parse_int_list("--hybrid", text, 1, 1024))
    out.push_back(plain(std::to_string(t), [t](Options& o) { o.hybrid = static_cast<int>(t); }));
  return out;
}

// space::hybrid_values: p = 8, hybrid_max 8 -> 1, 2, 4.
std::vector<Options> search_hybrids(const Options& o, const SearchContext& x) {
  std::vector<Options> out;
  for (int t : space::hybrid_values(x.p, x.hybrid_max)) {
    out.push_back(o);
    out.back().hybrid = t;
  }
  return out;
}

// ---- --nb ----
std::vector<Setting> parse_nb_values(const std::string& text, const OptionContext&) {
  std::vector<Setting> out;
  for (std::int64_t nb : parse_int_list("--nb", text, 1, 1 << 20))
    out.push_back(plain(std::to_string(nb), [nb](Options& o) { o.nb = static_cast<int>(nb); }));
  return out;
}

// ---- --lb ----
std::vector<Setting> parse_lb_settings(const std::string& text, const OptionContext& ctx) {
  std::vector<Setting> out;
  for (const LbValue& v : parse_lb_values(text, ctx))
    out.push_back(plain(v.tuned ? "auto" : std::to_string(v.lb),
                        [v](Options& o) { o.lb = v.lb, o.lb_tuned = v.tuned, o.lb_tuned_cap = v.cap; }));
  return out;
}

// The untuned lbs, then the profile's tuned one. A PDGEMM on a known grid
// shows the tuned lb as it runs there (capped); under Strassen each leaf
// caps its own.
std::vector<Options> search_lbs(const Options& o, const SearchContext& x) {
  std::vector<std::pair<int, bool>> lbs;  // (lb, tuned)
  for (int lb : x.lbs) lbs.emplace_back(lb, false);
  if (x.tuned.lb > 0) lbs.emplace_back(x.tuned.lb, true);
  if (lbs.empty()) lbs.emplace_back(0, false);
  std::vector<Options> out;
  for (const auto& [lb, tuned] : lbs) {
    Options v = o;
    v.lb = lb;
    v.lb_tuned = tuned;
    if (tuned) v.lb_tuned_cap = x.tuned.cap;
    if (tuned && v.pr > 0) v.lb = model::lb_of(v, double(x.pb.m), double(x.pb.n), double(x.pb.k), v.pr, v.pc);
    out.push_back(v);
  }
  return out;
}

// "lb=32(default)"; a tuned lb: "lb=64(auto)" where the grid is known (the
// lb in force), "lb=auto(668)" under Strassen (the profile's; each leaf caps it).
std::string label_lb(const Options& o) {
  if (o.lb <= 0) return " lb=" + std::to_string(kScalapackDefaultLb) + "(default)";
  if (o.lb_tuned) return o.pr > 0 ? " lb=" + std::to_string(o.lb) + "(auto)" : " lb=auto(" + std::to_string(o.lb) + ")";
  return " lb=" + std::to_string(o.lb);
}

// ---- --recursions ----
std::vector<Setting> parse_recursion_values(const std::string& text, const OptionContext&) {
  std::vector<Setting> out;
  for (const std::string& w : parse_word_list("--recursions", text)) {
    const int r = w == "max" ? -1 : static_cast<int>(parse_int_list("--recursions", w, 0, 30).at(0));
    out.push_back(plain(w, [r](Options& o) { o.recursions = r; }));
  }
  return out;
}

// r = 1 .. floor(log4 p) + 1 (check() rejects what does not apply).
std::vector<Options> search_recursions(const Options& o, const SearchContext& x) {
  std::vector<Options> out;
  for (int r = 1; r <= space::max_recursions_q8(x.ranks_of(o)) + 1; ++r) {
    out.push_back(o);
    out.back().recursions = r;
  }
  return out;
}

// ---- --local-strassen ----
// `--local-strassen auto`: profile::auto_local_levels.

std::vector<Setting> parse_local_levels(const std::string& text, const OptionContext& ctx) {
  std::vector<Setting> out;
  const auto level = [](int levels, std::int64_t min_dim, std::string asked) {
    return plain(std::move(asked), [levels, min_dim](Options& o) {
      o.local.levels = levels;
      o.local.min_dim = min_dim;
    });
  };
  if (text.empty()) return {level(0, 0, "0")};
  for (const std::string& w : parse_word_list("--local-strassen", text)) {
    if (w != "auto") {
      out.push_back(level(static_cast<int>(parse_int_list("--local-strassen", w, 0, 6).at(0)), 0, w));
      continue;
    }
    if (ctx.profile.empty())
      throw UsageError("--local-strassen auto needs --profile FILE (a machine profile from `mmbench tune`)");
    if (!ctx.facts || ctx.facts->local_tried_n <= 0)
      throw UsageError("--local-strassen auto: the profile " + ctx.profile +
                       " has no local Strassen crossover (tuned with --no-local?); run `mmbench tune` or give L");
    const profile::LocalLevels auto_levels = profile::auto_local_levels(*ctx.facts);
    out.push_back(level(auto_levels.levels, auto_levels.min_dim, "auto"));
  }
  return out;
}

std::vector<Options> search_local_levels(const Options& o, const SearchContext& x) {
  if (x.local_levels.empty()) return {o};
  std::vector<Options> out;
  for (int L : x.local_levels) {
    out.push_back(o);
    out.back().local.levels = L;
  }
  return out;
}

// ---- --local-cutoff ----
// The smallest block a local level splits: a level is done only while
// min(m, n, k) of the block is at least this (local_level_applies). 'default'
// keeps what --local-strassen set (the kernel's 256, or the profile's
// crossover under auto); a number overrides it, e.g. --local-strassen 3
// --local-cutoff 1024 on n = 4096 does 2 levels (4096 -> 2048 -> 1024 leaves).
std::vector<Setting> parse_local_cutoffs(const std::string& text, const OptionContext&) {
  std::vector<Setting> out;
  for (const std::string& w : parse_word_list("--local-cutoff", text)) {
    if (w == "default") {
      out.push_back(plain(w, [](Options&) {}));
      continue;
    }
    const std::int64_t n = parse_int_list("--local-cutoff", w, 2, 1 << 20).at(0);
    out.push_back(plain(w, [n](Options& o) { o.local.min_dim = n; }));
  }
  return out;
}

// ---- --local-gemm ----
std::vector<Setting> parse_local_gemms(const std::string& text, const OptionContext& ctx) {
  std::vector<Setting> out;
  for (const std::string& w : parse_local_gemm_words(text.empty() ? ctx.local_gemm_default : text)) {
    const LocalGemmChoice g = resolve_local_gemm(w, ctx);
    out.push_back(plain(w, [g](Options& o) {
      o.local.gemm = g.gemm;
      o.local.packed_blocking = g.blocking;
    }));
  }
  return out;
}

// ---- --local-fusion ----
std::vector<Setting> parse_fusions(const std::string& text, const OptionContext&) {
  std::vector<Setting> out;
  for (const std::string& w : parse_word_list("--local-fusion", text)) {
    local::FastGemmConfig::Fusion f{};
    try {
      f = local::parse_fusion(w);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--local-fusion: ") + e.what());
    }
    out.push_back(plain(w, [f](Options& o) { o.local.fusion = f; }));
  }
  return out;
}

// ---- --local-variant ----
std::vector<Setting> parse_variants(const std::string& text, const OptionContext&) {
  std::vector<Setting> out;
  for (const std::string& w : parse_word_list("--local-variant", text)) {
    local::FastVariant v{};
    try {
      v = local::parse_fast_variant(w);
    } catch (const std::invalid_argument&) {
      throw UsageError("--local-variant: '" + w + "' is not a variant; allowed winograd or strassen");
    }
    out.push_back(plain(w, [v](Options& o) { o.local.variant = v; }));
  }
  return out;
}

// ---- --local-stores ----
std::vector<Setting> parse_stores(const std::string& text, const OptionContext&) {
  std::vector<Setting> out;
  for (const std::string& w : parse_word_list("--local-stores", text)) {
    if (w != "streaming" && w != "cached")
      throw UsageError("--local-stores: '" + w + "' is not a store kind; allowed streaming or cached");
    out.push_back(plain(w, [streaming = w == "streaming"](Options& o) { o.local.streaming_stores = streaming; }));
  }
  return out;
}

// ---- --replicas ----
// auto: the largest c whose copies fit (0 if none: the plan's default,
// which the memory check then refuses).
std::vector<Setting> parse_replicas(const std::string& text, const OptionContext& ctx) {
  std::vector<Setting> out;
  for (const std::string& w : parse_word_list("--replicas", text)) {
    const int rc = w == "auto" ? 0 : static_cast<int>(parse_int_list("--replicas", w, 1, 1 << 24).at(0));
    out.push_back(
        {w, [rc, ranks = ctx.ranks, mem = ctx.max_doubles_per_rank](Options& o, const Algorithm&, const Problem& pb) {
           // A hybrid's copies sit on its computing ranks.
           const int computing = space::hybrid_inner(o, ranks).ranks;
           o.replicas = rc > 0 ? rc : space::largest_replicas_that_fit(pb, computing, mem);
           return std::string();
         }});
  }
  return out;
}

std::vector<Options> search_replicas(const Options& o, const SearchContext& x) {
  std::vector<Options> out;
  for (int c : space::replica_choices(x.ranks_of(o))) {
    out.push_back(o);
    out.back().replicas = c;
  }
  return out;
}

// ---- --q7-split ----
// model: the refined model's split, chosen for the configuration's other
// options -- so this row comes last. A depth the model cannot split (or
// that does not apply) is refused with the reason instead of running the
// paper's split under the model's name.
std::vector<Setting> parse_q7_splits(const std::string& text, const OptionContext& ctx) {
  std::vector<Setting> out;
  for (const std::string& w : parse_word_list("--q7-split", text)) {
    if (w != "paper" && w != "model")
      throw UsageError("--q7-split: '" + w + "' is not a split rule; allowed paper, model or paper,model");
    if (w == "model" && !ctx.params)
      throw UsageError("--q7-split model needs a machine: --profile FILE, or --lambda SECONDS --tau MB/s --flops MFLOPS");
    if (w == "paper") {
      out.push_back(plain(w, [](Options& o) { o.q7_splits = nullptr; }));
      continue;
    }
    out.push_back({w, [ranks = ctx.ranks, mp = *ctx.params](Options& o, const Algorithm& al, const Problem& pb) {
                     if (!al.check(pb, o, ranks).ok()) return std::string();  // the row will say why
                     try {
                       o.q7_splits = model::choose_q7_splits(al.models(), pb, o, ranks, mp);
                     } catch (const std::invalid_argument& e) {
                       return std::string("--q7-split model: ") + e.what();
                     }
                     return std::string();
                   }});
  }
  return out;
}

// ---- --ring-chunks ----

// auto: one chunk a step where the refined model prices it faster than up
// to 4 (model/refined_model.hpp ring_chunks_by_model: the profile's
// overlap hides nothing of the shift), else up to 4; numbers: at most that
// many. Needs the local kernel's levels and cut-off, so it comes after them.
std::vector<Setting> parse_ring_chunks(const std::string& text, const OptionContext& ctx) {
  std::vector<Setting> out;
  for (const std::string& w : parse_word_list("--ring-chunks", text)) {
    if (w != "auto") {
      const int most = static_cast<int>(parse_int_list("--ring-chunks", w, 1, space::kRingMaxChunks).at(0));
      out.push_back(plain(w, [most](Options& o) { o.ring_chunks = most; }));
      continue;
    }
    std::shared_ptr<const model::MachineParams> mp;
    if (ctx.params) mp = std::make_shared<const model::MachineParams>(*ctx.params);
    out.push_back({w, [ranks = ctx.ranks, mp](Options& o, const Algorithm&, const Problem& pb) {
                     o.ring_chunks = mp ? model::ring_chunks_auto(o, pb, ranks, *mp) : 0;
                     return std::string();
                   }});
  }
  return out;
}

// The values given (run --algo auto: --ring-chunks, default auto), or
// where none were (predict) both up to 4 and one, where the steps would be
// cut at all: the ranking then shows which the model prices lower.
std::vector<Options> search_ring_chunks(const Options& o, const SearchContext& x) {
  if (x.row_given && !x.row_given->empty()) return with_given(o, *x.row_given, x.algo, x.pb);
  Options cut = o, whole = o;
  cut.ring_chunks = 0;
  whole.ring_chunks = 1;
  const int ranks = x.ranks_of(o);
  const model::LocalKernel lk = model::local_of(o.local);
  const std::int64_t widest = (x.pb.n + ranks - 1) / ranks;
  if (ranks < 2 || space::ring_chunks(widest, false, lk.levels, lk.min_dim) < 2) return {cut};
  return {cut, whole};
}

// The paper's split; the ranking adds the model's own split of each Q7
// candidate beside it (selection.cpp), where it differs.
std::vector<Options> search_q7_split(const Options& o, const SearchContext&) {
  Options v = o;
  v.q7_splits = nullptr;
  return {v};
}

std::string label_q7_split(const Options& o) {
  // The top split: the entry with the most levels to go.
  return o.q7_splits && !o.q7_splits->empty() ? " split=model(" + space::format_split(o.q7_splits->rbegin()->second) + ")"
                                             : "";
}

}  // namespace

const std::vector<OptionRow>& option_table() {
  // Outermost first. No algorithm takes both --replicas and --q7-split, so
  // their order matters only for the split (last, see above).
  static const std::vector<OptionRow> table = {
      // First: the rows below search and size for the ranks it leaves
      // computing (SearchContext::ranks_of).
      {
          .flag = "--hybrid",
          .help = "Ranks x threads: t runs each algorithm on every t-th rank with t x --threads BLAS threads, the "
                  "other ranks idle (the same cores, t times fewer ranks); numbers, e.g. 1,2,4. --algo auto ranks "
                  "t up to a node's cores where the profile measured threaded DGEMM",
          .default_text = "1",
          .show_default = true,
          .used = &algos::Uses::hybrid,
          .column = "hybrid",
          .parse = parse_hybrids,
          .neutral = [](Options& o) { o.hybrid = 1; },
          .search = search_hybrids,
          .label =
              [](const Options& o) { return o.hybrid > 1 ? " hybrid=" + std::to_string(o.hybrid) : std::string(); },
          .label_position = 12,
      },
      {
          .flag = "--grid",
          .help = "Process grid(s) for pdgemm: auto (most square) or PxQ",
          .default_text = "auto",
          .show_default = true,
          .used = &algos::Uses::grid,
          .column = "grid",
          .parse = parse_grid_values,
          .neutral = [](Options& o) { o.pr = o.pc = 0; },
          .search = search_grids,
          .label = label_grid,
          .label_position = 1,
      },
      {
          .flag = "--nb",
          .help = "Block-cyclic block size(s) for pdgemm",
          .default_text = "64",
          .show_default = true,
          .used = &algos::Uses::nb,
          .column = "nb",
          .parse = parse_nb_values,
          .neutral = [](Options& o) { o.nb = 64; },
          .search = nullptr,
          .label = [](const Options& o) { return " nb=" + std::to_string(o.nb); },
          .label_position = 2,
      },
      {
          .flag = "--lb",
          .help = "PBLAS logical block size(s): 'default' (library's 32), 'auto' (the --profile's lb, capped at each "
                  "PDGEMM's problem and grid to keep several panels per process) or numbers (run as given)",
          .default_text = "default",
          .show_default = true,
          .used = &algos::Uses::lb,
          .column = "lb",
          .parse = parse_lb_settings,
          .neutral = [](Options& o) { o.lb = 0, o.lb_tuned = false; },
          .search = search_lbs,
          .label = label_lb,
          .label_position = 3,
      },
      {
          .flag = "--recursions",
          .help = "Parallel Strassen levels r: 'max' or numbers",
          .default_text = "max",
          .show_default = true,
          .used = &algos::Uses::recursions,
          .column = "recursions",
          .parse = parse_recursion_values,
          .neutral = [](Options& o) { o.recursions = -1; },
          .search = search_recursions,
          .label = [](const Options& o) { return " r=" + std::to_string(o.recursions); },
          .label_position = 0,
      },
      {
          .flag = "--local-strassen",
          .help =
              "Local Strassen levels L inside each rank (dgemm, ring, tpmm, Strassen leaves): numbers, e.g. 0,1,2,3, "
              "or 'auto' (levels while the block is at least the profile's measured crossover; needs --profile). "
              "Default 0; --algo auto tries 0,1,2,3",
          .default_text = "",
          .show_default = false,
          .used = &algos::Uses::local_levels,
          .column = "local_levels",
          .parse = parse_local_levels,
          .neutral = [](Options& o) { o.local.levels = 0, o.local.min_dim = 0; },
          .search = search_local_levels,
          .label =
              [](const Options& o) {
                return o.local.levels > 0 ? " L=" + std::to_string(o.local.levels) : std::string();
              },
          .label_position = 4,
      },
      {
          .flag = "--local-cutoff",
          .help = "Smallest block a local Strassen level splits (min(m, n, k) of the block): 'default' (the kernel's "
                  "256, or the profile's crossover under --local-strassen auto) or numbers, e.g. 512,1024",
          .default_text = "default",
          .show_default = true,
          .used = &algos::Uses::local_levels,
          .column = "local_cutoff",
          .parse = parse_local_cutoffs,
          .neutral = [](Options&) {},
          .search = nullptr,
          .label =
              [](const Options& o) {
                return o.local.levels > 0 && o.local.min_dim > 0 ? " cutoff=" + std::to_string(o.local.min_dim)
                                                                 : std::string();
              },
          .label_position = 5,
          .applies = [](const Options& o) { return o.local.levels > 0; },
      },
      // Inside --local-strassen: each L on BLAS and on the packed GEMM side by side.
      {
          .flag = "--local-gemm",
          .help =
              "GEMM at the bottom of the local levels (the algorithms of --local-strassen): blas (OpenBLAS DGEMM), "
              "packed (mmbench's packed GEMM, the deepest level fused into its packing; with --local-strassen 0 the "
              "packed GEMM alone; the profile's tuned block sizes where it has them), auto (the profile's faster leaf) "
              "or a list: blas,packed. Default blas; with --local-strassen auto (and for --algo auto's pick) and a "
              "profile that measured the packed GEMM, auto",
          .default_text = "",
          .show_default = false,
          .used = &algos::Uses::local_levels,
          .column = "local_gemm",
          .parse = parse_local_gemms,
          .neutral =
              [](Options& o) {
                o.local.gemm = local::LeafGemm::blas;
                o.local.packed_blocking = {};
              },
          .search = nullptr,
          .label =
              [](const Options& o) {
                return o.local.gemm == local::LeafGemm::packed ? std::string(" gemm=packed") : std::string();
              },
          .label_position = 6,
      },
      {
          .flag = "--local-fusion",
          .help = "Which local Strassen-Winograd levels fuse their operand sums into one pass each for A and B: all, "
                  "deepest, none, or a list (the kernel's schedules, docs/method.md)",
          .default_text = "all",
          .show_default = true,
          .used = &algos::Uses::local_levels,
          .column = "local_fusion",
          .parse = parse_fusions,
          .neutral = [](Options& o) { o.local.fusion = local::FastGemmConfig::Fusion::all; },
          .search = nullptr,
          .label =
              [](const Options& o) {
                return o.local.levels > 0 && o.local.fusion != local::FastGemmConfig::Fusion::all
                           ? " fusion=" + std::string(local::to_string(o.local.fusion))
                           : std::string();
              },
          .label_position = 7,
          .applies = [](const Options& o) { return o.local.levels > 0; },
      },
      {
          .flag = "--local-variant",
          .help = "Local fast kernel: winograd (15 additions), strassen (18), or both: winograd,strassen",
          .default_text = "winograd",
          .show_default = true,
          .used = &algos::Uses::local_levels,
          .column = "local_variant",
          .parse = parse_variants,
          .neutral = [](Options& o) { o.local.variant = local::FastVariant::winograd; },
          .search = nullptr,
          .label =
              [](const Options& o) {
                return o.local.levels > 0 && o.local.variant != local::FastVariant::winograd
                           ? " variant=" + std::string(local::to_string(o.local.variant))
                           : std::string();
              },
          .label_position = 8,
          .applies = [](const Options& o) { return o.local.levels > 0; },
      },
      {
          .flag = "--local-stores",
          .help = "How the local Strassen-Winograd levels' operand passes write: cached (ordinary stores) or "
                  "streaming (non-temporal stores, which skip reading each written line), or both: cached,streaming",
          .default_text = "cached",
          .show_default = true,
          .used = &algos::Uses::local_levels,
          .column = "local_stores",
          .parse = parse_stores,
          .neutral = [](Options& o) { o.local.streaming_stores = false; },
          .search = nullptr,
          .label =
              [](const Options& o) {
                return o.local.levels > 0 && o.local.streaming_stores ? std::string(" stores=streaming")
                                                                      : std::string();
              },
          .label_position = 9,
          .applies = [](const Options& o) { return o.local.levels > 0; },
      },
      {
          .flag = "--replicas",
          .help =
              "2.5d: layers c (p = q^2 x c), numbers or 'auto' (the largest c whose copies of A and B fit in memory)",
          .default_text = "auto",
          .show_default = true,
          .used = &algos::Uses::replicas,
          .column = "replicas",
          .parse = parse_replicas,
          .neutral = [](Options& o) { o.replicas = 0; },
          .search = search_replicas,
          .label = [](const Options& o) { return o.replicas > 0 ? " c=" + std::to_string(o.replicas) : std::string(); },
          .label_position = 10,
      },
      {
          .flag = "--q7-split",
          .help = "Q7 group split: 'paper' (eq. 2.18: ~2p/7, 2p/7, 2p/7, p/7), 'model' (the refined model's fastest "
                  "split per level; needs a machine) or both: paper,model",
          .default_text = "paper",
          .show_default = true,
          .used = &algos::Uses::q7_split,
          .column = "q7_split_rule",
          .parse = parse_q7_splits,
          .neutral = [](Options&) {},
          .search = search_q7_split,
          .label = label_q7_split,
          .label_position = 11,
      },
      {
          .flag = "--ring-chunks",
          .help = "ring: column chunks a step, with MPI_Testall between them so the shift moves meanwhile: 'auto' "
                  "(one chunk where the refined model prices it faster, i.e. the profile's measured overlap hides "
                  "nothing of the shift; else up to 4) or numbers 1-4 (at most that many)",
          .default_text = "auto",
          .show_default = true,
          .used = &algos::Uses::ring_chunks,
          .column = "ring_chunks",
          .parse = parse_ring_chunks,
          .neutral = [](Options& o) { o.ring_chunks = 0; },
          .search = search_ring_chunks,
          .label =
              [](const Options& o) {
                return o.ring_chunks > 0 ? " chunks=" + std::to_string(o.ring_chunks) : std::string();
              },
          .label_position = 12,
      },
  };
  return table;
}

std::vector<Options> with_given(const Options& o, const std::vector<Setting>& given, const Algorithm& algo,
                                const Problem& pb) {
  std::vector<Options> out;
  for (const Setting& s : given) {
    Options v = o;
    if (s.set(v, algo, pb).empty()) out.push_back(v);
  }
  return out;
}

const OptionRow& option_row(const std::string& flag) {
  for (const OptionRow& r : option_table())
    if (flag == r.flag) return r;
  throw std::invalid_argument("no option row " + flag);
}

}  // namespace mmbench::ranking
