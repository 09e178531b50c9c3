// The ranked candidate table of `predict`, `explain` and `run --explain`,
// and its rows for the predict CSV / JSON (docs/csv-columns.md).
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ranking/selection.hpp"

namespace mmbench::results {

// Prints one block for problem pb on p ranks: a title line, the best `top`
// candidates (0 = all) with both predictions, and with show_excluded every
// excluded candidate with its reason.
void print_ranking(const ranking::Ranking& rk, const algos::Problem& pb, int p, std::size_t top, bool show_excluded);

// Columns of the predict CSV, in order.
const std::vector<std::string>& predict_columns();
// One CSV row per ranked candidate (rank 1 = the pick).
std::vector<std::map<std::string, std::string>> ranking_rows(const ranking::Ranking& rk, const algos::Problem& pb,
                                                             int p);
// {"p", "m", "n", "k", "model", "ranked": [...], "excluded": [...]}.
nlohmann::json ranking_json(const ranking::Ranking& rk, const algos::Problem& pb, int p);

// A memory estimate in the predict JSON: {"bytes_per_rank", "doubles": {a, b,
// c, replicas, comm, strassen, local, library}, "holders"}.
nlohmann::json memory_json(const algos::MemoryEstimate& m);

// MFLOPS per core of a predicted time: classical 2mnk count (docs/method.md §1) over
// p x threads cores, the convention of the run CSV.
double mflops_per_proc(const algos::Problem& pb, double seconds, int p, int threads);

}  // namespace mmbench::results
