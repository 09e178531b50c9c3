#include "results/ranking_table.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/byte_size.hpp"
#include "core/lb_in_force.hpp"
#include "model/algorithm_models.hpp"

namespace mmbench::results {

using model::ModelKind;
using ranking::Candidate;

double mflops_per_proc(const algos::Problem& pb, double seconds, int p, int threads) {
  return seconds > 0 ? pb.flops() / seconds / (double(p) * std::max(1, threads)) / 1e6 : 0.0;
}

void print_ranking(const ranking::Ranking& rk, const algos::Problem& pb, int p, std::size_t top, bool show_excluded) {
  fmt::print("p = {}, m = {}, n = {}, k = {}: {} candidates ranked by the {} model, {} excluded\n", p, pb.m, pb.n, pb.k,
             rk.ranked.size(), model::to_string(rk.model), rk.excluded.size());
  fmt::print("  {:>4}  {:<44} {:>11} {:>11} {:>11} {:>11} {:>11} {:>10}\n", "rank", "candidate", "t_pred[s]",
             "MFLOPS/p", "paper[s]", "refined[s]", "comm[s]", "mem/rank");
  const std::size_t shown = top == 0 ? rk.ranked.size() : std::min(top, rk.ranked.size());
  for (std::size_t i = 0; i < shown; ++i) {
    const Candidate& c = rk.ranked[i];
    const double t = c.time(rk.model);
    const double comm = rk.model == ModelKind::paper ? c.paper.comm_s : c.refined.comm_s;
    fmt::print("  {:>4}  {:<44} {:>11.4g} {:>11.1f} {:>11.4g} {:>11.4g} {:>11.4g} {:>10}\n", i + 1, c.label(), t,
               mflops_per_proc(pb, t, p, c.opt.threads), c.paper.total(), c.refined.total(), comm,
               format_bytes(c.memory.bytes()));
  }
  if (shown < rk.ranked.size()) fmt::print("  ... {} more (--top 0 shows all)\n", rk.ranked.size() - shown);
  if (show_excluded)
    for (const ranking::Excluded& e : rk.excluded) fmt::print("  excluded: {:<44} {}\n", e.label, e.reason);
  std::fflush(stdout);
}

const std::vector<std::string>& predict_columns() {
  static const std::vector<std::string> cols = {"p",
                                                "m",
                                                "n",
                                                "k",
                                                "rank",
                                                "algo",
                                                "schema",
                                                "recursions",
                                                "cutoff",
                                                "grid",
                                                "nb",
                                                "lb",
                                                "threads",
                                                "model",
                                                "t_pred",
                                                "mflops_per_proc",
                                                "pred_paper",
                                                "pred_refined",
                                                "comm_paper",
                                                "comp_paper",
                                                "comm_refined",
                                                "comp_refined",
                                                "label",
                                                "mem_pred_mb",
                                                "mem_pred_parts"};
  return cols;
}

namespace {

std::map<std::string, std::string> row_of(const Candidate& c, std::size_t rank, const ranking::Ranking& rk,
                                          const algos::Problem& pb, int p) {
  const model::AlgorithmModel& am = c.algo->models();
  const algos::Uses u = c.algo->uses();
  const double t = c.time(rk.model);
  std::map<std::string, std::string> r = {
      {"p", std::to_string(p)},
      {"m", std::to_string(pb.m)},
      {"n", std::to_string(pb.n)},
      {"k", std::to_string(pb.k)},
      {"rank", std::to_string(rank)},
      {"algo", std::string(c.algo->name())},
      {"schema", std::string(am.schema)},
      {"recursions", std::to_string(std::max(0, c.opt.recursions))},
      {"cutoff", std::string(am.cutoff)},
      {"threads", std::to_string(c.opt.threads)},
      {"model", model::to_string(rk.model)},
      {"t_pred", fmt::format("{:.6g}", t)},
      {"mflops_per_proc", fmt::format("{:.1f}", mflops_per_proc(pb, t, p, c.opt.threads))},
      {"pred_paper", fmt::format("{:.6g}", c.paper.total())},
      {"pred_refined", fmt::format("{:.6g}", c.refined.total())},
      {"comm_paper", fmt::format("{:.6g}", c.paper.comm_s)},
      {"comp_paper", fmt::format("{:.6g}", c.paper.comp_s)},
      {"comm_refined", fmt::format("{:.6g}", c.refined.comm_s)},
      {"comp_refined", fmt::format("{:.6g}", c.refined.comp_s)},
      {"label", c.label()},
      {"mem_pred_mb", fmt::format("{:.1f}", c.memory.bytes() / (1 << 20))},
      {"mem_pred_parts", algos::parts_text(c.memory)},
  };
  if (u.grid) r["grid"] = std::to_string(c.opt.pr) + "x" + std::to_string(c.opt.pc);
  if (u.nb) r["nb"] = std::to_string(c.opt.nb);
  if (u.lb) r["lb"] = std::to_string(c.opt.lb > 0 ? c.opt.lb : kScalapackDefaultLb);
  return r;
}

}  // namespace

nlohmann::json memory_json(const algos::MemoryEstimate& m) {
  return {{"bytes_per_rank", m.bytes()},
          {"doubles",
           {{"a", m.a},
            {"b", m.b},
            {"c", m.c},
            {"replicas", m.replicas},
            {"comm", m.comm},
            {"strassen", m.strassen},
            {"local", m.local},
            {"library", m.library}}},
          {"holders", m.holders == 0 ? "every rank" : "rank 0"}};
}

std::vector<std::map<std::string, std::string>> ranking_rows(const ranking::Ranking& rk, const algos::Problem& pb,
                                                             int p) {
  std::vector<std::map<std::string, std::string>> out;
  for (std::size_t i = 0; i < rk.ranked.size(); ++i) out.push_back(row_of(rk.ranked[i], i + 1, rk, pb, p));
  return out;
}

nlohmann::json ranking_json(const ranking::Ranking& rk, const algos::Problem& pb, int p) {
  nlohmann::json doc = {{"p", p}, {"m", pb.m}, {"n", pb.n}, {"k", pb.k}, {"model", model::to_string(rk.model)}};
  nlohmann::json ranked = nlohmann::json::array(), excluded = nlohmann::json::array();
  for (std::size_t i = 0; i < rk.ranked.size(); ++i) {
    const Candidate& c = rk.ranked[i];
    const double t = c.time(rk.model);
    ranked.push_back(
        {{"rank", i + 1},
         {"label", c.label()},
         {"algo", std::string(c.algo->name())},
         {"recursions", std::max(0, c.opt.recursions)},
         {"pr", c.opt.pr},
         {"pc", c.opt.pc},
         {"nb", c.opt.nb},
         {"lb", c.opt.lb > 0 ? c.opt.lb : kScalapackDefaultLb},
         {"t_pred", t},
         {"mflops_per_proc", mflops_per_proc(pb, t, p, c.opt.threads)},
         {"paper", {{"comm_s", c.paper.comm_s}, {"comp_s", c.paper.comp_s}, {"total_s", c.paper.total()}}},
         {"refined", {{"comm_s", c.refined.comm_s}, {"comp_s", c.refined.comp_s}, {"total_s", c.refined.total()}}},
         {"memory", memory_json(c.memory)}});
  }
  for (const ranking::Excluded& e : rk.excluded) excluded.push_back({{"label", e.label}, {"reason", e.reason}});
  doc["ranked"] = std::move(ranked);
  doc["excluded"] = std::move(excluded);
  return doc;
}

}  // namespace mmbench::results
