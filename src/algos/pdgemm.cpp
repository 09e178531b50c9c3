// pdgemm: ScaLAPACK / PBLAS PDGEMM (docs/method.md §2.2).
//
// Layout: A, B, C 2D block-cyclic, nb x nb blocks, on a pr x pc BLACS grid
// (default: the most square grid with pr <= pc). PBLAS multiplies in panels
// of width lb (SUMMA-like, broadcasts along process rows and columns); lb
// comes from our pilaenv_ (pilaenv_override.hpp): the lb in force for this
// problem and grid (core/lb_in_force.hpp: a tuned lb is capped, so that
// parallel Strassen's smaller leaves get a narrower one). Any p, m, n, k >= 1.
//
// An SMPI build without a ScaLAPACK of its own (scalapack_availability.hpp):
// there the plan is left out and check() says why, while the name, help and
// cost models stay, so `list` and `predict` still know pdgemm.
#include <stdexcept>

#include "algos/algorithm.hpp"
#include "space/process_grid.hpp"
#include "algos/scalapack_availability.hpp"
#include "model/algorithm_models.hpp"
#include "model/paper_model.hpp"
#if MMBENCH_HAVE_SCALAPACK
#include "algos/pilaenv_override.hpp"
#include "core/mpi/blacs_grid.hpp"
#include "core/mpi/scalapack_api.hpp"
#endif

namespace mmbench::algos {

namespace {

// The lb PBLAS gets for this problem on pr x pc (core/lb_in_force.hpp): one
// answer for the plan, its memory estimate and the refined model.
int lb_for(const Problem& pb, const Options& opt, int pr, int pc) {
  return model::lb_of(opt, double(pb.m), double(pb.n), double(pb.k), pr, pc);
}

#if MMBENCH_HAVE_SCALAPACK
class PdgemmPlan : public Plan {
 public:
  PdgemmPlan(const Problem& pb, const Options& opt, const Comm& comm, int pr, int pc)
      : pb_(pb),
        lb_(lb_for(pb, opt, pr, pc)),
        lb_asked_(opt.lb <= 0    ? "default"
                  : opt.lb_tuned ? "auto:" + std::to_string(opt.lb)
                                 : std::to_string(opt.lb)),
        nb_(opt.nb),
        grid_(comm, pr, pc),
        a_(block_cyclic(pb.m, pb.k, opt.nb, opt.nb, pr, pc)),
        b_(block_cyclic(pb.k, pb.n, opt.nb, opt.nb, pr, pc)),
        c_(block_cyclic(pb.m, pb.n, opt.nb, opt.nb, pr, pc)),
        da_(grid_.descriptor(pb.m, pb.k, opt.nb, opt.nb)),
        db_(grid_.descriptor(pb.k, pb.n, opt.nb, opt.nb)),
        dc_(grid_.descriptor(pb.m, pb.n, opt.nb, opt.nb)) {}
  const Layout& layout_a() const override { return a_; }
  const Layout& layout_b() const override { return b_; }
  const Layout& layout_c() const override { return c_; }
  void multiply(const DistMatrix& A, const DistMatrix& B, DistMatrix& C) override {
    set_logical_block_size(lb_);
    long before = pilaenv_calls();
    const int m = static_cast<int>(pb_.m), n = static_cast<int>(pb_.n), k = static_cast<int>(pb_.k), one = 1;
    const double alpha = 1.0, beta = 0.0;
    pdgemm_("N", "N", &m, &n, &k, &alpha, A.data(), &one, &one, da_.data(), B.data(), &one, &one,
            db_.data(), &beta, C.data(), &one, &one, dc_.data());
    if (pilaenv_calls() > before) override_called_ = true;
  }
  std::map<std::string, std::string> describe() const override {
    return {{"grid", std::to_string(grid_.rows()) + "x" + std::to_string(grid_.cols())},
            {"nb", std::to_string(nb_)},
            {"lb", std::to_string(lb_)},
            {"lb_asked", lb_asked_},
            {"lb_override", override_called_ ? "yes" : "no"}};
  }
  AsRun as_run(const Options& asked, int ranks) const override {
    AsRun r{asked, ranks};
    r.opt.pr = grid_.rows();
    r.opt.pc = grid_.cols();
    r.opt.nb = nb_;
    r.opt.lb = lb_;
    r.opt.lb_tuned = false;  // resolved: the model prices the lb that ran
    return r;
  }
  std::string warning() const override {
    if (override_called_) return {};
    return "WARNING: ScaLAPACK did not call mmbench's pilaenv_; lb = " + std::to_string(lb_) +
           " had no effect (the library used its built-in value). Is pilaenv_override linked into the executable?";
  }

 private:
  Problem pb_;
  int lb_;                 // in force: lb_in_force of the options asked
  std::string lb_asked_;   // "default", "auto:<tuned lb>" or the number
  int nb_;
  BlacsGrid grid_;
  Layout a_, b_, c_;
  std::array<int, 9> da_, db_, dc_;
  bool override_called_ = false;
};
#endif

// Cost models: eqs. 2.16/2.17 on the grid the plan resolves.
model::Prediction paper_time(const Problem& pb, const Options& opt, int p, const model::MachineParams& mp) {
  const auto [pr, pc] = resolve_grid(opt, p);
  return model::scale_comp(model::paper_pdgemm(model::square_n(pb), opt.nb, pr, pc, model::pdgemm_params(opt, mp)),
                           1.0 / model::threads_of(opt));
}

// PDGEMM's DGEMM is inside ScaLAPACK: local levels do not apply.
model::Prediction refined_time(const Problem& pb, const Options& opt, int p, const model::MachineParams& mp) {
  const auto [pr, pc] = resolve_grid(opt, p);
  return model::refined_pdgemm(double(pb.m), double(pb.n), double(pb.k), pr, pc, opt.nb,
                               lb_for(pb, opt, pr, pc), model::threads_of(opt), mp);
}

class Pdgemm : public Algorithm {
 public:
  std::string_view name() const override { return "pdgemm"; }
  std::string_view summary() const override { return "ScaLAPACK PDGEMM (PBLAS, SUMMA-like), lb via pilaenv_ override"; }
  std::string_view requirements() const override {
    return scalapack_unavailable().empty() ? "any p; grid pr x pc = p; m, n, k < 2^31" : scalapack_unavailable();
  }
  std::string_view layout() const override { return "2D block-cyclic nb x nb on pr x pc (row-major ranks)"; }
  Uses uses() const override { return Uses{.grid = true, .nb = true, .lb = true}; }
  std::vector<std::string> columns() const override { return {"grid", "nb", "lb", "lb_override", "lb_asked"}; }
  Applicability check_on_ranks(const Problem& pb, const Options& opt, int ranks) const override {
    if (!scalapack_unavailable().empty()) return {std::string(scalapack_unavailable())};
    if (auto why = grid_problem(opt, ranks); !why.empty()) return {why};
    if (pb.m > INT32_MAX || pb.n > INT32_MAX || pb.k > INT32_MAX) return {"ScaLAPACK needs m, n, k < 2^31"};
    return {};
  }
  // Rank 0, grid position (0, 0), holds the most of each block-cyclic
  // matrix (it takes the first block of every row and column of blocks).
  // PBLAS replicates one lb-wide column panel of A along the process row and
  // one row panel of B along the process column per step, in buffers it
  // allocates itself: lb x (local rows + local columns of C), the library part.
  MemoryEstimate plan_memory(const Problem& pb, const Options& opt, int ranks) const override {
    const auto [pr, pc] = resolve_grid(opt, ranks);
    const double mr = double(block_cyclic_extent(pb.m, opt.nb, 0, pr)), kc = double(block_cyclic_extent(pb.k, opt.nb, 0, pc)),
                 kr = double(block_cyclic_extent(pb.k, opt.nb, 0, pr)), nc = double(block_cyclic_extent(pb.n, opt.nb, 0, pc));
    MemoryEstimate m;
    add_buffers(m, &MemoryEstimate::a, mr * kc);
    add_buffers(m, &MemoryEstimate::b, kr * nc);
    add_buffers(m, &MemoryEstimate::c, mr * nc);
    m.library = double(lb_for(pb, opt, pr, pc)) * (mr + nc);
    return m;
  }
  std::unique_ptr<Plan> plan_on_ranks(const Problem& pb, const Options& opt, const Comm& comm) const override {
#if !MMBENCH_HAVE_SCALAPACK
    (void)pb, (void)opt, (void)comm;
    throw std::logic_error("pdgemm: " + std::string(scalapack_unavailable()));
#else
    auto [pr, pc] = resolve_grid(opt, comm.size());
    return std::make_unique<PdgemmPlan>(pb, opt, comm, pr, pc);
#endif
  }
  const model::AlgorithmModel& models() const override {
    static const model::AlgorithmModel m{.paper = paper_time, .refined = refined_time};
    return m;
  }
};

}  // namespace

const Algorithm& pdgemm_algorithm() {
  static const Pdgemm a;
  return a;
}

}  // namespace mmbench::algos
