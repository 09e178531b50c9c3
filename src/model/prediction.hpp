// A predicted run time, split into its two parts so that reports can show
// where the time goes (docs/method.md §7). Every cost model (paper, refined) returns one.
#pragma once

namespace mmbench::model {

struct Prediction {
  double comm_s = 0;  // communication, seconds
  double comp_s = 0;  // computation including matrix additions, seconds
  // The thesis does not model overlap: the total is the plain sum.
  double total() const { return comm_s + comp_s; }
};

}  // namespace mmbench::model
