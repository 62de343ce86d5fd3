// SPDX-License-Identifier: Apache-2.0
#include "algorithms/problems/hinge_l1_simplex.h"

#include "accounting/errors.h"

#include <algorithm>
#include <cmath>

namespace dpl::algorithms {

namespace {

// Weak duality for the pair (x, a): P(x) >= P* >= sum_k c_k a_k' with a' = a scaled into the feasible set.
double feasible_dual(const Eigen::MatrixXd& M, const Eigen::VectorXd& c, Eigen::VectorXd a, double phi) {
  for (Eigen::Index k = 0; k < a.size(); ++k) a(k) = std::clamp(a(k), 0.0, 1.0);
  const double top = (M * a).cwiseAbs().maxCoeff();
  if (top > phi) a *= phi / top;
  return c.dot(a);
}

}  // namespace

// Bounded-variable primal simplex (Dantzig 1955; e.g. Chvatal, Linear Programming, ch. 8) on
//   max c^T a  s.t.  M a - w = 0,  0 <= a <= 1,  -phi <= w <= phi,   M = Z^T diag(c y)  (d x n).
// Columns 0..n-1 are a, n..n+d-1 are w (column -e_l). Start: basis w, every a at its lower bound 0 (w = 0).
HingeL1Solution hinge_l1_simplex(const Eigen::MatrixXd& Z, const Eigen::VectorXd& y, const Eigen::VectorXd& c,
                                 double phi, int max_pivots) {
  const auto n = static_cast<int>(Z.rows()), d = static_cast<int>(Z.cols());
  if (!(phi > 0)) throw InputError("hinge_l1_simplex: phi must be > 0");
  Eigen::MatrixXd M = Z.transpose();
  for (int k = 0; k < n; ++k) M.col(k) *= c(k) * y(k);
  const int cols = n + d;
  auto column = [&](int j) -> Eigen::VectorXd {
    if (j < n) return M.col(j);
    Eigen::VectorXd e = Eigen::VectorXd::Zero(d);
    e(j - n) = -1;
    return e;
  };
  auto lower = [&](int j) { return j < n ? 0.0 : -phi; };
  auto upper = [&](int j) { return j < n ? 1.0 : phi; };
  auto cost = [&](int j) { return j < n ? c(j) : 0.0; };
  std::vector<int> basis(static_cast<std::size_t>(d));
  std::vector<int> position(static_cast<std::size_t>(cols), -1);  // row of a basic column, -1 if nonbasic
  Eigen::VectorXd value = Eigen::VectorXd::Zero(cols);            // current values (nonbasic at a bound)
  for (int l = 0; l < d; ++l) {
    basis[static_cast<std::size_t>(l)] = n + l;
    position[static_cast<std::size_t>(n + l)] = l;
  }
  Eigen::MatrixXd Binv = -Eigen::MatrixXd::Identity(d, d);  // B = -I
  const double cscale = c.cwiseAbs().maxCoeff();
  const double tol = 1e-12 * std::max(1.0, cscale);
  int pivots = 0, degenerate = 0;
  auto refactor = [&] {
    Eigen::MatrixXd B(d, d);
    for (int l = 0; l < d; ++l) B.col(l) = column(basis[static_cast<std::size_t>(l)]);
    Binv = B.partialPivLu().inverse();
    // Basic values from the nonbasic ones: B x_B = -N x_N.
    Eigen::VectorXd rhs = Eigen::VectorXd::Zero(d);
    for (int j = 0; j < cols; ++j)
      if (position[static_cast<std::size_t>(j)] < 0 && value(j) != 0) rhs -= column(j) * value(j);
    const Eigen::VectorXd xb = Binv * rhs;
    for (int l = 0; l < d; ++l) value(basis[static_cast<std::size_t>(l)]) = xb(l);
  };
  while (pivots < max_pivots) {
    Eigen::VectorXd cb(d);
    for (int l = 0; l < d; ++l) cb(l) = cost(basis[static_cast<std::size_t>(l)]);
    const Eigen::RowVectorXd pi = cb.transpose() * Binv;
    // Pricing: a nonbasic column improves the objective if it can move in the direction of its reduced cost.
    const bool bland = degenerate > 50;
    int enter = -1;
    double best = 0;
    for (int j = 0; j < cols; ++j) {
      if (position[static_cast<std::size_t>(j)] >= 0) continue;
      const double rc = cost(j) - (j < n ? pi.dot(M.col(j)) : -pi(j - n));  // column of w_l: -e_l
      const bool at_lower = value(j) <= lower(j);
      const double gain = at_lower ? rc : -rc;
      if (gain > tol && (bland ? enter < 0 : gain > best)) {
        best = gain;
        enter = j;
        if (bland) break;
      }
    }
    if (enter < 0) break;  // optimal
    const double dir = value(enter) <= lower(enter) ? 1.0 : -1.0;  // the entering variable increases or decreases
    const Eigen::VectorXd alpha = Binv * column(enter);           // d x_B = -dir * alpha per unit step
    double step = upper(enter) - lower(enter);                     // a bound flip
    int leave = -1;
    for (int l = 0; l < d; ++l) {
      const double rate = -dir * alpha(l);
      if (std::fabs(rate) < 1e-12) continue;
      const int j = basis[static_cast<std::size_t>(l)];
      const double room = rate > 0 ? (upper(j) - value(j)) / rate : (lower(j) - value(j)) / rate;
      const double r = std::max(0.0, room);
      if (r < step || (r == step && leave >= 0 && bland && j < basis[static_cast<std::size_t>(leave)])) {
        step = r;
        leave = l;
      }
    }
    degenerate = step <= 1e-14 ? degenerate + 1 : 0;
    value(enter) += dir * step;
    for (int l = 0; l < d; ++l) value(basis[static_cast<std::size_t>(l)]) -= dir * step * alpha(l);
    ++pivots;
    if (leave < 0) continue;  // bound flip: the basis is unchanged
    const int out = basis[static_cast<std::size_t>(leave)];
    // The leaving variable sits exactly at the bound it reached.
    value(out) = -dir * alpha(leave) > 0 ? upper(out) : lower(out);
    basis[static_cast<std::size_t>(leave)] = enter;
    position[static_cast<std::size_t>(enter)] = leave;
    position[static_cast<std::size_t>(out)] = -1;
    // Rank-one update of B^{-1} (product form), refactored now and then against drift.
    const double p = alpha(leave);
    const Eigen::RowVectorXd prow = Binv.row(leave) / p;
    for (int l = 0; l < d; ++l)
      if (l != leave) Binv.row(l) -= alpha(l) * prow;
    Binv.row(leave) = prow;
    if (pivots % 64 == 0) refactor();
  }
  refactor();
  Eigen::VectorXd cb(d);
  for (int l = 0; l < d; ++l) cb(l) = cost(basis[static_cast<std::size_t>(l)]);
  // x = the duals of the rows M a - w = 0 (sign: the reduced cost of a_k is c_k (1 - y_k <z_k, x>)).
  const Eigen::VectorXd x = (cb.transpose() * Binv).transpose();
  HingeL1Solution s;
  s.x = x;
  s.pivots = pivots;
  const Eigen::VectorXd margins = (Z * x).cwiseProduct(y);
  for (int k = 0; k < n; ++k) s.primal += c(k) * std::max(0.0, 1.0 - margins(k));
  s.primal += phi * x.lpNorm<1>();
  s.dual = feasible_dual(M, c, value.head(n), phi);
  return s;
}

}  // namespace dpl::algorithms
