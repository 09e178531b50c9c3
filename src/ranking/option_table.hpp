// The tunable options of a configuration, one row each: everything about an
// option in one place. Every reader of options walks this table:
//
//   `run`'s command line   flag, help, default text   (cli/run_command.cpp)
//   sweep expansion        parse -> the values to time; neutral where the
//                          algorithm does not read it (run/sweep_expansion.cpp)
//   `--algo auto`          search -> the values the ranking tries
//   ranking tables         label  -> "pdgemm grid=2x4 nb=64 lb=32(default)"
//   the results CSV        column -> the header (results/results_schema.hpp)
//
// Adding an option: one row here, the field it sets (space/options.hpp, and
// the Uses flag of the algorithms that read it), the code that uses the
// value, its tests and docs. tests/unit/test_option_table.cpp fails for a
// row that one of the readers above does not see.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "algos/algorithm.hpp"
#include "local/packed_gemm.hpp"
#include "model/machine_params.hpp"
#include "profile/profile_facts.hpp"

namespace mmbench::ranking {

// What parsing an option's text may need besides the text: the job and the
// machine profile's facts, as plain values the command line fills in
// (cli/run_args.cpp option_context). Every rank fills the same.
struct OptionContext {
  int ranks = 1;
  // The ranks a --grid may cover: ranks / t for each --hybrid t that
  // divides ranks (cli/run_args.cpp); empty: {ranks}.
  std::vector<int> grid_ranks;
  const model::MachineParams* params = nullptr;  // null: no machine given
  std::string profile;                            // --profile's path, "" = none
  // What the profile says (null: no profile): its lb, local Strassen
  // crossover and packed GEMM step, through profile/profile_facts.hpp.
  const profile::ProfileFacts* facts = nullptr;
  double max_doubles_per_rank = 0;  // memory per rank, 0 = unknown
  // What --local-gemm means where it is not given ("blas", or "auto" where
  // the profile measured the packed GEMM and a local level or the pick is
  // auto: cli/run_args.hpp parse_run_spec).
  std::string local_gemm_default = "blas";
};

// One value of an option as the user wrote it: the word, and what it does
// to a configuration. set() returns "" or why this configuration cannot
// take the value (the row then says so instead of running).
struct Setting {
  std::string asked;  // "2x4", "auto", "model"
  std::function<std::string(algos::Options&, const algos::Algorithm&, const algos::Problem&)> set;
};

// What the ranking's search of one option may need.
struct SearchContext {
  const algos::Algorithm& algo;
  const algos::Problem& pb;
  int p;
  const std::vector<int>& lbs;           // untuned lbs to try (0 = the library's)
  profile::TunedLb tuned;                // the profile's lb (0 = none) and how it follows the size
  const std::vector<int>& local_levels;  // L to try; empty = the base's
  // Per row of option_table(), the values to rank where the row has no
  // search of its own (--nb 32,64 ranks both); empty: the base's value.
  const std::vector<std::vector<Setting>>& given;
  // Ranks x threads hybrids to rank: every t up to this dividing p (1:
  // none; CandidateSpace::hybrid_max).
  int hybrid_max = 1;
  // The values given for the row being searched (given[row]; empty where
  // none were): a search that ranks the user's values where there are any.
  const std::vector<Setting>* row_given = nullptr;
  // The ranks a configuration computes on: p, or p / t for a hybrid.
  int ranks_of(const algos::Options& o) const;
};

struct OptionRow {
  const char* flag;          // "--grid"
  const char* help;          // for --help
  const char* default_text;  // the text when the flag is not given
  bool show_default;         // --help shows it
  bool algos::Uses::*used;   // which algorithms read it (their uses())
  const char* column;        // the results CSV column that reports it
  // Text -> values, each checked; throws UsageError naming the value and
  // what is allowed. Every rank parses alike.
  std::vector<Setting> (*parse)(const std::string& text, const OptionContext& ctx);
  // The value an algorithm that does not read the option gets in a sweep.
  void (*neutral)(algos::Options& o);
  // The values `--algo auto` ranks, from a configuration the earlier rows
  // made; null: the values given on the command line (or the default).
  std::vector<algos::Options> (*search)(const algos::Options& o, const SearchContext& x);
  // The option's part of a candidate's label (" grid=2x4"), "" = nothing.
  std::string (*label)(const algos::Options& o);
  int label_position;  // order within a label (r first: "strassen-q8+pdgemm r=2 grid=2x2")
  // Whether the option matters for a configuration the earlier rows made
  // (null: always where the algorithm reads it); where it does not, the
  // configuration takes the neutral value once (--local-fusion without
  // local levels: nothing to fuse).
  bool (*applies)(const algos::Options& o) = nullptr;
};

// Outermost first: the order a sweep's rows and auto's candidates come in.
const std::vector<OptionRow>& option_table();

// `o` under each of `given` that takes (Setting::set returns ""), in order:
// what the ranking tries for a row the user gave values of.
std::vector<algos::Options> with_given(const algos::Options& o, const std::vector<Setting>& given,
                                       const algos::Algorithm& algo, const algos::Problem& pb);
// The row of a flag; throws std::invalid_argument for an unknown flag.
const OptionRow& option_row(const std::string& flag);

// One --lb value: lb 0 = the library's 32; tuned = the profile's lb, which
// every PDGEMM caps to its own problem and grid (core/lb_in_force.hpp).
struct LbValue {
  int lb = 0;
  bool tuned = false;
  LbCap cap = LbCap::tuned();  // how a tuned lb follows each PDGEMM's size (profile::tuned_lb)
};
// --lb words: 'default' -> {0}, 'auto' -> {the profile's lb, tuned} (needs
// --profile with an lb), or numbers -> {n} (run as given).
std::vector<LbValue> parse_lb_values(const std::string& text, const OptionContext& ctx);

// --local-gemm: comma-separated GEMMs under the local levels, each "blas"
// or "packed" (local/fast_gemm.hpp LeafGemm) or "auto" (the profile's leaf,
// resolve_local_gemm), in the order given.
//   "blas,packed" -> blas packed;  "foo" -> UsageError naming 'foo' and the allowed ones
std::vector<std::string> parse_local_gemm_words(const std::string& text);

// What one --local-gemm word runs: the GEMM ("blas" or "packed") and, for
// packed, its block sizes (zeros: the kernel's defaults).
//   "blas"   -> blas
//   "packed" -> packed, with the profile's measured blocking where the
//               profile has one for the kernel this process runs, else defaults
//   "auto"   -> the profile's faster leaf (tune's packed step), as above;
//               UsageError without --profile or where the profile has no
//               packed step (tuned with --no-packed-tune or before it existed)
// A packed word under a bad MMBENCH_PACKED_ISA is a UsageError with its text.
using LocalGemmChoice = profile::LeafChoice;  // the GEMM and, for packed, its blocking
LocalGemmChoice resolve_local_gemm(const std::string& word, const OptionContext& ctx);

}  // namespace mmbench::ranking
