// SPDX-License-Identifier: Apache-2.0
// The centralised optimum: closed-form solutions (ridge regression; soft-thresholding for an orthogonal design;
// a one-row hinge problem), and an independent first-order optimality check on the shipped data for every
// solver (Newton, FISTA, SDCA), with the reported certificate at 1e-10 or better.
#include "algorithms/problems/centralized_optimum.h"

#include "accounting/errors.h"

#include <gtest/gtest.h>

#include <cmath>

namespace dpl::algorithms {
namespace {

std::vector<LocalObjective> make_locals(const std::vector<Dataset>& parts, LossKind loss, Regularizer reg,
                                        double delta = 1.0) {
  std::vector<LocalObjective> out;
  for (const auto& p : parts) out.emplace_back(p, loss, reg, delta);
  return out;
}

std::vector<Dataset> breast_cancer_parts(int agents, bool binary = true) {
  Rng rng(4);
  return split_across_agents(preprocess(load_shipped("breast_cancer"), binary), agents, rng);
}

// Independent check: the full gradient recomputed here row by row (not through LocalObjective::gradient).
Eigen::VectorXd independent_gradient(const std::vector<LocalObjective>& locals, const Eigen::VectorXd& x) {
  Eigen::VectorXd g = Eigen::VectorXd::Zero(x.size());
  for (const auto& f : locals) {
    const auto& d = f.data();
    for (int j = 0; j < d.rows(); ++j) {
      const double m = d.features.row(j).dot(x), y = d.labels(j);
      double dl = 0;
      switch (f.loss()) {
        case LossKind::logistic: dl = -y / (1 + std::exp(y * m)); break;
        case LossKind::squared: dl = m - y; break;
        case LossKind::huber: dl = std::max(-f.huber_delta(), std::min(f.huber_delta(), m - y)); break;
        case LossKind::hinge: dl = y * m < 1 ? -y : 0; break;
      }
      g += dl * d.features.row(j).transpose() / d.rows();
    }
    g += f.regularizer().l2 * x;
  }
  return g;
}

TEST(CentralizedOptimum, RidgeRegressionMatchesTheClosedForm) {
  Rng rng(1);
  const Dataset all = synthetic_regression(90, 5, rng);
  const auto parts = split_across_agents(all, 4, rng);
  const double l2 = 0.3;
  const auto locals = make_locals(parts, LossKind::squared, {l2, 0});
  // x* = (sum_i Z_i^T Z_i / b_i + N l2 I)^{-1} sum_i Z_i^T y_i / b_i.
  Eigen::MatrixXd a = 4 * l2 * Eigen::MatrixXd::Identity(5, 5);
  Eigen::VectorXd b = Eigen::VectorXd::Zero(5);
  for (const auto& p : parts) {
    a += p.features.transpose() * p.features / p.rows();
    b += p.features.transpose() * p.labels / p.rows();
  }
  const Eigen::VectorXd exact = a.ldlt().solve(b);
  const Optimum opt = solve_centralized(locals);
  EXPECT_LT((opt.x - exact).norm(), 1e-12 * std::max(1.0, exact.norm()));
  EXPECT_LT(opt.optimality_gap, 1e-10);
  EXPECT_NEAR(opt.value, total_objective(locals, exact), 1e-12);
  EXPECT_LE(opt.iterations, 3);  // quadratic: one Newton step (plus the check)
}

TEST(CentralizedOptimum, LogisticNewtonOnTheShippedData) {
  const auto locals = make_locals(breast_cancer_parts(10), LossKind::logistic, {1.0, 0});
  const Optimum opt = solve_centralized(locals);
  EXPECT_LT(opt.optimality_gap, 1e-10);
  EXPECT_LT(independent_gradient(locals, opt.x).norm(), 1e-10);
  // A perturbed point is worse (the optimum is a minimum, not a saddle/maximum).
  EXPECT_LT(opt.value, total_objective(locals, opt.x + 1e-3 * Eigen::VectorXd::Ones(30)));
  // Small l2: harder conditioning, same certificate.
  const auto weak = make_locals(breast_cancer_parts(10), LossKind::logistic, {1e-4, 0});
  const Optimum opt2 = solve_centralized(weak);
  EXPECT_LT(independent_gradient(weak, opt2.x).norm(), 1e-10);
}

TEST(CentralizedOptimum, HuberNewtonOnTheShippedData) {
  const auto locals = make_locals(breast_cancer_parts(5), LossKind::huber, {0.1, 0}, 0.5);
  const Optimum opt = solve_centralized(locals);
  EXPECT_LT(opt.optimality_gap, 1e-10);
  EXPECT_LT(independent_gradient(locals, opt.x).norm(), 1e-10);
}

TEST(CentralizedOptimum, ElasticNetOnAnOrthogonalDesignIsSoftThresholding) {
  // One agent, Z = sqrt(b) I (b = d = 4 rows), so the mean loss is |x|^2/2 - <c, x> + const with c = Z^T y / b.
  Dataset d;
  d.features = 2.0 * Eigen::MatrixXd::Identity(4, 4);
  d.labels = (Eigen::VectorXd(4) << 3.0, -0.2, 0.5, -5.0).finished();
  const double l1 = 0.3, l2 = 0.5;
  const auto locals = make_locals({d}, LossKind::squared, {l2, l1});
  const Eigen::VectorXd c = d.features.transpose() * d.labels / 4;  // 1.5, -0.1, 0.25, -2.5
  Eigen::VectorXd exact(4);
  for (int i = 0; i < 4; ++i)
    exact(i) = std::copysign(std::max(0.0, std::fabs(c(i)) - l1), c(i)) / (1 + l2);
  const Optimum opt = solve_centralized(locals);
  EXPECT_LT((opt.x - exact).norm(), 1e-11);
  EXPECT_LT(opt.optimality_gap, 1e-10);
  EXPECT_EQ(opt.x(1), 0.0);  // exactly sparse
  EXPECT_EQ(opt.x(2), 0.0);
}

TEST(CentralizedOptimum, L1LogisticSatisfiesTheSubgradientCondition) {
  const int agents = 6;
  const double l1 = 0.01;
  const auto locals = make_locals(breast_cancer_parts(agents), LossKind::logistic, {0.1, l1});
  const Optimum opt = solve_centralized(locals);
  EXPECT_LT(opt.optimality_gap, 1e-10);
  // 0 in g + N l1 d|x|: g_i = -N l1 sign(x_i) off zero, |g_i| <= N l1 at zero.
  const Eigen::VectorXd g = independent_gradient(locals, opt.x);
  int zeros = 0;
  for (int i = 0; i < 30; ++i) {
    if (opt.x(i) != 0) {
      EXPECT_NEAR(g(i), -agents * l1 * (opt.x(i) > 0 ? 1 : -1), 1e-10);
    } else {
      ++zeros;
      EXPECT_LE(std::fabs(g(i)), agents * l1 + 1e-10);
    }
  }
  EXPECT_GT(zeros, 0);  // l1 does select
}

TEST(CentralizedOptimum, HingeOneRowClosedForm) {
  // F(x) = max(0, 1 - x) + (l2/2) x^2: x* = 1/l2 when l2 >= 1, else the kink x* = 1.
  Dataset d;
  d.features = Eigen::MatrixXd::Ones(1, 1);
  d.labels = Eigen::VectorXd::Ones(1);
  for (const auto& [l2, expected] : std::vector<std::pair<double, double>>{{2.0, 0.5}, {0.5, 1.0}}) {
    const Optimum opt = solve_centralized(make_locals({d}, LossKind::hinge, {l2, 0}));
    EXPECT_NEAR(opt.x(0), expected, 1e-12) << "l2=" << l2;
    EXPECT_LT(opt.optimality_gap, 1e-12);
  }
}

TEST(CentralizedOptimum, HingeSdcaOnTheShippedData) {
  const auto locals = make_locals(breast_cancer_parts(4), LossKind::hinge, {0.5, 0});
  const Optimum opt = solve_centralized(locals);
  EXPECT_LT(opt.optimality_gap, 1e-10);  // duality gap: F(x) - F* <= gap
  // Independent check: no nearby point (random directions, several radii) is better by more than the gap.
  Rng rng(9);
  for (int k = 0; k < 200; ++k) {
    Eigen::VectorXd dir(30);
    for (int i = 0; i < 30; ++i) dir(i) = rng.gaussian();
    const double r = std::pow(10.0, -static_cast<double>(k % 6) - 1);
    EXPECT_GE(total_objective(locals, opt.x + r * dir.normalized()), opt.value - opt.optimality_gap - 1e-13);
  }
}

// No nearby point (random directions at radii 1e-1 .. 1e-6) is better than `opt` by more than its certificate.
void expect_no_better_neighbour(const std::vector<LocalObjective>& locals, const Optimum& opt, std::uint64_t seed) {
  Rng rng(seed);
  const auto d = opt.x.size();
  for (int k = 0; k < 200; ++k) {
    Eigen::VectorXd dir(d);
    for (Eigen::Index i = 0; i < d; ++i) dir(i) = rng.gaussian();
    const double r = std::pow(10.0, -static_cast<double>(k % 6) - 1);
    EXPECT_GE(total_objective(locals, opt.x + r * dir.normalized()), opt.value - opt.optimality_gap - 1e-13);
  }
}

TEST(CentralizedOptimum, HingeL1OneRowClosedForm) {
  // F(x) = max(0, 1 - x) + phi |x| (l2 = 0: the linear programme): x* = 1, F* = phi for phi < 1; x* = 0, F* = 1
  // for phi > 1.
  Dataset d;
  d.features = Eigen::MatrixXd::Ones(1, 1);
  d.labels = Eigen::VectorXd::Ones(1);
  for (const auto& [phi, expected] : std::vector<std::pair<double, double>>{{0.25, 1.0}, {3.0, 0.0}}) {
    const Optimum opt = solve_centralized(make_locals({d}, LossKind::hinge, {0, phi}));
    EXPECT_NEAR(opt.x(0), expected, 1e-12) << "phi=" << phi;
    EXPECT_NEAR(opt.value, std::min(phi, 1.0), 1e-12) << "phi=" << phi;
    EXPECT_LT(opt.optimality_gap, 1e-12);
  }
}

TEST(CentralizedOptimum, HingeL1LinearProgrammeOnTheShippedData) {
  // Liu-Johansson-Shi Sec. 5.2's problem: hinge + phi |x|_1, no l2, 20 agents.
  const auto locals = make_locals(breast_cancer_parts(20), LossKind::hinge, {0, 5e-4});
  const Optimum opt = solve_centralized(locals);
  EXPECT_LT(opt.optimality_gap, 1e-9 * std::max(1.0, opt.value));  // duality gap of the simplex's final pair
  EXPECT_LT(opt.value, 0.5 * total_objective(locals, Eigen::VectorXd::Zero(30)));  // far from the zero model
  expect_no_better_neighbour(locals, opt, 11);
  // The check has power: a point 1e-2 away from the optimum is beaten by one of its neighbours.
  Optimum off = opt;
  off.x(0) += 1e-2;
  off.value = total_objective(locals, off.x);
  off.optimality_gap = 0;
  bool beaten = false;
  Rng rng(12);
  for (int k = 0; k < 200 && !beaten; ++k) {
    Eigen::VectorXd dir(30);
    for (int i = 0; i < 30; ++i) dir(i) = rng.gaussian();
    beaten = total_objective(locals, off.x + 1e-3 * dir.normalized()) < off.value - 1e-13;
  }
  EXPECT_TRUE(beaten);
}

TEST(CentralizedOptimum, HingeElasticNetProximalSdca) {
  const auto locals = make_locals(breast_cancer_parts(4), LossKind::hinge, {0.05, 0.01});
  const Optimum opt = solve_centralized(locals);
  EXPECT_LT(opt.optimality_gap, 1e-10);
  expect_no_better_neighbour(locals, opt, 13);
  int zeros = 0;
  for (Eigen::Index i = 0; i < opt.x.size(); ++i) zeros += opt.x(i) == 0;
  EXPECT_GT(zeros, 0);  // the l1 part selects
  // A vanishing l2 approaches the linear programme's optimum from above, within (l2 N / 2) |x*|^2.
  const auto lp = solve_centralized(make_locals(breast_cancer_parts(4), LossKind::hinge, {0, 0.01}));
  const auto en = solve_centralized(make_locals(breast_cancer_parts(4), LossKind::hinge, {1e-3, 0.01}));
  const double lp_value_with_l2 = lp.value + 4 * 1e-3 / 2 * lp.x.squaredNorm();
  EXPECT_LE(en.value, lp_value_with_l2 + en.optimality_gap + 1e-12);
  EXPECT_GE(en.value, lp.value - lp.optimality_gap);
}

TEST(CentralizedOptimum, RejectsWhatItCannotSolve) {
  const auto parts = breast_cancer_parts(2);
  EXPECT_THROW(solve_centralized(make_locals(parts, LossKind::hinge, {0, 0})), NotApplicable);
  EXPECT_THROW(solve_centralized({}), InputError);
  std::vector<LocalObjective> mixed{LocalObjective(parts[0], LossKind::logistic, {1, 0}),
                                    LocalObjective(parts[1], LossKind::logistic, {2, 0})};
  EXPECT_THROW(solve_centralized(mixed), InputError);
}

}  // namespace
}  // namespace dpl::algorithms
