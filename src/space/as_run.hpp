#pragma once

#include "space/options.hpp"

namespace mmbench::space {

// How a plan really ran: the options as asked with every choice the plan
// made filled in, and the ranks that computed. Typed, so the run's rows and
// its model prices need not read describe()'s CSV text back.
// Example: --algo strassen-q7+ring --recursions max on 56 ranks asks
// recursions = -1 and runs r = 2: opt.recursions = 2, ranks = 56. The dgemm
// peer on 4 ranks × 1 thread: ranks = 1, opt.threads = 4 (its one rank with
// all the job's cores; its models give the same price either way).
struct AsRun {
  Options opt;
  int ranks = 0;
};

}  // namespace mmbench::space
