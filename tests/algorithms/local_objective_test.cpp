// SPDX-License-Identifier: Apache-2.0
// Local objectives: values on hand-computed examples, gradients against finite differences, prox as the argmin
// (optimality condition), smoothness as a Lipschitz bound. The replace-one sensitivities come from the declared domain:
// sensitivity_bounds_test.cpp.
#include "algorithms/problems/local_objective.h"

#include "accounting/errors.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

namespace dpl::algorithms {
namespace {

Dataset small() {
  Dataset d;
  d.name = "small";
  d.features.resize(2, 2);
  d.features << 1, 0, 0.6, 0.8;
  d.labels.resize(2);
  d.labels << 1, -1;
  return d;
}

TEST(LocalObjective, ValuesOnAHandComputedExample) {
  const Eigen::VectorXd x = (Eigen::VectorXd(2) << 1, -2).finished();
  // Margins <z,x>: 1 and 0.6 - 1.6 = -1. Labels +1, -1: y m = 1 and 1.
  EXPECT_NEAR(LocalObjective(small(), LossKind::logistic, {}).value(x), std::log1p(std::exp(-1.0)), 1e-15);
  EXPECT_NEAR(LocalObjective(small(), LossKind::hinge, {}).value(x), 0.0, 1e-15);
  // Squared: residuals y - m = 0 and 0.
  EXPECT_NEAR(LocalObjective(small(), LossKind::squared, {}).value(x), 0.0, 1e-15);
  const Eigen::VectorXd x2 = (Eigen::VectorXd(2) << 3, 0).finished();  // margins 3, 1.8
  // Squared: ((1-3)^2 + (-1-1.8)^2) / 4 = (4 + 7.84) / 4 = 2.96.
  EXPECT_NEAR(LocalObjective(small(), LossKind::squared, {}).value(x2), 2.96, 1e-14);
  // Huber delta 1: |r| = 2 and 2.8 -> (2 - 0.5) + (2.8 - 0.5) = 3.8, mean 1.9.
  EXPECT_NEAR(LocalObjective(small(), LossKind::huber, {}, 1.0).value(x2), 1.9, 1e-14);
  // Hinge: 1 - 3 < 0 -> 0; 1 + 1.8 = 2.8; mean 1.4. Plus l2/2 |x|^2 = 0.5 * 9 = 4.5 and l1 |x|_1 = 0.1 * 3.
  EXPECT_NEAR(LocalObjective(small(), LossKind::hinge, {1.0, 0.1}).value(x2), 1.4 + 4.5 + 0.3, 1e-14);
  EXPECT_NEAR(LocalObjective(small(), LossKind::logistic, {}).value(Eigen::VectorXd::Zero(2)), std::log(2.0), 1e-15);
  // Logistic far in the tail: no overflow.
  const Eigen::VectorXd far = (Eigen::VectorXd(2) << -1000, 0).finished();
  EXPECT_TRUE(std::isfinite(LocalObjective(small(), LossKind::logistic, {}).gradient(far).norm()));
  EXPECT_NEAR(LocalObjective(small(), LossKind::logistic, {}).value(far),
              (1000.0 + std::log1p(std::exp(-600.0))) / 2, 1e-10);
}

TEST(LocalObjective, ParseAndValidate) {
  EXPECT_EQ(parse_loss("loss", "huber"), LossKind::huber);
  EXPECT_EQ(to_string(parse_loss("loss", "squared")), "squared");
  try {
    parse_loss("loss", "cauchy");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("loss=cauchy"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("logistic, hinge, squared, huber"), std::string::npos);
  }
  EXPECT_THROW(LocalObjective(small(), LossKind::huber, {}, 0.0), InputError);
  EXPECT_THROW(LocalObjective(small(), LossKind::logistic, {-1.0, 0.0}), InputError);
  EXPECT_THROW(LocalObjective(Dataset{}, LossKind::logistic, {}), InputError);
}

// Random unit-norm non-negative rows (the preprocessed convention) with +-1 labels.
Dataset random_data(Rng& rng, int rows, int dim) {
  Dataset d;
  d.name = "random";
  d.features.resize(rows, dim);
  d.labels.resize(rows);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < dim; ++c) d.features(r, c) = rng.uniform01();
    d.features.row(r) /= d.features.row(r).norm();
    d.labels(r) = rng.uniform01() < 0.5 ? -1.0 : 1.0;
  }
  return d;
}

Eigen::VectorXd random_vector(Rng& rng, int dim, double scale) {
  Eigen::VectorXd x(dim);
  for (int c = 0; c < dim; ++c) x(c) = rng.gaussian(0, scale);
  return x;
}

const LossKind kLosses[] = {LossKind::logistic, LossKind::hinge, LossKind::squared, LossKind::huber};

RC_GTEST_PROP(LocalObjectiveProperty, GradientMatchesCentralDifferences, ()) {
  Rng rng(*rc::gen::arbitrary<std::uint64_t>());
  const LossKind loss = kLosses[*rc::gen::inRange(0, 4)];
  const int dim = *rc::gen::inRange(1, 6);
  Dataset d = random_data(rng, *rc::gen::inRange(1, 20), dim);
  if (loss == LossKind::squared || loss == LossKind::huber)
    for (int r = 0; r < d.rows(); ++r) d.labels(r) = rng.gaussian(0, 2);
  const LocalObjective f(d, loss, {rng.uniform(0, 2), 0.0}, rng.uniform(0.2, 2));
  const Eigen::VectorXd x = random_vector(rng, dim, 2.0);
  // Skip points within 1e-4 of a kink (hinge at y m = 1, Huber at |r| = delta).
  const Eigen::VectorXd m = d.features * x;
  for (int r = 0; r < d.rows(); ++r) {
    if (loss == LossKind::hinge) RC_PRE(std::fabs(1 - d.labels(r) * m(r)) > 1e-4);
    if (loss == LossKind::huber) RC_PRE(std::fabs(std::fabs(m(r) - d.labels(r)) - f.huber_delta()) > 1e-4);
  }
  const Eigen::VectorXd g = f.gradient(x);
  const double h = 1e-6;
  for (int c = 0; c < dim; ++c) {
    Eigen::VectorXd e = Eigen::VectorXd::Zero(dim);
    e(c) = h;
    const double fd = (f.value(x + e) - f.value(x - e)) / (2 * h);
    RC_ASSERT(std::fabs(fd - g(c)) <= 1e-6 * std::max(1.0, std::fabs(g(c))));
  }
}

RC_GTEST_PROP(LocalObjectiveProperty, SubgradientAddsL1Signs, ()) {
  Rng rng(*rc::gen::arbitrary<std::uint64_t>());
  const LocalObjective f(random_data(rng, 5, 3), LossKind::logistic, {0.5, 0.3});
  Eigen::VectorXd x = random_vector(rng, 3, 1.0);
  x(1) = 0;
  const Eigen::VectorXd diff = f.subgradient(x) - f.gradient(x);
  RC_ASSERT(std::fabs(diff(0) - 0.3 * (x(0) > 0 ? 1 : -1)) < 1e-15);
  RC_ASSERT(diff(1) == 0.0);
}

RC_GTEST_PROP(RegularizerProperty, ProxSatisfiesTheOptimalityCondition, ()) {
  Rng rng(*rc::gen::arbitrary<std::uint64_t>());
  const Regularizer reg{rng.uniform(0, 3) * (rng.uniform01() < 0.2 ? 0 : 1), rng.uniform(0, 3)};
  const double t = rng.uniform(0.01, 5);
  const Eigen::VectorXd v = random_vector(rng, 6, 3.0);
  const Eigen::VectorXd x = reg.prox(v, t);
  for (int i = 0; i < 6; ++i) {
    // 0 in l1 d|x_i| + l2 x_i + (x_i - v_i)/t.
    const double r = (v(i) - x(i)) / t - reg.l2 * x(i);
    if (x(i) != 0) {
      RC_ASSERT(std::fabs(r - reg.l1 * (x(i) > 0 ? 1 : -1)) <= 1e-12 * std::max(1.0, std::fabs(v(i)) / t));
    } else {
      RC_ASSERT(std::fabs(r) <= reg.l1 + 1e-12);
    }
  }
  // And the prox objective is not improved by nearby points (direct argmin check).
  auto obj = [&](const Eigen::VectorXd& z) { return reg.value(z) + (z - v).squaredNorm() / (2 * t); };
  for (int k = 0; k < 20; ++k) RC_ASSERT(obj(x) <= obj(x + random_vector(rng, 6, 1e-3)) + 1e-14);
}

TEST(Regularizer, ProxByHand) {
  const Regularizer reg{1.0, 0.5};
  const Eigen::VectorXd v = (Eigen::VectorXd(3) << 2.0, -0.4, -3.0).finished();
  const Eigen::VectorXd x = reg.prox(v, 2.0);  // threshold 1, then / 3
  EXPECT_DOUBLE_EQ(x(0), 1.0 / 3);
  EXPECT_EQ(x(1), 0.0);
  EXPECT_DOUBLE_EQ(x(2), -2.0 / 3);
  EXPECT_DOUBLE_EQ(reg.value(v), 0.5 * (4 + 0.16 + 9) + 0.5 * 5.4);
}

RC_GTEST_PROP(LocalObjectiveProperty, SmoothnessIsALipschitzBoundOfTheGradient, ()) {
  Rng rng(*rc::gen::arbitrary<std::uint64_t>());
  const LossKind smooth = std::vector<LossKind>{LossKind::logistic, LossKind::squared, LossKind::huber}[
      static_cast<std::size_t>(*rc::gen::inRange(0, 3))];
  const LocalObjective f(random_data(rng, 8, 4), smooth, {rng.uniform(0, 1), 0.0});
  const double lip = f.smoothness();
  for (int k = 0; k < 10; ++k) {
    const Eigen::VectorXd a = random_vector(rng, 4, 3.0), b = random_vector(rng, 4, 3.0);
    RC_ASSERT((f.gradient(a) - f.gradient(b)).norm() <= lip * (a - b).norm() * (1 + 1e-12) + 1e-15);
  }
}

TEST(LocalObjective, SmoothnessIsTightForSquaredLossAndInfiniteForHinge) {
  Rng rng(3);
  const Dataset d = random_data(rng, 10, 3);
  const LocalObjective f(d, LossKind::squared, {0.25, 0.0});
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(d.features.transpose() * d.features);
  const Eigen::VectorXd top = es.eigenvectors().col(2);
  const double ratio = (f.gradient(top) - f.gradient(Eigen::VectorXd::Zero(3))).norm();
  EXPECT_NEAR(f.smoothness(), ratio, 1e-10);  // attained along the top eigenvector
  EXPECT_NEAR(LocalObjective(d, LossKind::logistic, {0.25, 0}).smoothness(), 0.25 + (ratio - 0.25) / 4, 1e-10);
  EXPECT_EQ(LocalObjective(d, LossKind::hinge, {1, 0}).smoothness(), HUGE_VAL);
}

// The gradient of the mean loss (l2 part cancels between neighbours, so use no regulariser).
TEST(LocalObjective, TotalObjectiveSumsAgents) {
  const Eigen::VectorXd x = (Eigen::VectorXd(2) << 0.3, -0.2).finished();
  std::vector<LocalObjective> locals{LocalObjective(small(), LossKind::logistic, {1, 0}),
                                     LocalObjective(small(), LossKind::logistic, {1, 0})};
  EXPECT_DOUBLE_EQ(total_objective(locals, x), 2 * locals[0].value(x));
}

}  // namespace
}  // namespace dpl::algorithms
