// SPDX-License-Identifier: Apache-2.0
// The starting point x^0 of every seed-000 run: random and independent of the data.
#pragma once

#include <Eigen/Dense>

#include "algorithms/rng/portable_rng.h"

namespace dpl::algorithms {

// A rows x dim matrix of states (rows = agents, or Algorithm 2's two group means), every entry uniform on
// [-1, 1], drawn row by row from `rng`.
Eigen::MatrixXd random_initial_states(int rows, int dim, Rng& rng);

}  // namespace dpl::algorithms
