// The dispatcher against ScaLAPACK's own PDGEMM, call by call: a plain
// MPI + ScaLAPACK program (it links nothing of mmbench) run with
// libmmbench-dispatch.so preloaded. For every member named on the command
// line it forces that member (mmbench_dispatch_force) and makes `calls`
// random PDGEMM calls -- transposes, alpha and beta (beta = 0 with NaN and
// Inf in C, alpha = 0), submatrices starting inside blocks, MB != NB,
// RSRC/CSRC != 0, a padded LLD, zero M, N or K -- each checked by
// pdgemm_check.hpp against ScaLAPACK's own on a copy of C.
//
// The BLACS pattern (--pattern) is how real programs hold their grids:
//   one-grid       one grid for the whole run (--grid PRxPC, --order R|C);
//   grid-per-call  a new grid for every call: a random PR x PC <= P over a
//                  random subset of the processes in a random order
//                  (Cblacs_gridmap), freed after the call -- BLACS hands
//                  the same context handle out again;
//   live-grids     four grids alive at once (row-major over all processes,
//                  column-major over all, the processes reversed, one
//                  process alone), calls on them interleaved at random,
//                  every 7th call one of them freed and made again in the
//                  other order;
//   repeat         three shapes X, Y, Z, then X, Y, Z again on new operands,
//                  on one grid (a program's loop over a few shapes: the
//                  dispatcher's cached plans, matrices and schedules, and
//                  whatever an earlier shape left in them);
//   alpha-zero     each shape twice on one grid: a product, then the same
//                  shape and blockings with alpha = 0 or K = 0 and NaN/Inf
//                  in A and B (which must not be read), beta 0 (NaN/Inf in
//                  C) or not.
//
// The census: rank 0 writes the calls it made (--expect FILE) for
// tests/dispatch/check_census.py to hold against MMBENCH_DISPATCH_LOG.
//
//   mpirun -n P dispatch_suite [--pattern NAME] [--grid PRxPC] [--order R|C]
//          [--calls N] [--seed S] [--max-dim D] [--expect FILE] MEMBER...
// Exit status: 0 = every check passed, 1 = a check failed, 2 = bad usage.
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <numeric>

#include "pdgemm_check.hpp"

namespace {

using namespace pdgemm_check;

int g_rank = 0, g_size = 1;

struct Options {
  std::string pattern = "one-grid", order = "R", expect;
  int pr = 1, pc = 1, calls = 200, max_dim = 48;
  unsigned long seed = 1;
  std::vector<std::string> members;
};

// The most error a forced member may claim: 12 per parallel Strassen
// level (one at p <= 8 here), 18 per local Winograd level (docs/dispatch.md).
double nominal_growth(const std::string& member) {
  double g = 1.0;
  const std::size_t colon = member.find(':');
  if (colon != std::string::npos) g *= std::pow(18.0, std::atoi(member.c_str() + colon + 1));
  if (member.rfind("strassen-", 0) == 0) g *= 12.0 * 18.0 * 18.0 * 18.0;  // the auto local levels under it too
  return g;
}

// A random call on grid g: the shape, and each operand's global matrix.
struct Drawn {
  Call call;
  std::array<int, 6> a, b, c;  // M, N, MB, NB, RSRC, CSRC
  int pad_a, pad_b, pad_c;
};

Drawn draw(std::mt19937_64& rng, const Grid& g, int max_dim) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Drawn d;
  Call& c = d.call;
  c.ta = pick(0, 1) ? 'T' : 'N';
  c.tb = pick(0, 1) ? 'T' : 'N';
  auto dim = [&] { return pick(0, 19) == 0 ? 0 : pick(1, max_dim); };
  c.m = dim(), c.n = dim(), c.k = dim();
  const double alphas[] = {1.0, -0.5, 2.5, 0.0};
  const double betas[] = {0.0, 0.0, 1.0, -1.5};
  c.alpha = alphas[pick(0, 9) == 0 ? 3 : pick(0, 2)];
  c.beta = betas[pick(0, 3)];
  // Offsets (often inside a block), its own blocking and source process.
  auto operand = [&](int rows, int cols, int* i0, int* j0) {
    *i0 = pick(0, 9), *j0 = pick(0, 9);
    const int mb = pick(1, 8), nb = pick(1, 8);
    return std::array<int, 6>{*i0 + rows + pick(0, 5), *j0 + cols + pick(0, 5), mb, nb, pick(0, g.pr - 1),
                              pick(0, g.pc - 1)};
  };
  d.a = operand(c.ta == 'T' ? c.k : c.m, c.ta == 'T' ? c.m : c.k, &c.ia, &c.ja);
  d.b = operand(c.tb == 'T' ? c.n : c.k, c.tb == 'T' ? c.k : c.n, &c.ib, &c.jb);
  d.c = operand(c.m, c.n, &c.ic, &c.jc);
  d.pad_a = pick(0, 3), d.pad_b = pick(0, 3), d.pad_c = pick(0, 3);
  return d;
}

// The grids of a pattern, made and freed the way it says.
class Grids {
 public:
  explicit Grids(const Options& o) : o_(o) {
    if (o.pattern == "one-grid") {
      live_.push_back(gridinit(o.order, o.pr, o.pc));
    } else if (o.pattern == "alpha-zero" || o.pattern == "repeat") {
      live_.push_back(gridinit(o.order, o.pr, o.pc));
    } else if (o.pattern == "live-grids") {
      const int rows = o.pr, cols = o.pc;
      live_.push_back(gridinit("R", rows, cols));
      live_.push_back(gridinit("C", rows, cols));
      std::vector<int> reversed(static_cast<std::size_t>(g_size));
      std::iota(reversed.rbegin(), reversed.rend(), 0);
      live_.push_back(gridmap(reversed, cols, rows));
      live_.push_back(gridmap({g_size - 1}, 1, 1));
    }
  }
  ~Grids() {
    for (const Grid& g : live_)
      if (g.in()) Cblacs_gridexit(g.ctxt);
  }
  Grids(const Grids&) = delete;
  Grids& operator=(const Grids&) = delete;

  // The grid of call number i (collective: grids are made and freed here).
  const Grid& for_call(int i, std::mt19937_64& rng) {
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    if (o_.pattern == "grid-per-call") {
      for (const Grid& g : live_)
        if (g.in()) Cblacs_gridexit(g.ctxt);
      live_.clear();
      const int pr = pick(1, g_size), pc = pick(1, g_size / pr);
      std::vector<int> who(static_cast<std::size_t>(g_size));
      std::iota(who.begin(), who.end(), 0);
      std::shuffle(who.begin(), who.end(), rng);
      who.resize(static_cast<std::size_t>(pr * pc));
      live_.push_back(gridmap(who, pr, pc));
      return live_[0];
    }
    if (o_.pattern == "live-grids") {
      if (i > 0 && i % 7 == 0) {
        const std::size_t j = static_cast<std::size_t>(pick(0, 1));  // the row- or the column-major grid
        if (live_[j].in()) Cblacs_gridexit(live_[j].ctxt);
        flipped_[j] = !flipped_[j];
        const bool row_major = (j == 0) != flipped_[j];
        live_[j] = gridinit(row_major ? "R" : "C", o_.pr, o_.pc);
      }
      return live_[static_cast<std::size_t>(pick(0, static_cast<int>(live_.size()) - 1))];
    }
    return live_[0];
  }

 private:
  static Grid gridinit(const std::string& order, int pr, int pc) {
    int ctxt = 0;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, order.c_str(), pr, pc);
    return grid_info(ctxt);
  }
  // who[r + c * pr]: the process at (r, c); the others are not in the grid.
  static Grid gridmap(std::vector<int> who, int pr, int pc) {
    int ctxt = 0;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridmap(&ctxt, who.data(), pr, pr, pc);
    return grid_info(ctxt);
  }
  const Options& o_;
  std::vector<Grid> live_;
  bool flipped_[2] = {false, false};
};

bool parse(int argc, char** argv, Options* o) {
  bool grid_given = false;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    const bool more = a + 1 < argc;
    if (arg == "--grid" && more) {
      if (std::sscanf(argv[++a], "%dx%d", &o->pr, &o->pc) != 2) return false;
      grid_given = true;
    } else if (arg == "--pattern" && more) {
      o->pattern = argv[++a];
    } else if (arg == "--order" && more) {
      o->order = argv[++a];
    } else if (arg == "--calls" && more) {
      o->calls = std::atoi(argv[++a]);
    } else if (arg == "--max-dim" && more) {
      o->max_dim = std::atoi(argv[++a]);
    } else if (arg == "--seed" && more) {
      o->seed = std::strtoul(argv[++a], nullptr, 10);
    } else if (arg == "--expect" && more) {
      o->expect = argv[++a];
    } else {
      o->members.push_back(arg);
    }
  }
  if (!grid_given) o->pr = 1, o->pc = g_size;
  const bool pattern_ok = o->pattern == "one-grid" || o->pattern == "grid-per-call" || o->pattern == "live-grids" ||
                          o->pattern == "alpha-zero" || o->pattern == "repeat";
  return pattern_ok && o->pr >= 1 && o->pc >= 1 && o->pr * o->pc == g_size && o->calls >= 1 && o->max_dim >= 1 &&
         !o->members.empty() && (o->order == "R" || o->order == "C");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  Options o;
  if (!parse(argc, argv, &o)) {
    if (g_rank == 0)
      std::fprintf(stderr, "usage: dispatch_suite [--pattern one-grid|grid-per-call|live-grids|alpha-zero] "
                           "[--grid PRxPC (PR*PC = %d)] [--order R|C] [--calls N] [--seed S] [--max-dim D] "
                           "[--expect FILE] MEMBER...\n", g_size);
    MPI_Finalize();
    return 2;
  }
  const PdgemmFn reference = scalapack_pdgemm();
  auto force = lookup<int (*)(const char*)>(RTLD_DEFAULT, "mmbench_dispatch_force");
  const Library lib = Library::find();
  if (reference == nullptr || force == nullptr || lib.last_choice == nullptr || reference == &pdgemm_) {
    if (g_rank == 0) std::fprintf(stderr, "dispatch_suite: needs libmmbench-dispatch.so preloaded before ScaLAPACK\n");
    MPI_Finalize();
    return 2;
  }

  std::ofstream expected;
  if (g_rank == 0 && !o.expect.empty()) expected.open(o.expect);
  long failures = 0, checked = 0, dispatched = 0, total_calls = 0;
  for (const std::string& member : o.members) {
    if (force(member.c_str()) != 0) {
      if (g_rank == 0) std::fprintf(stderr, "dispatch_suite: the library refuses member '%s'\n", member.c_str());
      ++failures;
      continue;
    }
    std::mt19937_64 rng(o.seed);  // the same calls for every member, on every rank
    long member_dispatched = 0, with_levels = 0, as_hybrid = 0;
    Grids grids(o);
    Drawn previous{};
    std::array<Drawn, 3> history{};              // pattern repeat: the last three calls
    std::array<std::vector<double>, 3> results;  // and the dispatcher's C of each
    for (int i = 0; i < o.calls; ++i) {
      const Grid& g = grids.for_call(i, rng);
      Drawn d = draw(rng, g, o.max_dim);
      const bool second = o.pattern == "alpha-zero" && i % 2 == 1;
      const bool again = o.pattern == "repeat" && i % 6 >= 3;
      if (again) {
        // The call of three calls back, on the same operands: shapes X, Y,
        // Z, then X, Y, Z again.
        d = history[static_cast<std::size_t>(i % 3)];
      } else if (second) {
        // The previous call's shape and blockings again, with nothing to multiply.
        const double beta = d.call.beta;
        const bool k_zero = d.call.alpha != 0.0 && i % 4 == 3;
        d = previous;
        d.call.beta = beta;
        if (k_zero) d.call.k = 0;
        else d.call.alpha = 0.0;
      }
      previous = d;
      if (o.pattern == "repeat") history[static_cast<std::size_t>(i % 3)] = d;
      const int filled_as = again ? i - 3 : i;  // a repeated call gets the same operands
      std::mt19937_64 fill(o.seed * 1000003 + static_cast<unsigned long>(filled_as) * 31 +
                           static_cast<unsigned long>(g_rank));
      const Call& c = d.call;
      Matrix A, B, C;
      if (g.in()) {
        A = make_matrix(g, d.a, d.pad_a, fill);
        B = make_matrix(g, d.b, d.pad_b, fill);
        C = make_matrix(g, d.c, d.pad_c, fill);
        if (second) poison(A), poison(B);
        if (c.beta == 0.0) poison(C);  // C is not to be read
      }
      std::vector<double> result;
      Outcome r = check_call(g, c, A, B, C, nominal_growth(member), reference, lib, &result);
      if (o.pattern == "repeat" && g.in()) {
        // The same call after other shapes must give the same bits: a
        // result that depends on what ran before differs between two runs
        // of one program (ScaLAPACK's xdsvd compares two such runs).
        std::vector<double>& first = results[static_cast<std::size_t>(i % 3)];
        if (again) {
          for (std::size_t e = 0; e < result.size() && e < first.size(); ++e)
            if (!same_bits(result[e], first[e])) {
              ++r.wrong;
              if (r.first < 0) r.first = static_cast<long>(e);
            }
        } else {
          first = result;
        }
      }
      if (g.in()) checked += r.checked;
      if (g.in() && g.myrow == 0 && g.mycol == 0) {  // counted once per call
        member_dispatched += r.routed[0] + r.routed[1];
        if (r.growth > 1.0) ++with_levels;
        if (std::strstr(lib.last_choice(), " hybrid=") != nullptr) ++as_hybrid;
        total_calls += 2;
      }
      if (g.in()) {
        // The census holds the calls of the job's rank 0: its grid's calls.
        if (expected.is_open() && g.in())
          for (int twice = 0; twice < 2; ++twice)
            expected << member << ',' << c.ta << ',' << c.tb << ',' << c.m << ',' << c.n << ',' << c.k << ','
                     << (r.routed[twice] ? "mmbench" : "scalapack") << ',' << g.pr << 'x' << g.pc << '\n';
      }
      long any = r.wrong;
      MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
      if (any > 0) {
        ++failures;
        if (r.wrong > 0)
          std::fprintf(stderr, "dispatch_suite: rank %d: member %s call %d on %dx%d (%s; choice %s): %ld wrong, "
                       "first local %ld\n", g_rank, member.c_str(), i, g.pr, g.pc, c.text(A, B, C).c_str(),
                       lib.last_choice(), r.wrong, r.first);
      }
    }
    MPI_Allreduce(MPI_IN_PLACE, &member_dispatched, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &with_levels, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &as_hybrid, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    dispatched += member_dispatched;
    // A member forced as a hybrid (name/t) must have run as one where it
    // ran at all, and a plain member never.
    const bool hybrid_member = member.find('/') != std::string::npos;
    if (hybrid_member ? member_dispatched > 0 && as_hybrid == 0 : as_hybrid > 0) {
      if (g_rank == 0)
        std::fprintf(stderr, "dispatch_suite: member %s ran as a hybrid in %ld of %d calls\n", member.c_str(),
                     as_hybrid, o.calls);
      ++failures;
    }
    // A member with local levels must have applied one (the tolerance it
    // earns is only for calls that did).
    if (member.find(':') != std::string::npos && std::atoi(member.c_str() + member.find(':') + 1) > 0 &&
        with_levels == 0) {
      if (g_rank == 0)
        std::fprintf(stderr, "dispatch_suite: member %s applied no local Strassen level in %d calls\n",
                     member.c_str(), o.calls);
      ++failures;
    }
    if (g_rank == 0)
      std::printf(
          "dispatch_suite pattern=%s grid=%dx%d order=%s member=%s calls=%d dispatched=%ld "
          "with_strassen_levels=%ld as_hybrid=%ld\n",
          o.pattern.c_str(), o.pr, o.pc, o.order.c_str(), member.c_str(), o.calls, member_dispatched, with_levels,
          as_hybrid);
  }
  MPI_Allreduce(MPI_IN_PLACE, &total_calls, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  long all_checked = 0, all_failures = 0;
  MPI_Allreduce(&checked, &all_checked, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&failures, &all_failures, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  if (g_rank == 0)
    std::printf("dispatch_suite pattern=%s calls=%ld dispatched=%ld elements_checked=%ld failed_calls=%ld\n",
                o.pattern.c_str(), total_calls, dispatched, all_checked, all_failures);
  Cblacs_exit(1);
  MPI_Finalize();
  return all_failures > 0 ? 1 : 0;
}
