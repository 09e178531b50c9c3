// The columns of a results CSV, in order (docs/csv-columns.md explains each).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "algos/registry.hpp"
#include "ranking/option_table.hpp"

namespace mmbench::results {

// The columns every results CSV has had, in their order; the algorithms'
// own columns (Algorithm::columns()) are among them, and a column an
// algorithm declares that is not yet here is appended after them. New
// columns go at the end, so readers that look columns up by name (compare,
// the plots) still read older files.
inline const std::vector<std::string>& base_results_columns() {
  static const std::vector<std::string> cols = {"timestamp",
                                                "host",
                                                "simulated",
                                                "p",
                                                "threads",
                                                "algo",
                                                "schema",
                                                "recursions",
                                                "cutoff",
                                                "grid",
                                                "nb",
                                                "lb",
                                                "lb_override",
                                                "local_levels",
                                                "local_levels_applied",
                                                "local_cutoff",
                                                "local_variant",
                                                "local_add_share",
                                                "local_add_share_by_level",
                                                "local_passes_by_level",
                                                "q7_split",
                                                "q7_split_rule",
                                                "replicas",
                                                "m",
                                                "n",
                                                "k",
                                                "warmup",
                                                "reps",
                                                "reps_asked",
                                                "order_seed",
                                                "t_min",
                                                "t_median",
                                                "t_max",
                                                "t_median_lo",
                                                "t_median_hi",
                                                "ci_coverage",
                                                "cv",
                                                "noisy",
                                                "peer_ratio",
                                                "peer_ratio_lo",
                                                "peer_ratio_hi",
                                                "mflops_per_proc",
                                                "gflops_total",
                                                "pred_paper",
                                                "pred_refined",
                                                "err_paper",
                                                "err_refined",
                                                "selected_by",
                                                "runner_up",
                                                "residual",
                                                "residual_limit",
                                                "verified",
                                                "peak_mem_mb",
                                                "exchanges_total",
                                                "exchanges_node_local",
                                                "status",
                                                "reason",
                                                "t_rounds",
                                                "peak_fraction"};
  return cols;
}

// Columns added after the algorithms' and the options' columns existed, at
// the very end, so that every earlier column keeps its place: the memory
// per rank, predicted beside measured (docs/method.md §7.7); how the local
// levels' passes store (--local-stores); the ranks x threads hybrid
// (--hybrid); ring's chunks a step (--ring-chunks); how close auto's pick
// was (runner_up_ratio). An algorithm or an option may declare one of
// these; it stays here, at the end.
inline const std::vector<std::string>& appended_results_columns() {
  static const std::vector<std::string> cols = {"mem_pred_mb", "mem_pred_parts", "mem_hwm_mb",
                                                "mem_err",     "mem_rss_mb",     "local_stores",
                                                "hybrid",      "ring_chunks",    "runner_up_ratio"};
  return cols;
}

// The base columns, then every algorithm's declared column not among them,
// in the order of the algorithm table, then every swept option's column
// (ranking/option_table.hpp) not among them, then the appended ones.
inline const std::vector<std::string>& results_columns() {
  static const std::vector<std::string> cols = [] {
    std::vector<std::string> c = base_results_columns();
    const std::vector<std::string>& last = appended_results_columns();
    const auto add = [&c](const std::string& name) {
      if (std::find(c.begin(), c.end(), name) == c.end()) c.push_back(name);
    };
    const auto add_unless_last = [&](const std::string& name) {
      if (std::find(last.begin(), last.end(), name) == last.end()) add(name);
    };
    for (const algos::Algorithm* a : algos::all_algorithms())
      for (const std::string& name : a->columns()) add_unless_last(name);
    for (const ranking::OptionRow& row : ranking::option_table()) add_unless_last(row.column);
    for (const std::string& name : last) add(name);
    return c;
  }();
  return cols;
}

// The columns of <csv stem>-validate.csv (run --validate), in order.
inline const std::vector<std::string>& validation_columns() {
  static const std::vector<std::string> cols = {"p",
                                                "cores",
                                                "m",
                                                "n",
                                                "k",
                                                "candidates",
                                                "measured",
                                                "rounds",
                                                "best",
                                                "t_best",
                                                "pick",
                                                "t_pick",
                                                "regret",
                                                "regret_ci_lo",
                                                "regret_ci_hi",
                                                "model",
                                                "median_abs_err_paper",
                                                "p90_abs_err_paper",
                                                "median_abs_err_refined",
                                                "p90_abs_err_refined",
                                                "mem_pred_pick_mb",
                                                "mem_hwm_pick_mb",
                                                "max_abs_mem_err",
                                                "runner_up_ratio"};
  return cols;
}

}  // namespace mmbench::results
