#include "dispatch/dispatcher.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>

#include "core/matrix/buffer_pool.hpp"
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

// FNV-1a: the same value for the same text in every process (std::hash
// promises that only within one process).
std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return h;
}

std::string grid_text(const GridKey& k) { return std::to_string(k.pr) + "x" + std::to_string(k.pc); }

}  // namespace

Dispatcher::Dispatcher(DispatchSettings settings, MachineFacts machine, int rank)
    : settings_(std::move(settings)), machine_(std::move(machine)), rank_(rank) {
  // Every process says what it refused: a value only one process sees (its
  // own environment, a profile it cannot read) is the kind that makes
  // processes decide differently.
  const std::string who = rank_ == 0 ? "" : "rank " + std::to_string(rank_) + ": ";
  for (const std::string& p : settings_.problems) say("mmbench-dispatch: " + who + p);
  if (rank_ == 0 && settings_.verbose) say(describe(settings_));
  buffer_pool::set_capacity(static_cast<std::size_t>(cap_bytes()));
}

double Dispatcher::cap_bytes() const { return double(settings_.max_mib) * 1024 * 1024; }

double Dispatcher::GridState::held() const {
  double b = 0;
  for (const Prepared& p : prepared) b += p.bytes;
  return b;
}

std::size_t Dispatcher::GridState::evictions(double bytes, double cap, double* freed) const {
  double keep = held(), gone = 0;
  std::size_t i = 0;
  while (i < prepared.size() && (prepared.size() - i >= kMaxPrepared || keep + bytes > cap)) {
    keep -= prepared[i].bytes;
    gone += prepared[i].bytes;
    ++i;
  }
  if (freed != nullptr) *freed = gone;
  return i;
}

Dispatcher::~Dispatcher() {
  // Without finish() (no MPI_Finalize) MPI objects cannot be freed safely
  // any more: let the process end take them.
  for (auto& [key, g] : grids_) {
    for (Prepared& p : g->prepared) (void)p.run.release();
    g->comm.release();
  }
}

void Dispatcher::say_once(const std::string& line) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (disagreement_said_) return;
  disagreement_said_ = true;
  say(line);
}

bool Dispatcher::force(const std::string& member) {
  if (!member.empty()) {
    ForcedMember f;
    if (!parse_forced(member, &f)) return false;
  }
  std::vector<std::shared_ptr<GridState>> grids;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    settings_.force = member;
    for (auto& [key, g] : grids_) grids.push_back(g);
  }
  for (auto& g : grids) {
    std::lock_guard<std::mutex> lock(g->mutex);
    g->shapes.clear();
  }
  return true;
}

std::shared_ptr<Dispatcher::GridState> Dispatcher::grid_state(const GridKey& key, int ctxt) {
  std::lock_guard<std::mutex> lock(mutex_);
  contexts_[ctxt] = key;
  std::shared_ptr<GridState>& g = grids_[key];
  if (!g) g = std::make_shared<GridState>();
  return g;
}

void Dispatcher::context_freed(int ctxt) {
  // A program that makes a grid per call frees it after each: its buffers
  // wait in the pool for the next grid's members.
  const buffer_pool::Scope pool_scope;
  std::shared_ptr<GridState> gone;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = contexts_.find(ctxt);
    if (it == contexts_.end()) return;
    const GridKey key = it->second;
    contexts_.erase(it);
    for (const auto& [other, k] : contexts_)
      if (k == key) return;  // another live context names the same grid
    auto g = grids_.find(key);
    if (g == grids_.end()) return;
    gone = std::move(g->second);
    grids_.erase(g);
  }
  // Freed outside the lock; a thread still inside a call on it holds its own reference.
}

void Dispatcher::all_contexts_freed() {
  const buffer_pool::Scope pool_scope;
  std::map<GridKey, std::shared_ptr<GridState>> gone;
  std::lock_guard<std::mutex> lock(mutex_);
  contexts_.clear();
  gone.swap(grids_);
}

Decision Dispatcher::agreed(GridState& g, const GridKey& key, const PdgemmCall& call, Decision d, long pays) {
  // One reduction of the decision's fingerprint over the grid -- the member
  // and from which call it is prepared, since processes that prepare it at
  // different calls would enter different collectives; kept below 2^62 so
  // that Comm::same can negate it.
  const std::string what =
      d.choice.label + (d.forced ? " (forced)" : "") + (d.scalapack() ? "" : fmt::format(" from call {}", pays));
  if (g.comm.same(static_cast<long long>(fnv1a(what) >> 2))) return d;
  Decision s;
  s.choice = scalapack_member(call, key.pr, key.pc, machine_);
  s.t_scalapack = s.choice.t_run;
  s.reason = "the grid's processes decided differently (this one: " + what + "): ScaLAPACK";
  say_once("mmbench-dispatch: rank " + std::to_string(rank_) + ": the processes of a " + grid_text(key) +
           " grid decided differently on a " + std::to_string(call.m) + " x " + std::to_string(call.n) + " x " +
           std::to_string(call.k) + " call (this one: " + what +
           "); such calls go to ScaLAPACK. Do MMBENCH_PROFILE, the BLAS threads or the CPU differ between processes?");
  return s;
}

MemberRun* Dispatcher::prepared_run(GridState& g, const Member& member, const PdgemmCall& call) {
  for (std::size_t i = 0; i < g.prepared.size(); ++i) {
    Prepared& p = g.prepared[i];
    if (p.label == member.label && p.m == call.m && p.n == call.n && p.k == call.k) {
      std::rotate(g.prepared.begin() + static_cast<long>(i), g.prepared.begin() + static_cast<long>(i) + 1,
                  g.prepared.end());
      return g.prepared.back().run.get();
    }
  }
  return nullptr;
}

MemberRun* Dispatcher::prepare(GridState& g, const Member& member, const PdgemmCall& call, std::string* why) {
  // Room under the memory cap (and for at most kMaxPrepared shapes),
  // oldest first. Every rank of the grid makes the same evictions -- the
  // estimates are global, not this rank's sizes -- so the communicators
  // the plans free are freed together.
  // The evicted members' buffers go to the pool (the caller holds a
  // buffer_pool::Scope), where the new member takes what fits.
  const std::size_t out = g.evictions(member.bytes_per_rank, cap_bytes());
  g.prepared.erase(g.prepared.begin(), g.prepared.begin() + static_cast<long>(out));
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

CallReport Dispatcher::pdgemm(const PdgemmCall& call, CallerGrid& grid, const std::function<void()>& scalapack) {
  const long number = ++calls_;
  const double t0 = MPI_Wtime();
  const int pr = grid.pr(), pc = grid.pc();
  DispatchSettings s;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    s = settings_;
  }
  CensusRecord r = record_of(call, pr, pc);
  r.call = number;
  CallReport report;

  // 1. The checks every call gets, before any cache.
  std::string why = call_reason(call, pr, pc, s);
  if (why.empty()) why = local_reason(call, pr, pc, grid.myrow(), grid.mycol());
  GridKey key;
  if (why.empty()) {
    key = GridKey{pr, pc, grid.processes()};
    if (key.processes.empty()) why = "a grid process outside MPI_COMM_WORLD";
  }
  if (!why.empty()) {
    r.choice = scalapack_member(call, pr, pc, machine_).label;
    r.reason = why;
    scalapack();
    r.t_measured = MPI_Wtime() - t0;
    report.choice = r.choice;
    record(std::move(r));
    return report;
  }

  // 2. The grid's state; 3. the decision. From here on this thread's large
  // buffers come from the pool and go back to it.
  const buffer_pool::Scope pool_scope;
  std::shared_ptr<GridState> g = grid_state(key, grid.context());
  std::unique_lock<std::mutex> grid_lock(g->mutex);
  if (g->comm.is_null()) g->comm = grid.communicator();
  if (g->shapes.size() >= kMaxShapes) g->shapes.clear();
  auto [it, fresh] = g->shapes.try_emplace(price_key(call));
  Shape& shape = it->second;
  if (fresh) {
    // What the pool holds on the grid's process that holds least: the
    // preparation every process will pay for at most.
    const double pooled = g->comm.min(double(buffer_pool::idle_bytes()));
    Decision d = decide(call, pr, pc, s, machine_);
    if (!d.scalapack() && machine_.has_model) {
      // The chosen member also gets the buffers of the members its
      // preparation will let go (estimates: alike on every process).
      double freed = 0;
      g->evictions(d.choice.bytes_per_rank, cap_bytes(), &freed);
      d.choice.t_prepare = preparation_time(d.choice.bytes_per_rank, machine_.params, pooled + freed);
    }
    shape.decision = agreed(*g, key, call, d, calls_to_pay(d));
    shape.pays = calls_to_pay(shape.decision);
  }
  const double t_decided = MPI_Wtime();
  ++shape.calls;
  const Decision& d = shape.decision;
  r.cached = !fresh;
  r.choice = d.choice.label;
  r.reason = d.reason;
  r.t_pred = d.choice.total();
  r.t_pred_scalapack = d.t_scalapack;

  // 4. A member runs once prepared; it is prepared when that pays.
  MemberRun* run = nullptr;
  bool tried = false;
  if (!d.scalapack()) {
    run = prepared_run(*g, d.choice, call);
    if (run == nullptr) {
      const long pays = shape.pays;
      if (d.forced || (pays > 0 && shape.calls >= pays)) {
        tried = true;
        buffer_pool::reset_served();
        run = prepare(*g, d.choice, call, &why);
        if (run == nullptr)
          r.reason = "preparing " + d.choice.label + " failed (" + why + "): to ScaLAPACK";
        else if (!d.forced && shape.calls > 1)
          r.reason += fmt::format("; prepared at call {} of the shape (preparation {})", shape.calls,
                                  fmt::format("{:.3g} s", d.choice.t_prepare));
      } else {
        r.reason = fmt::format("model: {} saves {:.3g} s a call once prepared ({:.3g} s); ScaLAPACK until the "
                               "calls pay for it ({} of {})",
                               d.choice.label, d.t_scalapack - d.choice.total(), d.choice.t_prepare, shape.calls, pays);
      }
    }
  }
  if (run == nullptr) {
    if (!d.scalapack()) {
      r.choice = scalapack_member(call, pr, pc, machine_).label;
      r.t_pred = d.t_scalapack;
    }
    if (tried) r.t_prepare = MPI_Wtime() - t0;
    grid_lock.unlock();
    scalapack();
  } else {
    if (tried) {
      r.t_prepare = MPI_Wtime() - t0;
      r.t_decide = t_decided - t0;
      r.t_plan = run->preparation().plan;
      r.t_matrices = run->preparation().matrices;
      r.t_pred_prepare = d.choice.t_prepare;
    }
    try {
      r.t_convert = run->run(call, pr, pc).convert;
      if (tried) r.pooled_mib = double(buffer_pool::served_bytes()) / (1024 * 1024);
      // Idle buffers beyond the cap (with what the grid keeps prepared) go back to the system.
      buffer_pool::trim(static_cast<std::size_t>(std::max(0.0, cap_bytes() - g->held())));
    } catch (const std::exception& e) {
      // Ranks may be inside different collectives now: nothing can be
      // rolled back, and C is half written.
      say(std::string("mmbench-dispatch: ") + d.choice.label + " failed inside a PDGEMM: " + e.what() +
          "; aborting (MMBENCH_DISPATCH=off runs ScaLAPACK alone)");
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
    report.error_growth = run->error_growth();
    // The call's time is its slowest process's: one reduction, on every
    // process of the grid alike (a member ran on all of them).
    r.t_measured = g->comm.max(MPI_Wtime() - t0);
    ++dispatched_;
    grid_lock.unlock();
  }
  if (run == nullptr) r.t_measured = MPI_Wtime() - t0;
  report.choice = r.choice;
  record(std::move(r));
  return report;
}

CallReport Dispatcher::passed(char transa, char transb, long m, long n, long k, const std::string& why,
                              const std::function<void()>& scalapack) {
  const long number = ++calls_;
  const double t0 = MPI_Wtime();
  scalapack();
  CensusRecord r;
  r.call = number;
  r.transa = transa, r.transb = transb;
  r.m = m, r.n = n, r.k = k;
  r.choice = "scalapack";
  r.reason = why;
  r.t_measured = MPI_Wtime() - t0;
  CallReport report{r.choice, 1.0};
  record(std::move(r));
  return report;
}

void Dispatcher::record(CensusRecord r) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (rank_ != 0 || settings_.log_path.empty() || census_failed_) return;
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
  std::map<GridKey, std::shared_ptr<GridState>> gone;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (rank_ == 0 && !settings_.log_path.empty() && !census_failed_)
      say("mmbench-dispatch census (" + settings_.log_path + "):\n" + census_summary(records_, 10));
    contexts_.clear();
    gone.swap(grids_);
  }
  for (auto& [key, g] : gone) {
    std::lock_guard<std::mutex> lock(g->mutex);
    g->prepared.clear();
    g->comm = Comm();
  }
  buffer_pool::set_capacity(0);  // the idle buffers back to the system
}

}  // namespace mmbench::dispatch
