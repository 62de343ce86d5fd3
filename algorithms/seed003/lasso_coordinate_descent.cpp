// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed003/lasso_coordinate_descent.h"

#include <algorithm>
#include <cmath>

namespace dpl::algorithms::seed003 {

// Friedman-Hastie-Tibshirani 2010 eq. (5): x_j <- S(a_j^T r_j / n, l1) / (||a_j||^2/n + l2), residual kept.
LassoSolution lasso_coordinate_descent(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, double l1, double l2,
                                       double tol, int max_sweeps) {
  const auto n = static_cast<double>(A.rows());
  const int p = static_cast<int>(A.cols());
  LassoSolution s;
  s.x = Eigen::VectorXd::Zero(p);
  Eigen::VectorXd residual = b;  // b - A x
  const Eigen::VectorXd col_sq = A.colwise().squaredNorm().transpose() / n;
  for (s.sweeps = 1; s.sweeps <= max_sweeps; ++s.sweeps) {
    s.max_step = 0;
    for (int j = 0; j < p; ++j) {
      if (!(col_sq(j) > 0)) continue;
      const double old = s.x(j);
      const double rho = A.col(j).dot(residual) / n + col_sq(j) * old;
      const double shrunk = std::copysign(std::max(std::fabs(rho) - l1, 0.0), rho);
      const double next = shrunk / (col_sq(j) + l2);
      if (next != old) {
        residual -= (next - old) * A.col(j);
        s.x(j) = next;
        s.max_step = std::max(s.max_step, std::fabs(next - old));
      }
    }
    if (s.max_step < tol) break;
  }
  s.sweeps = std::min(s.sweeps, max_sweeps);
  residual = b - A * s.x;  // recompute: no drift in the reported value
  s.value = residual.squaredNorm() / (2 * n) + 0.5 * l2 * s.x.squaredNorm() + l1 * s.x.lpNorm<1>();
  return s;
}

}  // namespace dpl::algorithms::seed003
