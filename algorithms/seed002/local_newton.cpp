// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed002/local_newton.h"

#include "accounting/errors.h"
#include "accounting/numeric/portable_math.h"

#include <algorithm>
#include <cmath>

namespace dpl::algorithms::seed002 {

Eigen::MatrixXd local_hessian(const LocalObjective& f, const Eigen::VectorXd& x) {
  const auto& z = f.data().features;
  const auto& y = f.data().labels;
  const Eigen::VectorXd m = z * x;
  Eigen::VectorXd w(m.size());
  for (Eigen::Index j = 0; j < m.size(); ++j) {
    switch (f.loss()) {
      case LossKind::logistic: {  // loss'' = s (1 - s), s = 1/(1 + e^{-y m}), times y^2 = 1
        const double s = 1.0 / (1.0 + portable::binary64::exp(-y(j) * m(j)));
        w(j) = y(j) * y(j) * s * (1 - s);
        break;
      }
      case LossKind::squared: w(j) = 1.0; break;
      case LossKind::huber: w(j) = std::fabs(m(j) - y(j)) <= f.huber_delta() ? 1.0 : 0.0; break;
      case LossKind::hinge:
        throw NotApplicable("loss=hinge: the exact ADMM step is solved by Newton and needs a twice differentiable "
                            "loss; allowed logistic, squared, huber");
    }
  }
  Eigen::MatrixXd h = z.transpose() * w.asDiagonal() * z / static_cast<double>(f.rows());
  h.diagonal().array() += f.regularizer().l2;
  return h;
}

ArgminResult solve_admm_argmin(const LocalObjective& f, double C, const Eigen::VectorXd& lin, double quad,
                               const Eigen::VectorXd& start, double tol) {
  if (f.regularizer().l1 != 0)
    throw InputError("l1=" + std::to_string(f.regularizer().l1) +
                     " is out of range for the ADMM runs: allowed 0 (the exact primal step is solved by Newton on a "
                     "smooth objective)");
  const auto phi = [&](const Eigen::VectorXd& x) { return C * f.value(x) + lin.dot(x) + quad * x.squaredNorm(); };
  const auto grad = [&](const Eigen::VectorXd& x) -> Eigen::VectorXd {
    return C * f.gradient(x) + lin + 2 * quad * x;
  };
  Eigen::VectorXd x = start;
  double fx = phi(x);
  Eigen::VectorXd g = grad(x);
  const double stop = tol * std::max(1.0, lin.norm());
  int it = 0;
  for (; it < 100 && g.norm() > stop; ++it) {
    Eigen::MatrixXd h = C * local_hessian(f, x);
    h.diagonal().array() += 2 * quad;
    const Eigen::VectorXd step = -h.llt().solve(g);
    const double slope = g.dot(step);
    if (!(slope < 0)) break;
    double t = 1.0;
    Eigen::VectorXd xn = x + step;
    double fn = phi(xn);
    Eigen::VectorXd gn = grad(xn);
    // Full step when it decreases phi (Armijo) or, near the optimum where phi's differences drown in rounding,
    // when it halves the gradient norm (local quadratic convergence); else backtrack.
    while (!(fn <= fx + 1e-4 * t * slope) && !(gn.norm() < 0.5 * g.norm()) && t > 1e-12) {
      t *= 0.5;
      xn = x + t * step;
      fn = phi(xn);
      gn = grad(xn);
    }
    if (gn.norm() >= g.norm() && !(fn < fx)) break;  // rounding floor: no further progress possible
    x = xn;
    fx = fn;
    g = gn;
  }
  return ArgminResult{x, g.norm(), it};
}

}  // namespace dpl::algorithms::seed002
