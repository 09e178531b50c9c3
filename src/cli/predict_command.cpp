#include "cli/predict_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>

#include "algos/registry.hpp"
#include "cli/common_options.hpp"
#include "cli/isoefficiency_report.hpp"
#include "results/ranking_table.hpp"
#include "core/byte_size.hpp"
#include "core/usage_error.hpp"
#include "core/value_lists.hpp"
#include "core/csv_file.hpp"
#include "ranking/selection.hpp"

namespace mmbench::cli {

using results::predict_columns;
using results::print_ranking;
using results::ranking_json;
using results::ranking_rows;

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
  c->add_option("--n", a.n, "Matrix size n: 1024,2048 or 1024:4096:1024 or 512:4096:*2 (required unless --isoefficiency)");
  c->add_option("--isoefficiency", a.isoefficiency,
                "E in (0, 1): for each algorithm and p, the smallest n whose predicted efficiency (against p x one "
                "rank's DGEMM) reaches E, and its best member; instead of --n");
  c->add_option("--n-max", a.n_max, "--isoefficiency: the largest n searched")->capture_default_str();
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

namespace {

// --isoefficiency: E in (0, 1), --n-max, and no --n, --m, --k.
struct IsoArgs {
  double target = 0;
  std::int64_t n_max = 0;
};
IsoArgs parse_iso(const PredictArgs& a) {
  IsoArgs iso;
  std::size_t used = 0;
  try {
    iso.target = std::stod(a.isoefficiency, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != a.isoefficiency.size() || !(iso.target > 0 && iso.target < 1))
    throw UsageError("--isoefficiency: '" + a.isoefficiency + "' is out of range; allowed a number above 0 and below 1");
  const std::vector<std::int64_t> n_max = parse_int_list("--n-max", a.n_max, 16, kMaxDim);
  if (n_max.size() != 1) throw UsageError("--n-max: '" + a.n_max + "' gives several values; --isoefficiency takes one");
  iso.n_max = n_max[0];
  for (const auto& [flag, text] : {std::pair<const char*, const std::string&>{"--n", a.n}, {"--m", a.m}, {"--k", a.k}})
    if (!text.empty())
      throw UsageError(std::string(flag) + ": not used with --isoefficiency (the search finds n x n x n; --n-max "
                       "bounds it)");
  return iso;
}

// Rank 0: every algorithm's isoefficiency point at every p.
int isoefficiency_command(const PredictArgs& a, double target, std::int64_t n_max, const std::vector<std::int64_t>& ps,
                          const algos::Options& base, const Machine& machine, model::ModelKind kind,
                          const ranking::CandidateSpace& space, const MemoryLimit& limit) {
  std::unique_ptr<CsvFile> csv;
  if (!a.csv.empty()) {
    try {
      csv = std::make_unique<CsvFile>(a.csv, isoefficiency_columns());
    } catch (const std::exception& e) {
      throw UsageError(std::string("--csv: ") + e.what());
    }
  }
  fmt::print("machine {}\n", describe(machine));
  if (!a.machine.memory_per_rank.empty()) fmt::print("memory per rank {} ({})\n", format_bytes(limit.bytes), limit.source);
  const IsoHeader h{target, kind, n_max, base.threads};
  print_isoefficiency_header(h);
  std::vector<ranking::IsoPoint> points;
  for (const algos::Algorithm* algo : algos::all_algorithms()) {
    if (!space.only.empty() && std::find(space.only.begin(), space.only.end(), std::string(algo->name())) == space.only.end())
      continue;
    for (std::int64_t p : ps) {
      try {
        points.push_back(ranking::isoefficiency(*algo, static_cast<int>(p), target, n_max, base, machine.params, kind, space));
      } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
      }
      print_isoefficiency_point(points.back(), h);
      if (csv) csv->append(isoefficiency_row(points.back(), h));
    }
  }
  print_isoefficiency_summary(points);
  if (!a.json.empty()) {
    try {
      write_file_atomically(a.json, isoefficiency_json(points, h, describe(machine)).dump(2) + "\n");
    } catch (const std::exception& e) {
      throw UsageError(std::string("--json: ") + e.what());
    }
  }
  return 0;
}

}  // namespace

int predict_command(const PredictArgs& a, const Comm& world) {
  // Validation first, on every rank alike (usage_error.hpp).
  const std::vector<std::int64_t> ps =
      a.p.empty() ? std::vector<std::int64_t>{world.size()} : parse_int_list("--p", a.p, 1, kMaxP);
  const bool iso_mode = !a.isoefficiency.empty();
  const IsoArgs iso = iso_mode ? parse_iso(a) : IsoArgs{};
  if (!iso_mode && a.n.empty()) throw UsageError("--n is required (or predict --isoefficiency E, which searches n)");
  const std::vector<algos::Problem> problems = iso_mode ? std::vector<algos::Problem>{} : parse_problems(a.n, a.m, a.k);
  const model::ModelKind kind = parse_model_option(a.model);
  check_threads(a.threads);
  if (a.top < 0) throw UsageError("--top: " + std::to_string(a.top) + " is out of range; allowed 0 (all) or more");
  // Only one-rank predictions may do without a network.
  const bool one_rank = !iso_mode && std::all_of(ps.begin(), ps.end(), [](std::int64_t p) { return p == 1; });
  const Machine machine = load_machine(a.machine, !one_rank);

  ranking::CandidateSpace space;
  space.lbs.clear();
  const ranking::OptionContext ctx = option_context(&machine, a.machine.profile);
  for (const ranking::LbValue& v : ranking::parse_lb_values(a.lb, ctx))
    if (!v.tuned) space.lbs.push_back(v.lb);
  // The profile's tuned lb is always a candidate, capped per PDGEMM.
  space.tuned = profile::tuned_lb(machine.facts);
  if (!a.algos.empty())
    for (const std::string& name : parse_word_list("--algo", a.algos)) space.only.emplace_back(algorithm_named(name).name());
  algos::Options base;
  base.threads = a.threads;
  const std::vector<std::int64_t> nbs = parse_int_list("--nb", a.nb, 1, 1 << 20);
  if (nbs.size() != 1)
    throw UsageError("--nb: '" + a.nb + "' gives " + std::to_string(nbs.size()) + " values; predict takes one nb");
  base.nb = static_cast<int>(nbs[0]);
  space.cores_per_node = machine.cores;
  space.hybrid_max = ranking::hybrid_max_for(machine.params, machine.cores, a.threads);
  for (std::int64_t L : parse_int_list("--local-strassen", a.local_levels, 0, 6))
    space.local_levels.push_back(static_cast<int>(L));
  if (machine.facts.local_l1_n > 0) base.local.min_dim = machine.facts.local_l1_n;
  const ranking::LocalGemmChoice gemm =
      ranking::resolve_local_gemm(parse_one_local_gemm(a.local_gemm, "predict takes one local GEMM"), ctx);
  base.local.gemm = gemm.gemm;
  base.local.packed_blocking = gemm.blocking;
  const MemoryLimit limit = memory_limit(a.machine, &machine);
  if (limit.bytes > 0) {
    space.max_doubles_per_rank = limit.bytes / 8;
    space.memory_limit_source = limit.source;
  }

  if (world.rank() != 0) return 0;
  if (iso_mode) return isoefficiency_command(a, iso.target, iso.n_max, ps, base, machine, kind, space, limit);

  std::unique_ptr<CsvFile> csv;
  if (!a.csv.empty()) {
    try {
      csv = std::make_unique<CsvFile>(a.csv, predict_columns());
    } catch (const std::exception& e) {
      throw UsageError(std::string("--csv: ") + e.what());
    }
  }
  fmt::print("machine {}\n", describe(machine));
  if (!a.machine.memory_per_rank.empty()) fmt::print("memory per rank {} ({})\n", format_bytes(limit.bytes), limit.source);
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
