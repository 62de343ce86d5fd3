// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed000/initial_states.h"

namespace dpl::algorithms {

Eigen::MatrixXd random_initial_states(int rows, int dim, Rng& rng) {
  Eigen::MatrixXd x(rows, dim);
  for (int i = 0; i < rows; ++i)
    for (int l = 0; l < dim; ++l) x(i, l) = rng.uniform(-1, 1);
  return x;
}

}  // namespace dpl::algorithms
