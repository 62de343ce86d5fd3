// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed003/erm_problem.h"

#include "accounting/numeric/portable_math.h"
#include "algorithms/run/audit_probe.h"

#include "accounting/errors.h"
#include "algorithms/problems/centralized_optimum.h"
#include "algorithms/seed003/lasso_coordinate_descent.h"

#include <algorithm>
#include <cmath>

namespace dpl::algorithms::seed003 {

namespace {

double sigmoid(double s) { return s >= 0 ? 1 / (1 + portable::binary64::exp(-s)) : portable::binary64::exp(s) / (1 + portable::binary64::exp(s)); }

double mean_loss(const Dataset& d, LossKind loss, const Eigen::VectorXd& x) {
  const Eigen::VectorXd m = d.features * x;
  double sum = 0;
  for (int i = 0; i < d.rows(); ++i) {
    const double y = d.labels(i);
    if (loss == LossKind::squared) sum += 0.5 * (m(i) - y) * (m(i) - y);
    else {
      const double s = -y * m(i);  // log(1 + e^s), stable
      sum += s > 0 ? s + portable::binary64::log1p(portable::binary64::exp(-s)) : portable::binary64::log1p(portable::binary64::exp(s));
    }
  }
  return sum / d.rows();
}

// Rows with norm above the declared radius are scaled onto it (data-independent domain).
void project_rows(Dataset& d, double radius) {
  for (int i = 0; i < d.rows(); ++i) {
    const double norm = d.features.row(i).norm();
    if (norm > radius) d.features.row(i) *= radius / norm;
  }
}

}  // namespace

double ErmProblem::objective(const Eigen::VectorXd& x) const { return mean_loss(train, loss, x) + reg.value(x); }
double ErmProblem::test_objective(const Eigen::VectorXd& x) const { return mean_loss(test, loss, x) + reg.value(x); }

Eigen::VectorXd ErmProblem::record_gradient(int i, const Eigen::VectorXd& x) const {
  const Eigen::VectorXd a = train.features.row(i).transpose();
  const double y = train.labels(i), m = a.dot(x);
  if (loss == LossKind::squared) return (m - y) * a;
  return -y * sigmoid(-y * m) * a;
}

Eigen::VectorXd ErmProblem::smooth_gradient(const Eigen::VectorXd& x) const {
  const Eigen::VectorXd m = train.features * x;
  Eigen::VectorXd w(records());
  for (int i = 0; i < records(); ++i) {
    const double y = train.labels(i);
    w(i) = loss == LossKind::squared ? m(i) - y : -y * sigmoid(-y * m(i));
  }
  return train.features.transpose() * w / records() + reg.smooth_gradient(x);
}

double ErmProblem::record_lipschitz() const { return loss == LossKind::logistic ? radius : HUGE_VAL; }
double ErmProblem::record_smoothness() const {
  return loss == LossKind::logistic ? 0.25 * radius * radius : radius * radius;
}

Eigen::VectorXd ErmProblem::record_prox(int i, const Eigen::VectorXd& v, double t) const {
  const Eigen::VectorXd a = train.features.row(i).transpose();
  const double y = train.labels(i), aa = a.squaredNorm();
  if (loss == LossKind::squared) {
    // (a a^T + I/t)^{-1}(y a + v/t) by Sherman-Morrison: x = v - t a (a^T v - y)/(1 + t ||a||^2).
    return v - (t * (a.dot(v) - y) / (1 + t * aa)) * a;
  }
  // Optimality: x = v + t y a sigma(-s), s = y <a, x>  =>  g(s) = s - c - t aa sigma(-s) = 0, c = y <a, v>;
  // g is increasing, g(c) <= 0 <= g(c + t aa): Newton kept inside the bracket (bisection fallback).
  const double c = y * a.dot(v);
  double lo = c, hi = c + t * aa, s = c;
  for (int it = 0; it < 200 && hi - lo > 1e-15 * (1 + std::fabs(s)); ++it) {
    const double sg = sigmoid(-s);
    const double g = s - c - t * aa * sg;
    if (g == 0) break;
    if (g < 0) lo = s; else hi = s;
    const double next = s - g / (1 + t * aa * sg * (1 - sg));
    s = next > lo && next < hi ? next : 0.5 * (lo + hi);
  }
  return v + (t * y * sigmoid(-s)) * a;
}

Eigen::VectorXd sparse_truth(int dim, int support, Rng& rng) {
  Eigen::VectorXd x = Eigen::VectorXd::Zero(dim);
  const std::vector<int> perm = rng.permutation(dim);
  for (int k = 0; k < std::min(support, dim); ++k) x(perm[static_cast<std::size_t>(k)]) = rng.uniform(-1, 1);
  return x;
}

Dataset lasso_synthetic(int rows, int dim, const Eigen::VectorXd& truth, double noise_sd, Rng& rng) {
  Dataset d;
  d.name = "lasso-synthetic";
  d.features.resize(rows, dim);
  d.labels.resize(rows);
  for (int i = 0; i < rows; ++i) {
    for (int l = 0; l < dim; ++l) d.features(i, l) = rng.gaussian();
    d.features.row(i) /= d.features.row(i).norm();  // uniform on the unit sphere
    d.labels(i) = d.features.row(i).dot(truth) + noise_sd * rng.gaussian();
  }
  return d;
}

ErmProblem with_canary_record(const ErmProblem& p, bool on_d) {
  ErmProblem c = p;
  c.train.features.row(0).setZero();
  c.train.features(0, 0) = p.radius;
  c.train.labels(0) = on_d ? 1.0 : -1.0;
  return c;
}

ErmProblem setup_erm(RunParameters& params, const ErmDefaults& defaults, Rng& rng) {
  const std::string data = params.text("data", defaults.data);
  const std::string loss_name = params.choice("loss", defaults.loss, {"logistic", "squared"});
  const double l2 = params.real("l2", defaults.l2, 0, 1e6);
  const double l1 = params.real("l1", defaults.l1, 0, 1e6);
  const double radius = params.real("radius", 1.0, 0, 1e6, true);
  const auto rows = static_cast<int>(params.integer("rows", defaults.rows, 2, 1000000));
  const auto dim = static_cast<int>(params.integer("dim", defaults.dim, 1, 10000));
  const auto test_rows = static_cast<int>(params.integer("test_rows", 1000, 1, 1000000));
  if (static_cast<double>(rows) * dim > 5e7 || static_cast<double>(test_rows) * dim > 5e7)
    throw InputError("rows x dim = " + std::to_string(rows) + " x " + std::to_string(dim) +
                     " is too large: allowed rows x dim <= 5e7");
  // An audit's runs share one problem, set up once from the audit's seed (audit_probe.h).
  if (AuditProbe* probe = params.audit_probe(); probe && probe->setup_cache()) {
    AuditProbe* const none = nullptr;
    return probe->setup<ErmProblem>([&](std::uint64_t s) {
      RunParameters again = params;
      again.set_audit_probe(none);
      Rng fixed(s);
      return setup_erm(again, defaults, fixed);
    });
  }

  ErmProblem p;
  p.loss = loss_name == "squared" ? LossKind::squared : LossKind::logistic;
  p.reg = Regularizer{l2, l1};
  p.radius = radius;
  if (data == "lasso-synthetic") {
    if (p.loss != LossKind::squared)
      throw InputError("data=lasso-synthetic needs loss=squared (it is a regression set): got loss=" + loss_name);
    Rng gen = rng.split();
    const Eigen::VectorXd truth = sparse_truth(dim, 8, gen);
    p.train = lasso_synthetic(rows, dim, truth, 0.1, gen);
    p.test = lasso_synthetic(test_rows, dim, truth, 0.1, gen);
  } else {
    p.train = preprocess(load_dataset(data), p.loss == LossKind::logistic);
    p.test = p.train;
  }
  project_rows(p.train, radius);
  project_rows(p.test, radius);

  if (p.loss == LossKind::squared) {
    const LassoSolution s = lasso_coordinate_descent(p.train.features, p.train.labels, l1, l2);
    p.optimum = s.x;
    p.optimum_method = "cyclic coordinate descent to max coordinate step " + std::to_string(s.max_step) + " (" +
                       std::to_string(s.sweeps) + " sweeps)";
  } else {
    const Optimum o = solve_centralized({LocalObjective(p.train, LossKind::logistic, p.reg)});
    p.optimum = o.x;
    p.optimum_method = "solve_centralized (Newton / FISTA), optimality gap " + std::to_string(o.optimality_gap);
  }
  p.optimum_value = p.objective(p.optimum);
  return p;
}

}  // namespace dpl::algorithms::seed003
