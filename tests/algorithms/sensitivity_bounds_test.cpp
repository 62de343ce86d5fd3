// SPDX-License-Identifier: Apache-2.0
// Data-independent bounds from the declared domain: every replace-one neighbour inside the domain respects the
// sensitivities (property), the bounds are attained up to a small factor (so they are not loose by 2x either
// way: the one-sided B_inf = 1/b is exceeded by an explicit neighbour), they do not depend on the rows, and data
// outside the domain are refused.
#include "algorithms/problems/sensitivity_bounds.h"

#include "accounting/errors.h"
#include "expect_input_error.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

namespace dpl::algorithms {
namespace {

// A row in the domain: features uniform on [0,1], scaled to unit l2 norm for unit-rows.
Eigen::RowVectorXd domain_row(Rng& rng, int dim, DataDomain d) {
  Eigen::RowVectorXd z(dim);
  for (int c = 0; c < dim; ++c) z(c) = rng.uniform01();
  if (rng.uniform01() < 0.2) z.setZero(), z(static_cast<int>(rng.uniform_int(static_cast<std::uint64_t>(dim)))) = 1;
  if (d == DataDomain::unit_rows && z.norm() > 0) z /= z.norm();
  return z;
}

Dataset domain_data(Rng& rng, int rows, int dim, DataDomain d) {
  Dataset out;
  out.name = "random";
  out.features.resize(rows, dim);
  out.labels.resize(rows);
  for (int j = 0; j < rows; ++j) {
    out.features.row(j) = domain_row(rng, dim, d);
    out.labels(j) = rng.uniform01() < 0.5 ? -1.0 : 1.0;
  }
  return out;
}

Eigen::VectorXd loss_gradient(const Dataset& d, LossKind loss, double delta, const Eigen::VectorXd& x) {
  return LocalObjective(d, loss, {}, delta).gradient(x);
}

RC_GTEST_PROP(SensitivityBounds, HoldForEveryInDomainReplaceOneNeighbour, ()) {
  Rng rng(*rc::gen::arbitrary<std::uint64_t>());
  const LossKind loss = std::vector<LossKind>{LossKind::logistic, LossKind::hinge, LossKind::huber}[
      static_cast<std::size_t>(*rc::gen::inRange(0, 3))];
  const DataDomain domain = *rc::gen::element(DataDomain::unit_rows, DataDomain::unit_cube);
  const int dim = *rc::gen::inRange(1, 6), rows = *rc::gen::inRange(1, 15);
  const Dataset d = domain_data(rng, rows, dim, domain);
  const double delta = rng.uniform(0.1, 3);
  require_in_domain(d, domain, loss, "test");
  const LossBounds b = loss_bounds(loss, {1.0, 0.0}, delta, domain, dim, rows);
  Dataset n = d;
  const auto target = static_cast<int>(rng.uniform_int(static_cast<std::uint64_t>(rows)));
  n.features.row(target) = domain_row(rng, dim, domain);
  n.labels(target) = loss == LossKind::huber ? rng.gaussian(0, 5) : (rng.uniform01() < 0.5 ? -1.0 : 1.0);
  for (int k = 0; k < 10; ++k) {
    Eigen::VectorXd x(dim);
    for (int c = 0; c < dim; ++c) x(c) = rng.gaussian(0, 10);
    const Eigen::VectorXd diff = loss_gradient(d, loss, delta, x) - loss_gradient(n, loss, delta, x);
    // (1 + 1e-12: the test's own double evaluation of the two gradients rounds; the bounds are exact upper bounds)
    RC_ASSERT(diff.lpNorm<Eigen::Infinity>() <= b.sensitivity_linf * (1 + 1e-12));
    RC_ASSERT(diff.norm() <= b.sensitivity_l2 * (1 + 1e-12));
  }
}

TEST(SensitivityBounds, ValuesAreTheDomainsAndNearlyAttained) {
  // Rows e1 and (0.9, sqrt(0.19)), labels +1 / +1: in the unit-rows domain, b = 2.
  Dataset d;
  d.features.resize(2, 2);
  d.features << 1, 0, 0.9, std::sqrt(0.19);
  d.labels.resize(2);
  d.labels << 1, 1;
  const LossBounds b = loss_bounds(LossKind::logistic, {0.5, 0}, 1, DataDomain::unit_rows, 2, 2);
  EXPECT_EQ(b.sensitivity_linf, 1.0);                    // 2 * 1 * 1 / 2, exact
  EXPECT_GE(b.sensitivity_l2, 1.0);                      // 2 (1 + 1e-12) / 2, rounded up
  EXPECT_LE(b.sensitivity_l2, 1.0 + 1e-11);
  EXPECT_EQ(b.lipschitz_linf, 1.0);
  EXPECT_GE(b.smoothness, 0.25 + 0.5);
  EXPECT_LE(b.smoothness, 0.75 + 1e-11);
  EXPECT_EQ(b.strong_convexity, 0.5);
  Dataset n = d;  // the neighbour: row 0 replaced by (0.9, sqrt 0.19) with label -1
  n.labels(0) = -1;
  n.features.row(0) = d.features.row(1);
  // At x = (-M, K): row e1, y = +1 has loss' -> -1; the new row has margin -0.9M + 0.436K -> +inf, y' = -1,
  // loss' -> +1: coordinate 1 differs by ~ (1 + 0.9) / b.
  const Eigen::VectorXd x = (Eigen::VectorXd(2) << -40, 200).finished();
  const Eigen::VectorXd diff = loss_gradient(d, LossKind::logistic, 1, x) - loss_gradient(n, LossKind::logistic, 1, x);
  EXPECT_GT(diff.lpNorm<Eigen::Infinity>(), b.sensitivity_linf / 2 * 1.8);  // the one-sided 1/b is exceeded
  EXPECT_LE(diff.lpNorm<Eigen::Infinity>(), b.sensitivity_linf);
  // The unit cube: rows up to sqrt(d) long.
  const LossBounds cube = loss_bounds(LossKind::logistic, {}, 1, DataDomain::unit_cube, 9, 3);
  EXPECT_EQ(cube.sensitivity_l2, 2.0 * 3 / 3);
  EXPECT_GE(cube.sensitivity_linf, 2.0 / 3);  // rounded up
  EXPECT_LE(cube.sensitivity_linf, std::nextafter(2.0 / 3, 1.0));
  // Huber: sup |loss'| = delta whatever the labels; squared and hinge: no finite derivative or curvature bound.
  EXPECT_EQ(loss_bounds(LossKind::huber, {}, 0.25, DataDomain::unit_cube, 4, 1).sensitivity_l2, 2 * 0.25 * 2);
  EXPECT_EQ(loss_bounds(LossKind::squared, {}, 1, DataDomain::unit_rows, 2, 2).sensitivity_linf, HUGE_VAL);
  EXPECT_EQ(loss_bounds(LossKind::squared, {}, 1, DataDomain::unit_rows, 2, 2).sensitivity_l2, HUGE_VAL);
  EXPECT_EQ(loss_bounds(LossKind::hinge, {}, 1, DataDomain::unit_rows, 2, 2).smoothness, HUGE_VAL);
  // 2 C / b rounded up: 2 * 0.1 / 3 is not a double, the result is the double just above.
  const double c = clipped_mean_sensitivity(0.1, 3);
  EXPECT_GE(c, 2 * 0.1 / 3);
  EXPECT_LE(c, std::nextafter(2 * 0.1 / 3, 1.0));
}

TEST(SensitivityBounds, DataOutsideTheDomainAreRefused) {
  Dataset d;
  d.name = "d";
  d.features.resize(1, 2);
  d.labels.resize(1);
  d.features << 0.8, 0.8;  // norm 1.13
  d.labels << 1;
  testing::expect_input_error([&] { require_in_domain(d, DataDomain::unit_rows, LossKind::logistic, "d"); },
                              {"domain=unit-rows", "d row 1", "norm"});
  require_in_domain(d, DataDomain::unit_cube, LossKind::logistic, "d");
  d.features << 1.5, 0;
  testing::expect_input_error([&] { require_in_domain(d, DataDomain::unit_cube, LossKind::logistic, "d"); },
                              {"feature 1", "outside [0, 1]"});
  d.features << 1, 0;
  d.labels << 0.5;
  testing::expect_input_error([&] { require_in_domain(d, DataDomain::unit_rows, LossKind::hinge, "d"); },
                              {"label", "+-1"});
  require_in_domain(d, DataDomain::unit_rows, LossKind::huber, "d");  // regression labels are free
  testing::expect_input_error([] { (void)parse_data_domain("domain", "box"); }, {"domain=box", "unit-rows"});
  EXPECT_THROW((void)loss_bounds(LossKind::logistic, {}, 1, DataDomain::unit_rows, 2, 0), InputError);
  EXPECT_THROW((void)clipped_mean_sensitivity(0, 3), InputError);
}

}  // namespace
}  // namespace dpl::algorithms
