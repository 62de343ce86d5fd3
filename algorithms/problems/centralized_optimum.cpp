// SPDX-License-Identifier: Apache-2.0
#include "algorithms/problems/centralized_optimum.h"

#include "accounting/errors.h"
#include "accounting/numeric/portable_math.h"
#include "algorithms/problems/hinge_l1_simplex.h"

#include <algorithm>
#include <cmath>

namespace dpl::algorithms {

namespace {

Eigen::VectorXd total_gradient(const std::vector<LocalObjective>& locals, const Eigen::VectorXd& x) {
  Eigen::VectorXd g = Eigen::VectorXd::Zero(x.size());
  for (const auto& f : locals) g += f.gradient(x);
  return g;
}

// Hessian of sum_i f_i for the smooth losses with l1 = 0: sum_i Z_i^T D_i Z_i / b_i + N l2 I, with D the loss's
// second derivative (Huber: 1 inside the quadratic zone, 0 outside — a generalised Hessian).
Eigen::MatrixXd total_hessian(const std::vector<LocalObjective>& locals, const Eigen::VectorXd& x,
                              double huber_delta) {
  const auto d = x.size();
  Eigen::MatrixXd h = Eigen::MatrixXd::Zero(d, d);
  for (const auto& f : locals) {
    const auto& z = f.data().features;
    const auto& y = f.data().labels;
    const Eigen::VectorXd m = z * x;
    Eigen::VectorXd w(m.size());
    for (Eigen::Index j = 0; j < m.size(); ++j) {
      switch (f.loss()) {
        case LossKind::logistic: {
          const double s = 1.0 / (1.0 + portable::binary64::exp(-y(j) * m(j)));
          w(j) = y(j) * y(j) * s * (1 - s);
          break;
        }
        case LossKind::squared: w(j) = 1.0; break;
        case LossKind::huber: w(j) = std::fabs(m(j) - y(j)) <= huber_delta ? 1.0 : 0.0; break;
        case LossKind::hinge: w(j) = 0.0; break;
      }
    }
    h += z.transpose() * w.asDiagonal() * z / f.rows();
    h.diagonal().array() += f.regularizer().l2;
  }
  return h;
}

// Damped Newton with Armijo backtracking (Boyd and Vandenberghe 2004, Alg. 9.5): for strongly convex smooth
// F the gradient norm is a certificate, F(x) - F* <= |grad|^2 / (2 mu) (upper bound).
Optimum newton(const std::vector<LocalObjective>& locals) {
  const int d = locals.front().dim();
  const double delta = locals.front().huber_delta();
  Eigen::VectorXd x = Eigen::VectorXd::Zero(d);
  double fx = total_objective(locals, x);
  Eigen::VectorXd g = total_gradient(locals, x);
  const double tol = 1e-12 * std::max(1.0, g.norm());
  int it = 0;
  for (; it < 200 && g.norm() > tol; ++it) {
    Eigen::MatrixXd h = total_hessian(locals, x, delta);
    // Tiny ridge if the (generalised) Hessian is singular (l2 = 0 and rank-deficient data).
    Eigen::LDLT<Eigen::MatrixXd> ldlt(h);
    if (ldlt.info() != Eigen::Success || !(ldlt.vectorD().array() > 1e-14 * h.diagonal().cwiseAbs().maxCoeff()).all()) {
      h.diagonal().array() += 1e-10 * std::max(1.0, h.diagonal().cwiseAbs().maxCoeff());
      ldlt.compute(h);
    }
    const Eigen::VectorXd step = -ldlt.solve(g);
    const double slope = g.dot(step);
    if (!(slope < 0)) break;
    // Full step when it decreases F (Armijo) or, near the optimum where F's differences drown in rounding,
    // when it decreases the gradient norm (Newton's local quadratic convergence); else backtrack.
    double t = 1.0;
    Eigen::VectorXd xn = x + step;
    double fn = total_objective(locals, xn);
    Eigen::VectorXd gn = total_gradient(locals, xn);
    while (!(fn <= fx + 1e-4 * t * slope) && !(gn.norm() < 0.5 * g.norm() && fn <= fx + 1e-12 * std::fabs(fx)) &&
           t > 1e-12) {
      t *= 0.5;
      xn = x + t * step;
      fn = total_objective(locals, xn);
      gn = total_gradient(locals, xn);
    }
    if (gn.norm() >= g.norm() && !(fn < fx)) break;  // rounding floor reached: no further progress possible
    x = xn;
    fx = fn;
    g = gn;
  }
  return Optimum{x, total_objective(locals, x), g.norm(), it};
}

// FISTA (Beck and Teboulle 2009) with gradient-based adaptive restart (O'Donoghue and Candes 2015) on
// sum_i (mean loss_i + l2/2|x|^2) + N l1 |x|_1; certificate: the gradient-mapping norm L |x - prox(x - g/L)|.
Optimum fista(const std::vector<LocalObjective>& locals, int max_iterations) {
  const int d = locals.front().dim();
  const auto n = static_cast<double>(locals.size());
  double lip = 0;
  for (const auto& f : locals) lip += f.smoothness();
  lip = std::max(lip, 1e-12);
  const Regularizer total_l1{0.0, n * locals.front().regularizer().l1};
  Eigen::VectorXd x = Eigen::VectorXd::Zero(d), y = x;
  double t = 1;
  auto mapping_norm = [&](const Eigen::VectorXd& p) {
    const Eigen::VectorXd g = total_gradient(locals, p);
    return (lip * (p - total_l1.prox(p - g / lip, 1.0 / lip))).norm();
  };
  double gap = mapping_norm(x);
  int it = 0;
  for (; it < max_iterations && gap > 1e-11; ++it) {
    const Eigen::VectorXd gy = total_gradient(locals, y);
    const Eigen::VectorXd xn = total_l1.prox(y - gy / lip, 1.0 / lip);
    const double tn = 0.5 * (1 + std::sqrt(1 + 4 * t * t));
    if ((y - xn).dot(xn - x) > 0) {  // restart: momentum points uphill
      y = xn;
      t = 1;
    } else {
      y = xn + ((t - 1) / tn) * (xn - x);
      t = tn;
    }
    x = xn;
    if (it % 10 == 9) gap = mapping_norm(x);
  }
  gap = mapping_norm(x);
  return Optimum{x, total_objective(locals, x), gap, it};
}

// Proximal SDCA (Shalev-Shwartz and Zhang 2013, hinge closed-form step; 2014 for the l1 part) for
// sum_k c_k max(0, 1 - y_k<z_k,x>) + (lambda/2)|x|^2 + Phi |x|_1 with c_k = 1/b_i, lambda = N l2, Phi = N l1.
// With g(x) = |x|^2/2 + tau |x|_1 (tau = Phi/lambda), g*(v) = |S_tau(v)|^2/2 is 1-smooth: the dual is
// D(a) = sum c_k a_k - lambda |S_tau(v)|^2/2, v = sum c_k a_k y_k z_k / lambda, a in [0,1]^n, x(a) = S_tau(v), and
// each coordinate step maximises D's quadratic lower bound (the closed form below). The duality gap
// P(x(a)) - D(a) >= P(x) - P* is the certificate (upper bound).
Optimum sdca(const std::vector<LocalObjective>& locals, int max_epochs) {
  const int d = locals.front().dim();
  const double lambda = static_cast<double>(locals.size()) * locals.front().regularizer().l2;
  const double tau = static_cast<double>(locals.size()) * locals.front().regularizer().l1 / lambda;
  struct Row {
    Eigen::VectorXd z;
    double y, c, sq, alpha;
  };
  std::vector<Row> rows;
  for (const auto& f : locals)
    for (int j = 0; j < f.rows(); ++j) {
      Eigen::VectorXd z = f.data().features.row(j).transpose();
      const double sq = z.squaredNorm();
      rows.push_back(Row{z, f.data().labels(j), 1.0 / f.rows(), sq, sq == 0 ? 1.0 : 0.0});
    }
  auto soft = [tau](const Eigen::VectorXd& v) {
    if (tau == 0) return v;
    Eigen::VectorXd x(v.size());
    for (Eigen::Index l = 0; l < v.size(); ++l) x(l) = std::copysign(std::max(std::fabs(v(l)) - tau, 0.0), v(l));
    return x;
  };
  auto v_of_alpha = [&] {
    Eigen::VectorXd v = Eigen::VectorXd::Zero(d);
    for (const auto& r : rows) v += r.c * r.alpha * r.y * r.z;
    return Eigen::VectorXd(v / lambda);
  };
  Eigen::VectorXd v = v_of_alpha(), x = soft(v);
  Rng rng(20260101);
  auto dual = [&]() {
    double s = 0;
    for (const auto& r : rows) s += r.c * r.alpha;
    return s - lambda * soft(v_of_alpha()).squaredNorm() / 2;
  };
  double gap = total_objective(locals, x) - dual();
  int epoch = 0;
  const int n = static_cast<int>(rows.size());
  for (; epoch < max_epochs && gap > 1e-12; ++epoch) {
    for (int k : rng.permutation(n)) {
      Row& r = rows[static_cast<std::size_t>(k)];
      if (r.sq == 0) continue;
      const double step = (1.0 - r.y * r.z.dot(x)) * lambda / (r.c * r.sq);
      const double an = std::clamp(r.alpha + step, 0.0, 1.0);
      if (an != r.alpha) {
        v += r.c * (an - r.alpha) * r.y * r.z / lambda;
        x = soft(v);
        r.alpha = an;
      }
    }
    if (epoch % 5 == 4) {
      // Recompute v from alpha to stop rounding drift, then the gap.
      v = v_of_alpha();
      x = soft(v);
      gap = total_objective(locals, x) - dual();
    }
  }
  x = soft(v_of_alpha());
  gap = std::max(0.0, total_objective(locals, x) - dual());
  return Optimum{x, total_objective(locals, x), gap, epoch};
}

// Hinge loss with l1 only (l2 = 0): a linear programme, solved exactly by hinge_l1_simplex (its duality gap is
// the certificate).
Optimum hinge_l1_lp(const std::vector<LocalObjective>& locals) {
  const int d = locals.front().dim();
  int n = 0;
  for (const auto& f : locals) n += f.rows();
  Eigen::MatrixXd Z(n, d);
  Eigen::VectorXd y(n), c(n);
  int k = 0;
  for (const auto& f : locals)
    for (int j = 0; j < f.rows(); ++j, ++k) {
      Z.row(k) = f.data().features.row(j);
      y(k) = f.data().labels(j);
      c(k) = 1.0 / f.rows();
    }
  const double phi = static_cast<double>(locals.size()) * locals.front().regularizer().l1;
  const HingeL1Solution s = hinge_l1_simplex(Z, y, c, phi, 20 * (n + d) + 1000);
  const double value = total_objective(locals, s.x);
  return Optimum{s.x, value, std::max(0.0, value - s.dual), s.pivots};
}

// The solvers' work budget (multiply-adds on the data): Newton only where ~30 iterations of forming and factoring
// the d x d Hessian fit, FISTA and SDCA capped at the iterations that fit. A capped solver reports its honest,
// larger certificate (optimality_gap) rather than running for minutes.
constexpr double kSolverWork = 2e9;

double data_values(const std::vector<LocalObjective>& locals) {
  double v = 0;
  for (const auto& f : locals) v += static_cast<double>(f.rows()) * f.dim();
  return std::max(v, 1.0);
}

int capped_iterations(double per_iteration, int cap) {
  return static_cast<int>(std::clamp(kSolverWork / per_iteration, 10.0, static_cast<double>(cap)));
}

}  // namespace

Optimum solve_centralized(const std::vector<LocalObjective>& locals) {
  if (locals.empty()) throw InputError("solve_centralized: no agents: allowed at least 1");
  const auto& f0 = locals.front();
  for (const auto& f : locals) {
    if (f.loss() != f0.loss() || f.dim() != f0.dim() || f.regularizer().l1 != f0.regularizer().l1 ||
        f.regularizer().l2 != f0.regularizer().l2 ||
        f.huber_delta() != f0.huber_delta())
      throw InputError("solve_centralized: agents must share the loss, the dimension, the regulariser and huber_delta");
  }
  if (f0.loss() == LossKind::hinge) {
    if (!(f0.regularizer().l2 > 0)) {
      if (!(f0.regularizer().l1 > 0))
        throw NotApplicable("loss=hinge with l1=0 and l2=0: the problem has no regulariser and may have no minimiser; "
                            "allowed l2 > 0 or l1 > 0");
      return hinge_l1_lp(locals);
    }
    return sdca(locals, capped_iterations(3 * data_values(locals), 200000));
  }
  const double d = f0.dim();
  const double newton_work = 30 * (data_values(locals) * d + d * d * d / 3);
  if (f0.regularizer().l1 > 0 || newton_work > kSolverWork)
    return fista(locals, capped_iterations(3 * data_values(locals), 500000));
  return newton(locals);
}

}  // namespace dpl::algorithms
