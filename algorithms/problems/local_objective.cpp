// SPDX-License-Identifier: Apache-2.0
#include "algorithms/problems/local_objective.h"

#include "accounting/errors.h"
#include "accounting/numeric/portable_math.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>

namespace dpl::algorithms {

namespace {

// log(1 + e^{-t}) without overflow or cancellation (exact up to rounding).
double log1pexp_neg(double t) { return t > 0 ? portable::binary64::log1p(portable::binary64::exp(-t)) : -t + portable::binary64::log1p(portable::binary64::exp(t)); }
// 1 / (1 + e^{t}) without overflow.
double sigmoid_neg(double t) {
  if (t > 0) {
    const double e = portable::binary64::exp(-t);
    return e / (1.0 + e);
  }
  return 1.0 / (1.0 + portable::binary64::exp(t));
}

double loss_value(LossKind k, double y, double m, double delta) {
  switch (k) {
    case LossKind::logistic: return log1pexp_neg(y * m);           // log(1 + e^{-y m})
    case LossKind::hinge: return std::max(0.0, 1.0 - y * m);       // max(0, 1 - y m)
    case LossKind::squared: return 0.5 * (y - m) * (y - m);        // (y - m)^2 / 2
    case LossKind::huber: {                                        // Huber 1964 on the residual m - y
      const double r = std::fabs(m - y);
      return r <= delta ? 0.5 * r * r : delta * (r - 0.5 * delta);
    }
  }
  return 0;
}

// d loss / d m (a subgradient for hinge: 0 at the kink).
double loss_derivative(LossKind k, double y, double m, double delta) {
  switch (k) {
    case LossKind::logistic: return -y * sigmoid_neg(y * m);
    case LossKind::hinge: return y * m < 1.0 ? -y : 0.0;
    case LossKind::squared: return m - y;
    case LossKind::huber: return std::clamp(m - y, -delta, delta);
  }
  return 0;
}

}  // namespace

LossKind parse_loss(const std::string& option, const std::string& name) {
  if (name == "logistic") return LossKind::logistic;
  if (name == "hinge") return LossKind::hinge;
  if (name == "squared") return LossKind::squared;
  if (name == "huber") return LossKind::huber;
  throw InputError(option + "=" + name + " is not allowed: allowed values logistic, hinge, squared, huber");
}

std::string to_string(LossKind k) {
  switch (k) {
    case LossKind::logistic: return "logistic";
    case LossKind::hinge: return "hinge";
    case LossKind::squared: return "squared";
    case LossKind::huber: return "huber";
  }
  return "?";
}

double Regularizer::value(const Eigen::VectorXd& x) const {
  return 0.5 * l2 * x.squaredNorm() + l1 * x.lpNorm<1>();
}

Eigen::VectorXd Regularizer::smooth_gradient(const Eigen::VectorXd& x) const { return l2 * x; }

// prox of t (l1 |.|_1 + l2/2 |.|^2): soft-threshold at t l1, then divide by 1 + t l2 (exact: the optimality
// condition l1 s + l2 x + (x - v)/t = 0 with s in the subdifferential of |x|).
Eigen::VectorXd Regularizer::prox(const Eigen::VectorXd& v, double t) const {
  const double thr = t * l1;
  Eigen::VectorXd out = v;
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    const double a = std::fabs(v(i)) - thr;
    out(i) = a > 0 ? std::copysign(a, v(i)) : 0.0;
  }
  return out / (1.0 + t * l2);
}

LocalObjective::LocalObjective(Dataset data, LossKind loss, Regularizer reg, double huber_delta)
    : data_(std::move(data)), loss_(loss), reg_(reg), huber_delta_(huber_delta) {
  if (data_.rows() < 1) throw InputError("local objective: an agent has no rows: allowed at least 1 row");
  if (data_.labels.size() != data_.features.rows())
    throw InputError("local objective: " + std::to_string(data_.labels.size()) + " labels for " +
                     std::to_string(data_.features.rows()) + " rows");
  if (!(reg_.l2 >= 0) || !std::isfinite(reg_.l2))
    throw InputError("l2=" + std::to_string(reg_.l2) + " is out of range: allowed reals [0, inf)");
  if (!(reg_.l1 >= 0) || !std::isfinite(reg_.l1))
    throw InputError("l1=" + std::to_string(reg_.l1) + " is out of range: allowed reals [0, inf)");
  if (loss_ == LossKind::huber && (!(huber_delta_ > 0) || !std::isfinite(huber_delta_)))
    throw InputError("huber_delta=" + std::to_string(huber_delta_) + " is out of range: allowed reals (0, inf)");
}

double LocalObjective::value(const Eigen::VectorXd& x) const {
  const Eigen::VectorXd m = data_.features * x;
  double s = 0;
  for (Eigen::Index j = 0; j < m.size(); ++j) s += loss_value(loss_, data_.labels(j), m(j), huber_delta_);
  return s / rows() + reg_.value(x);
}

Eigen::VectorXd LocalObjective::gradient(const Eigen::VectorXd& x) const {
  const Eigen::VectorXd m = data_.features * x;
  Eigen::VectorXd dl(m.size());
  for (Eigen::Index j = 0; j < m.size(); ++j) dl(j) = loss_derivative(loss_, data_.labels(j), m(j), huber_delta_);
  return data_.features.transpose() * dl / rows() + reg_.smooth_gradient(x);
}

Eigen::VectorXd LocalObjective::subgradient(const Eigen::VectorXd& x) const {
  Eigen::VectorXd g = gradient(x);
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (x(i) != 0) g(i) += reg_.l1 * (x(i) > 0 ? 1.0 : -1.0);
  return g;
}

// Descent-lemma constant: the mean loss's Hessian is Z^T D Z / b with 0 <= D <= c (c = 1/4 logistic, 1 squared
// and Huber), so L = c ||Z||_2^2 / b + l2 (upper bound); hinge is not differentiable (HUGE_VAL).
double LocalObjective::smoothness() const {
  if (loss_ == LossKind::hinge) return HUGE_VAL;
  const double c = loss_ == LossKind::logistic ? 0.25 : 1.0;
  // ||Z||_2^2 is the top eigenvalue of Z^T Z (d x d) and of Z Z^T (b x b): the smaller one is formed; above 256
  // (the eigen-solver's cubic cost) the Frobenius norm ||Z||_F^2 >= ||Z||_2^2 is used instead (upper bound).
  const Eigen::MatrixXd& z = data_.features;
  double top = 0;
  if (std::min(z.rows(), z.cols()) > 256) {
    top = z.squaredNorm();
  } else {
    const Eigen::MatrixXd gram =
        z.rows() < z.cols() ? Eigen::MatrixXd(z * z.transpose()) : Eigen::MatrixXd(z.transpose() * z);
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(gram, Eigen::EigenvaluesOnly);
    top = es.eigenvalues().size() ? std::max(0.0, es.eigenvalues().maxCoeff()) : 0.0;
  }
  // A relative margin of 1e-12 covers the eigen-solver's (or the sum's) rounding, keeping this an upper bound.
  return c * top * (1 + 1e-12) / rows() + reg_.l2;
}

double total_objective(const std::vector<LocalObjective>& locals, const Eigen::VectorXd& x) {
  double s = 0;
  for (const auto& f : locals) s += f.value(x);
  return s;
}

}  // namespace dpl::algorithms
