#include "cli/predict_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>

#include "algos/registry.hpp"
#include "cli/common_options.hpp"
#include "cli/ranking_table.hpp"
#include "core/usage_error.hpp"
#include "core/value_lists.hpp"
#include "core/csv_file.hpp"
#include "ranking/selection.hpp"

namespace mmbench::cli {

namespace {

constexpr std::int64_t kMaxP = 1 << 20;

void add_common(CLI::App* c, PredictArgs& a) {
  add_machine_options(c, a.machine);
  c->add_option("--m", a.m, "Rows of A and C (default: = n)");
  c->add_option("--k", a.k, "Inner dimension (default: = n)");
  c->add_option("--model", a.model, "Model that ranks the candidates: refined or paper (both are shown)")
      ->capture_default_str();
  c->add_option("--algo", a.algos, "Only these algorithms, comma-separated (default: every registered one)");
  c->add_option("--nb", a.nb, "Block-cyclic block size for pdgemm (one value)")->capture_default_str();
  c->add_option("--lb", a.lb, "PBLAS logical block sizes to consider: 'default' (32), 'auto' (the profile's, always added, capped at each PDGEMM's problem and grid) or numbers")
      ->capture_default_str();
  c->add_option("--threads", a.threads, "BLAS threads per rank")->capture_default_str();
  c->add_option("--local-strassen", a.local_levels,
                "Local Strassen levels L to rank for dgemm, ring, tpmm and the Strassen leaves (cut-off: the profile's "
                "crossover, else 256)")
      ->capture_default_str();
  c->add_option("--local-gemm", a.local_gemm,
                "GEMM under the local levels: blas (OpenBLAS DGEMM), packed (mmbench's packed GEMM) or auto (the "
                "profile's faster one); one value")
      ->capture_default_str();
  c->add_option("--top", a.top, "Candidates printed per (p, n); 0 = all (files always get all)")->capture_default_str();
  c->add_option("--csv", a.csv, "Append every ranked candidate to this CSV (docs/csv-columns.md)");
  c->add_option("--json", a.json, "Write the rankings (and exclusions) as JSON to this file");
}

}  // namespace

CLI::App* add_predict_command(CLI::App& app, PredictArgs& a) {
  CLI::App* c = app.add_subcommand(
      "predict", "Predict time and MFLOPS/proc of every applicable candidate for any p and n, ranked (no measurement)");
  c->add_option("--p", a.p, "Process counts: list or range like --n (1 to 1048576)")->required();
  c->add_option("--n", a.n, "Matrix size n: 1024,2048 or 1024:4096:1024 or 512:4096:*2")->required();
  add_common(c, a);
  return c;
}

CLI::App* add_explain_command(CLI::App& app, PredictArgs& a) {
  CLI::App* c = app.add_subcommand(
      "explain", "Ranked candidates for this job's p (or --p) with the reason each excluded one does not apply");
  c->add_option("--p", a.p, "Process counts (default: the number of MPI ranks)");
  c->add_option("--n", a.n, "Matrix size n (list or range)")->required();
  add_common(c, a);
  return c;
}

int predict_command(const PredictArgs& a, const Comm& world) {
  // Validation first, on every rank alike (usage_error.hpp).
  const std::vector<std::int64_t> ps =
      a.p.empty() ? std::vector<std::int64_t>{world.size()} : parse_int_list("--p", a.p, 1, kMaxP);
  const std::vector<algos::Problem> problems = parse_problems(a.n, a.m, a.k);
  const model::ModelKind kind = parse_model_option(a.model);
  check_threads(a.threads);
  if (a.top < 0) throw UsageError("--top: " + std::to_string(a.top) + " is out of range; allowed 0 (all) or more");
  const Machine machine = load_machine(a.machine);

  ranking::CandidateSpace space;
  space.lbs.clear();
  const ranking::OptionContext ctx = option_context(&machine, a.machine.profile);
  for (const ranking::LbValue v : ranking::parse_lb_values(a.lb, ctx))
    if (!v.tuned) space.lbs.push_back(v.lb);
  // The profile's tuned lb is always a candidate, capped per PDGEMM.
  if (machine.lb > 0) space.tuned_lb = machine.lb;
  if (!a.algos.empty())
    for (const std::string& name : parse_word_list("--algo", a.algos)) space.only.emplace_back(algorithm_named(name).name());
  algos::Options base;
  base.threads = a.threads;
  const std::vector<std::int64_t> nbs = parse_int_list("--nb", a.nb, 1, 1 << 20);
  if (nbs.size() != 1)
    throw UsageError("--nb: '" + a.nb + "' gives " + std::to_string(nbs.size()) + " values; predict takes one nb");
  base.nb = static_cast<int>(nbs[0]);
  space.cores_per_node = machine.cores;
  for (std::int64_t L : parse_int_list("--local-strassen", a.local_levels, 0, 6))
    space.local_levels.push_back(static_cast<int>(L));
  if (machine.local_l1_n > 0) base.local.min_dim = machine.local_l1_n;
  const ranking::LocalGemmChoice gemm =
      ranking::resolve_local_gemm(parse_one_local_gemm(a.local_gemm, "predict takes one local GEMM"), ctx);
  base.local.gemm = gemm.gemm;
  base.local.packed_blocking = gemm.blocking;

  if (world.rank() != 0) return 0;

  std::unique_ptr<CsvFile> csv;
  if (!a.csv.empty()) {
    try {
      csv = std::make_unique<CsvFile>(a.csv, predict_columns());
    } catch (const std::exception& e) {
      throw UsageError(std::string("--csv: ") + e.what());
    }
  }
  fmt::print("machine {}\n", describe(machine));
  nlohmann::json doc = {{"schema", "mmbench-predict/1"}, {"machine", describe(machine)}, {"rankings", nlohmann::json::array()}};
  for (std::int64_t p : ps)
    for (const algos::Problem& pb : problems) {
      ranking::Ranking rk;
      try {
        rk = ranking::rank_candidates(pb, static_cast<int>(p), base, machine.params, kind, space);
      } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
      }
      print_ranking(rk, pb, static_cast<int>(p), static_cast<std::size_t>(a.top), a.explain);
      if (csv)
        for (const auto& row : ranking_rows(rk, pb, static_cast<int>(p))) csv->append(row);
      if (!a.json.empty()) doc["rankings"].push_back(ranking_json(rk, pb, static_cast<int>(p)));
    }
  if (!a.json.empty()) {
    try {
      write_file_atomically(a.json, doc.dump(2) + "\n");
    } catch (const std::exception& e) {
      throw UsageError(std::string("--json: ") + e.what());
    }
  }
  return 0;
}

}  // namespace mmbench::cli
