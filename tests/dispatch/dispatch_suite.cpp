// The dispatcher against ScaLAPACK's own PDGEMM, call by call: a plain
// MPI + ScaLAPACK program (it links nothing of mmbench) run with
// libmmbench-dispatch.so preloaded. For every member named on the command
// line it forces that member (mmbench_dispatch_force) and makes `calls`
// random PDGEMM calls -- transposes, alpha and beta (beta = 0 with NaN and
// Inf in C, alpha = 0), submatrices starting inside blocks, MB != NB,
// RSRC/CSRC != 0, a padded LLD, zero M, N or K -- each on a copy of C with
// ScaLAPACK's PDGEMM (the library's own symbol, found with dlopen) and on
// another copy through pdgemm_ (the dispatcher). Checked per call:
//   - inside sub(C): |C - C_ref| <= 2 bound, the classical componentwise
//     bound (k + 2) u (|alpha| |op(A)| |op(B)| + |beta| |C|) of each, or
//     for a Strassen member the normwise bound times its growth (12 per
//     parallel Strassen level, 18 per local Winograd level, docs/dispatch.md);
//   - every element of C outside sub(C) (the LLD padding too), and A and
//     B, bit for bit as before;
//   - a second call with the same arguments on another copy of C (the
//     cached decision, plan and exchange schedules) gives the same bits;
//   - the census: rank 0 writes the calls it made (--expect FILE) for
//     tests/dispatch/check_census.py to hold against MMBENCH_DISPATCH_LOG.
//
//   mpirun -n P dispatch_suite --grid PRxPC [--order R|C] [--calls N] [--seed S]
//          [--expect FILE] MEMBER...
// Exit status: 0 = every check passed, 1 = a check failed, 2 = bad usage.
#include <dlfcn.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

extern "C" {
void Cblacs_get(int ictxt, int what, int* val);
void Cblacs_gridinit(int* ictxt, const char* order, int nprow, int npcol);
void Cblacs_gridinfo(int ictxt, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int ictxt);
void Cblacs_exit(int cont);
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrcproc, const int* nprocs);
void pdgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double* alpha,
             const double* a, const int* ia, const int* ja, const int* desca, const double* b, const int* ib,
             const int* jb, const int* descb, const double* beta, double* c, const int* ic, const int* jc,
             const int* descc);
}

namespace {

using PdgemmFn = decltype(&pdgemm_);
int g_rank = 0;

template <class Fn>
Fn lookup(void* handle, const char* name) {
  void* s = dlsym(handle, name);
  Fn f = nullptr;
  std::memcpy(&f, &s, sizeof s);
  return f;
}

// ScaLAPACK's own pdgemm_: the definition inside the library that defines
// numroc_, not the first one in the process (the preloaded dispatcher).
PdgemmFn scalapack_pdgemm() {
  Dl_info info{};
  void* numroc = nullptr;
  auto fn = &numroc_;
  std::memcpy(&numroc, &fn, sizeof numroc);
  if (dladdr(numroc, &info) == 0 || info.dli_fname == nullptr) return nullptr;
  void* lib = dlopen(info.dli_fname, RTLD_NOLOAD | RTLD_LAZY);
  return lib == nullptr ? nullptr : lookup<PdgemmFn>(lib, "pdgemm_");
}

// One operand's global matrix and this process's local array.
struct Matrix {
  int desc[9];
  int lld = 1, loc_rows = 0, loc_cols = 0;
  std::vector<double> data;  // lld x loc_cols
};

int numroc(int n, int nb, int p, int src, int np) { return numroc_(&n, &nb, &p, &src, &np); }

// Global (row, col) of local (i, j) on process (pr_, pc_): block-cyclic with a source process.
long global_of(long l, int nb, int p, int src, int np) {
  const int dist = (p - src + np) % np;
  return ((l / nb) * np + dist) * nb + l % nb;
}

Matrix make_matrix(int ctxt, int m, int n, int mb, int nb, int rsrc, int csrc, int pad, int pr, int pc, int myrow,
                   int mycol, std::mt19937_64& fill) {
  Matrix x;
  x.loc_rows = numroc(m, mb, myrow, rsrc, pr);
  x.loc_cols = numroc(n, nb, mycol, csrc, pc);
  x.lld = std::max(1, x.loc_rows) + pad;
  int d[9] = {1, ctxt, m, n, mb, nb, rsrc, csrc, x.lld};
  std::memcpy(x.desc, d, sizeof d);
  x.data.resize(static_cast<std::size_t>(x.lld) * static_cast<std::size_t>(std::max(1, x.loc_cols)));
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (double& v : x.data) v = u(fill);
  return x;
}

// Is local (i, j) of x inside the submatrix (i0, j0) + rows x cols (0-based)?
bool in_sub(const Matrix& x, long i, long j, long i0, long j0, long rows, long cols, int pr, int pc, int myrow,
            int mycol) {
  if (i >= x.loc_rows || j >= x.loc_cols) return false;  // LLD padding
  const long gi = global_of(i, x.desc[4], myrow, x.desc[6], pr), gj = global_of(j, x.desc[5], mycol, x.desc[7], pc);
  return gi >= i0 && gi < i0 + rows && gj >= j0 && gj < j0 + cols;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int pr = 1, pc = p, calls = 200;
  unsigned long seed = 1;
  std::string order = "R", expect;
  std::vector<std::string> members;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--grid" && a + 1 < argc) {
      if (std::sscanf(argv[++a], "%dx%d", &pr, &pc) != 2) pr = 0;
    } else if (arg == "--order" && a + 1 < argc) {
      order = argv[++a];
    } else if (arg == "--calls" && a + 1 < argc) {
      calls = std::atoi(argv[++a]);
    } else if (arg == "--seed" && a + 1 < argc) {
      seed = std::strtoul(argv[++a], nullptr, 10);
    } else if (arg == "--expect" && a + 1 < argc) {
      expect = argv[++a];
    } else {
      members.push_back(arg);
    }
  }
  if (pr < 1 || pc < 1 || pr * pc != p || calls < 1 || members.empty() || (order != "R" && order != "C")) {
    if (g_rank == 0)
      std::fprintf(stderr, "usage: dispatch_suite --grid PRxPC (PR*PC = %d) [--order R|C] [--calls N] [--seed S] "
                           "[--expect FILE] MEMBER...\n", p);
    MPI_Finalize();
    return 2;
  }
  const PdgemmFn reference = scalapack_pdgemm();
  auto force = lookup<int (*)(const char*)>(RTLD_DEFAULT, "mmbench_dispatch_force");
  auto last = lookup<const char* (*)()>(RTLD_DEFAULT, "mmbench_dispatch_last_choice");
  if (reference == nullptr || force == nullptr || last == nullptr || reference == &pdgemm_) {
    if (g_rank == 0) std::fprintf(stderr, "dispatch_suite: needs libmmbench-dispatch.so preloaded before ScaLAPACK\n");
    MPI_Finalize();
    return 2;
  }
  int ctxt = 0, rows = 0, cols = 0, myrow = -1, mycol = -1;
  Cblacs_get(-1, 0, &ctxt);
  Cblacs_gridinit(&ctxt, order.c_str(), pr, pc);
  Cblacs_gridinfo(ctxt, &rows, &cols, &myrow, &mycol);

  std::ofstream expected;
  if (g_rank == 0 && !expect.empty()) expected.open(expect);
  long failures = 0, checked = 0, dispatched = 0, total_calls = 0;
  for (const std::string& member : members) {
    if (force(member.c_str()) != 0) {
      if (g_rank == 0) std::fprintf(stderr, "dispatch_suite: the library refuses member '%s'\n", member.c_str());
      ++failures;
      continue;
    }
    // The error growth of the member (docs/dispatch.md): 12 per parallel
    // Strassen level (one at p = 4), 18 per local Winograd level.
    double growth = 1.0;
    const std::size_t colon = member.find(':');
    if (colon != std::string::npos) growth *= std::pow(18.0, std::atoi(member.c_str() + colon + 1));
    if (member.rfind("strassen-", 0) == 0) growth *= 12.0;
    std::mt19937_64 rng(seed);  // the same calls for every member, on every rank
    long member_dispatched = 0;
    for (int call = 0; call < calls; ++call) {
      auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
      const bool ta = pick(0, 1), tb = pick(0, 1);
      auto dim = [&] { return pick(0, 19) == 0 ? 0 : pick(1, 48); };
      const int m = dim(), n = dim(), k = dim();
      const double alphas[] = {1.0, -0.5, 2.5, 0.0};
      const double betas[] = {0.0, 0.0, 1.0, -1.5};
      const double alpha = alphas[pick(0, 9) == 0 ? 3 : pick(0, 2)], beta = betas[pick(0, 3)];
      // Each operand: offsets (often inside a block), its own blocking and source process, a padded LLD.
      auto operand = [&](int sub_rows, int sub_cols, int* i0, int* j0) {
        *i0 = pick(0, 9), *j0 = pick(0, 9);
        const int mb = pick(1, 8), nb = pick(1, 8);
        return std::array<int, 6>{*i0 + sub_rows + pick(0, 5), *j0 + sub_cols + pick(0, 5), mb, nb, pick(0, pr - 1),
                                  pick(0, pc - 1)};
      };
      int ia, ja, ib, jb, ic, jc;
      const auto da = operand(ta ? k : m, ta ? m : k, &ia, &ja);
      const auto db = operand(tb ? n : k, tb ? k : n, &ib, &jb);
      const auto dc = operand(m, n, &ic, &jc);
      std::mt19937_64 fill(seed * 1000003 + static_cast<unsigned long>(call) * 31 + static_cast<unsigned long>(g_rank));
      Matrix A = make_matrix(ctxt, da[0], da[1], da[2], da[3], da[4], da[5], pick(0, 3), pr, pc, myrow, mycol, fill);
      Matrix B = make_matrix(ctxt, db[0], db[1], db[2], db[3], db[4], db[5], pick(0, 3), pr, pc, myrow, mycol, fill);
      Matrix C = make_matrix(ctxt, dc[0], dc[1], dc[2], dc[3], dc[4], dc[5], pick(0, 3), pr, pc, myrow, mycol, fill);
      // beta = 0: C is not to be read; NaN and Inf there must not leak through.
      if (beta == 0.0)
        for (std::size_t i = 0; i < C.data.size(); ++i)
          if (i % 3 == 0) C.data[i] = i % 2 ? std::numeric_limits<double>::infinity() : std::nan("");
      const std::vector<double> a0 = A.data, b0 = B.data, c0 = C.data;
      // |alpha| |op(A)| |op(B)|: the bound's scale, by ScaLAPACK.
      Matrix absA = A, absB = B, G = C;
      for (double& v : absA.data) v = std::fabs(v);
      for (double& v : absB.data) v = std::fabs(v);
      const double zero = 0.0, abs_alpha = std::fabs(alpha);
      const char tra = ta ? 'T' : 'N', trb = tb ? 'T' : 'N';
      const int ia1 = ia + 1, ja1 = ja + 1, ib1 = ib + 1, jb1 = jb + 1, ic1 = ic + 1, jc1 = jc + 1;
      reference(&tra, &trb, &m, &n, &k, &abs_alpha, absA.data.data(), &ia1, &ja1, absA.desc, absB.data.data(), &ib1,
                &jb1, absB.desc, &zero, G.data.data(), &ic1, &jc1, G.desc);
      Matrix R = C;
      reference(&tra, &trb, &m, &n, &k, &alpha, A.data.data(), &ia1, &ja1, A.desc, B.data.data(), &ib1, &jb1, B.desc,
                &beta, R.data.data(), &ic1, &jc1, R.desc);
      // Twice with the same arguments, on two copies of C: the second call
      // reuses the first's decision, plan and exchange schedules, and must
      // give the same bits.
      Matrix C2 = C;
      std::string choice;
      for (Matrix* out : {&C, &C2}) {
        pdgemm_(&tra, &trb, &m, &n, &k, &alpha, A.data.data(), &ia1, &ja1, A.desc, B.data.data(), &ib1, &jb1, B.desc,
                &beta, out->data.data(), &ic1, &jc1, out->desc);
        ++total_calls;
        choice = last();
        if (choice.rfind("scalapack", 0) != 0) ++member_dispatched;
        if (expected.is_open())
          expected << member << ',' << tra << ',' << trb << ',' << m << ',' << n << ',' << k << ','
                   << (choice.rfind("scalapack", 0) != 0 ? "mmbench" : "scalapack") << '\n';
      }
      // The normwise scale for Strassen members: max over sub(C) of the componentwise one.
      double scale_max = 0.0;
      for (long j = 0; j < C.loc_cols; ++j)
        for (long i = 0; i < C.loc_rows; ++i)
          if (in_sub(C, i, j, ic, jc, m, n, pr, pc, myrow, mycol)) {
            const std::size_t at = static_cast<std::size_t>(i + j * C.lld);
            const double s = G.data[at] + (beta == 0.0 ? 0.0 : std::fabs(beta * c0[at]));
            scale_max = std::max(scale_max, s);
          }
      double global_scale = scale_max;
      MPI_Allreduce(&scale_max, &global_scale, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      long bad = 0, first_bad = -1;
      for (long j = 0; j < std::max(1, C.loc_cols); ++j)
        for (long i = 0; i < C.lld; ++i) {
          const std::size_t at = static_cast<std::size_t>(i + j * C.lld);
          if (at >= C.data.size()) continue;
          if (!in_sub(C, i, j, ic, jc, m, n, pr, pc, myrow, mycol)) {
            if (!same_bits(C.data[at], c0[at])) ++bad, first_bad = first_bad < 0 ? long(at) : first_bad;
            continue;
          }
          ++checked;
          const double u = DBL_EPSILON / 2, gamma = (k + 2) * u;
          const double scale = growth > 1.0 ? global_scale : G.data[at] + (beta == 0.0 ? 0.0 : std::fabs(beta * c0[at]));
          const double limit = 2.0 * growth * gamma * scale + 1e-300;
          if (!(std::fabs(C.data[at] - R.data[at]) <= limit)) ++bad, first_bad = first_bad < 0 ? long(at) : first_bad;
        }
      for (std::size_t i = 0; i < C.data.size(); ++i)
        if (!same_bits(C.data[i], C2.data[i])) ++bad, first_bad = first_bad < 0 ? long(i) : first_bad;
      for (std::size_t i = 0; i < A.data.size(); ++i)
        if (!same_bits(A.data[i], a0[i])) ++bad;
      for (std::size_t i = 0; i < B.data.size(); ++i)
        if (!same_bits(B.data[i], b0[i])) ++bad;
      long any = 0;
      MPI_Allreduce(&bad, &any, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
      if (any > 0) {
        ++failures;
        if (bad > 0)
          std::fprintf(stderr,
                       "dispatch_suite: rank %d: member %s call %d (%c%c m=%d n=%d k=%d alpha=%g beta=%g "
                       "A %dx%d mb=%d nb=%d src=%d,%d at %d,%d; B %dx%d mb=%d nb=%d src=%d,%d at %d,%d; "
                       "C %dx%d mb=%d nb=%d src=%d,%d at %d,%d; choice %s): %ld wrong elements, first local %ld\n",
                       g_rank, member.c_str(), call, tra, trb, m, n, k, alpha, beta, da[0], da[1], da[2], da[3],
                       da[4], da[5], ia, ja, db[0], db[1], db[2], db[3], db[4], db[5], ib, jb, dc[0], dc[1], dc[2],
                       dc[3], dc[4], dc[5], ic, jc, choice.c_str(), bad, first_bad);
      }
    }
    dispatched += member_dispatched;
    if (g_rank == 0)
      std::printf("dispatch_suite grid=%dx%d order=%s member=%s calls=%d dispatched=%ld\n", pr, pc, order.c_str(),
                  member.c_str(), calls, member_dispatched);
  }
  long all_checked = 0, all_failures = 0;
  MPI_Allreduce(&checked, &all_checked, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&failures, &all_failures, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  if (g_rank == 0)
    std::printf("dispatch_suite grid=%dx%d order=%s calls=%ld dispatched=%ld elements_checked=%ld failed_calls=%ld\n",
                pr, pc, order.c_str(), total_calls, dispatched, all_checked, all_failures);
  Cblacs_gridexit(ctxt);
  Cblacs_exit(1);
  MPI_Finalize();
  return all_failures > 0 ? 1 : 0;
}
