// SPDX-License-Identifier: Apache-2.0
// The l1-regularised hinge-loss problem min_x sum_k c_k max(0, 1 - y_k <z_k, x>) + Phi ||x||_1 (the SVM of Liu,
// Johansson and Shi Sec. 5.2 summed over the agents: c_k = 1/b_i, Phi = N l1) is a linear programme. Solved exactly
// through its dual, max sum_k c_k a_k s.t. -Phi <= sum_k c_k a_k y_k z_k <= Phi (coordinatewise), 0 <= a <= 1, by a
// bounded-variable primal simplex (Dantzig pricing, Bland's rule after degenerate pivots); x is the dual of the
// ranged rows. The certificate is the duality gap P(x) - sum_k c_k a_k of the final pair (weak duality: an upper
// bound on P(x) - P*), computed at the end from the data, whatever the pivoting did.
#pragma once

#include <Eigen/Dense>

#include <vector>

namespace dpl::algorithms {

struct HingeL1Solution {
  Eigen::VectorXd x;
  double primal = 0;  // sum_k c_k hinge_k(x) + Phi ||x||_1
  double dual = 0;    // sum_k c_k a_k at a feasible a (a lower bound on the optimum)
  int pivots = 0;
};

// Z: rows z_k; y: labels +-1; c: positive weights; phi > 0. At most max_pivots pivots (the gap then says how far
// it got).
HingeL1Solution hinge_l1_simplex(const Eigen::MatrixXd& Z, const Eigen::VectorXd& y, const Eigen::VectorXd& c,
                                 double phi, int max_pivots);

}  // namespace dpl::algorithms
