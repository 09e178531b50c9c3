#include "dispatch/dispatcher.hpp"

#include <mpi.h>

#include <cstdio>
#include <exception>

#include "core/csv_file.hpp"

namespace mmbench::dispatch {

namespace {

// One line on stderr in one write, so that it is not torn by other output.
void say(const std::string& line) { std::fputs((line + "\n").c_str(), stderr); }

CensusRecord record_of(const PdgemmCall& c, int pr, int pc) {
  CensusRecord r;
  r.transa = c.trans_a ? 'T' : 'N';
  r.transb = c.trans_b ? 'T' : 'N';
  r.m = c.m, r.n = c.n, r.k = c.k;
  r.alpha = c.alpha, r.beta = c.beta;
  r.ia = c.a.i0 + 1, r.ja = c.a.j0 + 1, r.ib = c.b.i0 + 1, r.jb = c.b.j0 + 1, r.ic = c.c.i0 + 1, r.jc = c.c.j0 + 1;
  r.pr = pr, r.pc = pc;
  r.blocking_a = c.a.blocking(), r.blocking_b = c.b.blocking(), r.blocking_c = c.c.blocking();
  return r;
}

}  // namespace

Dispatcher::Dispatcher(DispatchSettings settings, MachineFacts machine, bool writer)
    : settings_(std::move(settings)), machine_(std::move(machine)), writer_(writer) {
  if (!writer_) return;
  for (const std::string& p : settings_.problems) say("mmbench-dispatch: " + p);
  if (settings_.verbose) say(describe(settings_));
}

Dispatcher::~Dispatcher() {
  // Without finish() (no MPI_Finalize) MPI objects cannot be freed safely
  // any more: let the process end take them.
  for (auto& [id, g] : grids_) {
    for (Prepared& p : g.prepared) (void)p.run.release();
    g.comm.release();
  }
}

bool Dispatcher::force(const std::string& member) {
  if (!member.empty()) {
    std::string name;
    int levels = 0;
    if (!parse_forced(member, &name, &levels)) return false;
  }
  settings_.force = member;
  decisions_.clear();
  return true;
}

Dispatcher::GridState& Dispatcher::grid_state(CallerGrid& grid) {
  const std::vector<long> id = grid.identity();
  auto it = grids_.find(id);
  if (it == grids_.end()) {
    GridState g;
    g.comm = grid.communicator();
    it = grids_.emplace(id, std::move(g)).first;
  }
  return it->second;
}

MemberRun* Dispatcher::prepare(GridState& g, const Member& member, const PdgemmCall& call, std::string* why) {
  for (std::size_t i = 0; i < g.prepared.size(); ++i) {
    Prepared& p = g.prepared[i];
    if (p.label == member.label && p.m == call.m && p.n == call.n && p.k == call.k) {
      std::rotate(g.prepared.begin() + static_cast<long>(i), g.prepared.begin() + static_cast<long>(i) + 1,
                  g.prepared.end());
      return g.prepared.back().run.get();
    }
  }
  // Room under the memory cap (and for at most kMaxPrepared shapes),
  // oldest first. Every rank of the grid makes the same evictions -- the
  // estimates are global, not this rank's sizes -- so the communicators
  // the plans free are freed together.
  const double cap = double(settings_.max_mib) * 1024 * 1024;
  const auto held = [&g] {
    double b = 0;
    for (const Prepared& p : g.prepared) b += p.bytes;
    return b;
  };
  while (!g.prepared.empty() && (g.prepared.size() >= kMaxPrepared || held() + member.bytes_per_rank > cap))
    g.prepared.erase(g.prepared.begin());
  std::unique_ptr<MemberRun> run;
  std::string mine;
  try {
    run = std::make_unique<MemberRun>(*member.algo, member.opt, call, g.comm);
  } catch (const std::exception& e) {
    mine = e.what();
  }
  *why = g.comm.first_error(mine);
  if (!why->empty()) return nullptr;
  g.prepared.push_back(Prepared{member.label, call.m, call.n, call.k, member.bytes_per_rank, std::move(run)});
  return g.prepared.back().run.get();
}

void Dispatcher::pdgemm(const PdgemmCall& call, CallerGrid& grid, const std::function<void()>& scalapack) {
  ++calls_;
  const double t0 = MPI_Wtime();
  const int pr = grid.pr(), pc = grid.pc();
  const auto key = std::make_tuple(shape_key(call), pr, pc);
  auto it = decisions_.find(key);
  const bool cached = it != decisions_.end();
  if (!cached) it = decisions_.emplace(key, decide(call, pr, pc, settings_, machine_)).first;
  const Decision& d = it->second;
  CensusRecord r = record_of(call, pr, pc);
  r.cached = cached;
  r.choice = d.choice.label;
  r.reason = d.reason;
  r.t_pred = d.choice.total();
  r.t_pred_scalapack = d.t_scalapack;
  if (d.scalapack()) {
    scalapack();
    r.t_measured = MPI_Wtime() - t0;
  } else {
    GridState& g = grid_state(grid);
    std::string why;
    MemberRun* run = prepare(g, d.choice, call, &why);
    r.t_prepare = MPI_Wtime() - t0;
    if (run == nullptr) {
      r.choice = scalapack_member(call, pr, pc, machine_).label;
      r.reason = "preparing " + d.choice.label + " failed (" + why + "): to ScaLAPACK";
      r.t_pred = d.t_scalapack;
      scalapack();
    } else {
      try {
        r.t_convert = run->run(call, pr, pc).convert;
      } catch (const std::exception& e) {
        // Ranks may be inside different collectives now: nothing can be
        // rolled back, and C is half written.
        say(std::string("mmbench-dispatch: ") + d.choice.label + " failed inside a PDGEMM: " + e.what() +
            "; aborting (MMBENCH_DISPATCH=off runs ScaLAPACK alone)");
        MPI_Abort(MPI_COMM_WORLD, 3);
      }
      ++dispatched_;
    }
    r.t_measured = MPI_Wtime() - t0;
    if (!settings_.log_path.empty() && run != nullptr) r.t_measured = g.comm.max(r.t_measured);
  }
  last_choice_ = r.choice;
  r.call = calls_;
  record(std::move(r));
}

void Dispatcher::passed(char transa, char transb, long m, long n, long k, const std::string& why,
                        const std::function<void()>& scalapack) {
  ++calls_;
  const double t0 = MPI_Wtime();
  scalapack();
  CensusRecord r;
  r.call = calls_;
  r.transa = transa, r.transb = transb;
  r.m = m, r.n = n, r.k = k;
  r.choice = "scalapack";
  r.reason = why;
  r.t_measured = MPI_Wtime() - t0;
  last_choice_ = r.choice;
  record(std::move(r));
}

void Dispatcher::record(CensusRecord r) {
  if (!writer_ || settings_.log_path.empty() || census_failed_) return;
  try {
    if (!census_) census_ = std::make_unique<CsvFile>(settings_.log_path, census_columns());
    census_->append(census_cells(r));
  } catch (const std::exception& e) {
    census_failed_ = true;
    say(std::string("mmbench-dispatch: census off: ") + e.what());
    return;
  }
  records_.push_back(std::move(r));
}

void Dispatcher::finish() {
  if (writer_ && !settings_.log_path.empty() && !census_failed_)
    say("mmbench-dispatch census (" + settings_.log_path + "):\n" + census_summary(records_, 10));
  for (auto& [id, g] : grids_) g.prepared.clear();
  grids_.clear();
}

}  // namespace mmbench::dispatch
