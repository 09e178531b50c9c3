// The SMPI build's stand-ins for the two algorithms that need ScaLAPACK
// (pdgemm.cpp, strassen_q7_pdgemm.cpp are not compiled there): same names,
// so `list`, sweeps and the cost models still know them, but every check
// says why they cannot run. Compiled only with MMBENCH_SMPI.
#include <stdexcept>

#include "algos/algorithm.hpp"
#include "algos/scalapack_availability.hpp"

namespace mmbench::algos {

namespace {

class Unavailable : public Algorithm {
 public:
  Unavailable(std::string_view name, std::string_view summary, Uses uses) : name_(name), summary_(summary), uses_(uses) {}
  std::string_view name() const override { return name_; }
  std::string_view summary() const override { return summary_; }
  std::string_view requirements() const override { return scalapack_unavailable(); }
  std::string_view layout() const override { return "2D block-cyclic (ScaLAPACK)"; }
  Uses uses() const override { return uses_; }
  Applicability check(const Problem&, const Options&, int) const override {
    return {std::string(scalapack_unavailable())};
  }
  std::unique_ptr<Plan> plan(const Problem&, const Options&, const Comm&) const override {
    throw std::logic_error(std::string(name_) + ": " + std::string(scalapack_unavailable()));
  }

 private:
  std::string_view name_, summary_;
  Uses uses_;
};

}  // namespace

const Algorithm& pdgemm_algorithm() {
  static const Unavailable a("pdgemm", "ScaLAPACK PDGEMM (not in the SMPI build)",
                             Uses{.grid = true, .nb = true, .lb = true});
  return a;
}

const Algorithm& strassen_q7_pdgemm_algorithm() {
  static const Unavailable a("strassen-q7+pdgemm", "parallel Strassen Q7 with PDGEMM leaves (not in the SMPI build)",
                             Uses{.nb = true, .lb = true, .recursions = true, .q7_split = true});
  return a;
}

}  // namespace mmbench::algos
