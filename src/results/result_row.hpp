// `mmbench run`, the output stage of its pipeline (run/sweep_expansion.hpp): a
// configuration and its measurement become one typed ResultRow; cells()
// is the one place that formats it into the CSV's columns
// (results_schema.hpp), and print_row() prints the table line on rank 0
// from the same typed values (nothing is parsed back from text).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "run/configuration.hpp"
#include "model/machine_params.hpp"
#include "profile/peak_record.hpp"
#include "run/sweep_rounds.hpp"
#include "core/stats/paired_stats.hpp"
#include "core/matrix/verify.hpp"
#include "core/stats/timing.hpp"

namespace mmbench::results {

// Both models' predictions for a configuration as it ran.
struct Predicted {
  double paper = 0, refined = 0;
  double error_paper(double t) const { return (paper - t) / t; }  // relative to a measured time t > 0
  double error_refined(double t) const { return (refined - t) / t; }
};
// nullopt where a model does not cover the configuration.
std::optional<Predicted> predict_as_ran(const run::Config& c, const run::Measured& m,
                                        const model::MachineParams& machine);

// One configuration's line of the results: who it is, then what happened.
struct ResultRow {
  enum class Status { ok, failed, not_applicable };

  // ---- identity: every row, measured or not ----
  std::string timestamp, host;
  std::string simulated;  // the SMPI platform, "" for real runs
  int p = 0;              // ranks (as the plan ran once measured: Plan::as_run)
  int threads = 0;        // BLAS threads per rank (likewise)
  int hybrid = 1;         // ranks x threads hybrid t (space/hybrid.hpp): p of p x t ranks computed
  std::string algo;
  algos::Problem pb;
  int warmup = 0;
  std::string reps_asked;  // as given: a number or "auto"
  std::uint64_t order_seed = 0;
  std::string local_levels;  // as asked (a number, or the expansion's label)
  std::string local_gemm;    // as asked; empty for an algorithm without local levels
  std::string selected_by, runner_up;
  double runner_up_ratio = 0;  // Config::runner_up_ratio; 0: none (column left empty)
  // The plan's own columns (Plan::describe(): grid, nb, lb, schema, ...).
  std::map<std::string, std::string> described;

  // ---- outcome ----
  Status status = Status::ok;
  std::string reason;       // why it is not ok (or why verification was skipped)
  std::optional<int> reps;  // rounds measured (also for a failure after some rounds)
  struct Timing {
    Stats times;                 // min, median, max over the rounds
    std::vector<double> rounds;  // every round's time, in round order (CSV t_rounds)
    MedianInterval interval;     // the median's order-statistics interval
    double cv = 0;               // coefficient of variation
    double peak_mem_mb = 0;
    double mem_hwm_mb = 0;             // Measured::mem_hwm_mb
    std::optional<double> mem_rss_mb;  // Measured::mem_rss_mb, where measured
    double mflops_per_proc = 0;
    double gflops_total = 0;
    bool noisy() const;
  };
  std::optional<Timing> timing;
  struct Verification {
    double residual = 0, limit = 0;
    double relative = 0;  // core/matrix/verify.hpp: must stay <= kRelativeResidualLimit too
    bool passed() const { return verified(Residuals{residual, relative}, limit); }  // false for a NaN
  };
  std::optional<Verification> verification;  // nullopt with timing: skipped
  std::optional<MedianInterval> peer_ratio;  // peer time / this time, per round
  std::optional<Predicted> predicted;
  // The achieved rate over the peak of the cores used (add_peak_fraction).
  std::optional<double> peak_fraction;
  // The predicted peak memory per rank (Algorithm::memory) where the
  // algorithm applies, measured or not.
  std::optional<algos::MemoryEstimate> memory;

  // The CSV's cells, keyed by column name (columns absent here stay empty).
  std::map<std::string, std::string> cells() const;
};

// The identity part of a row.
ResultRow identity_row(const run::Config& c, int warmup, const std::string& reps_asked, int p,
                       std::uint64_t order_seed);
// Times, rates, noise and verification of a measured configuration.
void add_measurement(ResultRow& row, const run::Config& c, const run::Measured& m);
// Speed relative to the peer, round by round (peer time / this time).
void add_peer_ratio(ResultRow& row, const run::Measured& peer, const run::Measured& m);
// peak_fraction of a measured row: its MFLOPS per core over the recorded
// peak per core of p x threads cores (tuner::peak_fraction).
void add_peak_fraction(ResultRow& row, const profile::PeakRecord& peak);

// 6 significant digits, as every time column.
std::string fmt_sig(double v);

// The table on stdout: its column titles, and a row's cells in that order
// (the Markdown export, run_exports.hpp, prints the same table).
const std::vector<std::string>& table_titles();
std::vector<std::string> table_cells(const ResultRow& r);
void print_header();
void print_row(const ResultRow& r);

}  // namespace mmbench::results
