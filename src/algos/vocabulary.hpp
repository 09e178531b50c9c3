// The configuration vocabulary the algorithms speak as their own: Problem,
// Options, Uses, AsRun and the combinatorics of grids, Strassen groups,
// depth and formulas, ring chunks and replicas live one layer down in
// src/space/, where the cost models read them too. Every header of this
// folder that names them includes this one, so inside namespace algos they
// need no qualifier (algos::Options is space::Options).
#pragma once

#include "space/as_run.hpp"
#include "space/options.hpp"
#include "space/problem.hpp"
#include "space/strassen_formulas.hpp"

namespace mmbench::algos {
using namespace mmbench::space;
namespace strassen {
using namespace mmbench::space::strassen;
}  // namespace strassen
}  // namespace mmbench::algos
