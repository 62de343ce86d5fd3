// SPDX-License-Identifier: Apache-2.0
// The Lasso (1/(2n))||Ax - b||^2 + (l2/2)||x||^2 + l1 ||x||_1 solved by cyclic coordinate descent (Friedman,
// Hastie and Tibshirani 2010, eq. (5)): the reference optimum of seed 003's Lasso runs.
#pragma once

#include <Eigen/Dense>

namespace dpl::algorithms::seed003 {

struct LassoSolution {
  Eigen::VectorXd x;
  double value = 0;
  double max_step = 0;  // largest coordinate change of the last sweep
  int sweeps = 0;
};

// Sweeps until the largest coordinate change is below tol (default 1e-10), at most max_sweeps (then the
// returned max_step says how far it got). A zero column stays at 0.
LassoSolution lasso_coordinate_descent(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, double l1, double l2 = 0,
                                       double tol = 1e-10, int max_sweeps = 100000);

}  // namespace dpl::algorithms::seed003
