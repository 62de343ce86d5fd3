// SPDX-License-Identifier: Apache-2.0
// The end-to-end audit context (algorithms/run/end_to_end_audit.h): its statistic is the claimed density's
// log-likelihood ratio of the released value (golden values from the Gaussian density written out), the D' run's
// is the same function, the claim's cap is respected, and the context is set only inside its scope.
#include "algorithms/run/end_to_end_audit.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

namespace dpl::algorithms {
namespace {

double gaussian_log_density(double y, double m, double sd) {
  return -(y - m) * (y - m) / (2 * sd * sd) - std::log(sd * std::sqrt(2 * M_PI));
}

RC_GTEST_PROP(EndToEndAudit, StatisticIsTheClaimedDensitysLogRatio, ()) {
  const double y = *rc::gen::inRange(-3000, 3000) / 1000.0, md = *rc::gen::inRange(-2000, 2000) / 1000.0,
               mdp = *rc::gen::inRange(-2000, 2000) / 1000.0, sd = *rc::gen::inRange(100, 3000) / 1000.0;
  EndToEndAudit a(true, {});
  a.release_gaussian(&y, &md, &mdp, 1, sd);
  RC_ASSERT(std::fabs(a.statistic() - (gaussian_log_density(y, md, sd) - gaussian_log_density(y, mdp, sd))) < 1e-9);
  // The residual of the run's own data set is the noise check's draw.
  RC_ASSERT(std::fabs(a.noise_energy() - (y - md) * (y - md) / (sd * sd)) < 1e-9);
  EndToEndAudit b(false, {});
  b.release_gaussian(&y, &md, &mdp, 1, sd);
  RC_ASSERT(std::fabs(b.statistic() - a.statistic()) < 1e-12);
  RC_ASSERT(std::fabs(b.noise_energy() - (y - mdp) * (y - mdp) / (sd * sd)) < 1e-9);
}

// The increments statistic (golden values written out): successive residuals r = y - m_D and r' = y - m_D' give
// (||r'_2 - r'_1||^2 - ||r_2 - r_1||^2) / 4 sd^2; a subsampled release ||r'_2 - r'_1||^2 / 4 sd^2; the first release
// and a release of another dimension add nothing.
TEST(EndToEndAudit, IncrementsStatisticOfSuccessiveResiduals) {
  const double sd = 0.5;
  const double y1 = 1.0, md1 = 0.2, mdp1 = -0.2, y2 = 1.3, md2 = 0.1, mdp2 = -0.4;
  EndToEndAudit a(true, {});
  a.release_gaussian(&y1, &md1, &mdp1, 1, sd);
  EXPECT_EQ(a.increments(), 0);
  a.release_gaussian(&y2, &md2, &mdp2, 1, sd);
  const double dr = (y2 - md2) - (y1 - md1), drp = (y2 - mdp2) - (y1 - mdp1);  // 0.4 and 0.5
  EXPECT_NEAR(a.increments(), (drp * drp - dr * dr) / (4 * sd * sd), 1e-15);
  EXPECT_NEAR(a.increments(), (0.25 - 0.16) / 1.0, 1e-15);
  EndToEndAudit sampled(false, {});
  sampled.release_gaussian(&y1, &md1, &mdp1, 1, sd, 0.5);
  sampled.release_gaussian(&y2, &md2, &mdp2, 1, sd, 0.5);
  EXPECT_NEAR(sampled.increments(), 0.25, 1e-15);
  const double y3[2] = {0, 0}, m3[2] = {1, 1};
  sampled.release_gaussian(y3, m3, m3, 2, sd, 0.5);
  EXPECT_NEAR(sampled.increments(), 0.25, 1e-15);
}

// With one draw reused, the residual increments of the run's own data set are exactly 0: on D' the subsampled
// statistic is 0 whatever the draw (its power against reuse-noise).
RC_GTEST_PROP(EndToEndAudit, ReusedDrawLeavesNoIncrements, ()) {
  const double n = *rc::gen::inRange(-3000, 3000) / 1000.0;
  EndToEndAudit b(false, {});
  for (int k = 0; k < 5; ++k) {
    const double mdp = 0.1 * k, md = mdp + (k % 2 ? 1.0 : 0.0), y = mdp + n;
    b.release_gaussian(&y, &md, &mdp, 1, 0.7, 0.5);
  }
  RC_ASSERT(std::fabs(b.increments()) < 1e-24);
}

TEST(EndToEndAudit, SubsampledReleaseIsTheMixturesLogRatio) {
  const double y[2] = {0.7, -0.2}, md[2] = {1.0, 0.0}, mdp[2] = {0.0, 0.0}, sd = 0.8, q = 0.3;
  EndToEndAudit a(true, {});
  a.release_gaussian(y, md, mdp, 2, sd, q);
  auto density = [&](const double* m) {
    return std::exp(gaussian_log_density(y[0], m[0], sd) + gaussian_log_density(y[1], m[1], sd));
  };
  EXPECT_NEAR(a.statistic(), std::log(((1 - q) * density(mdp) + q * density(md)) / density(mdp)), 1e-12);
  EXPECT_EQ(a.draws(), 0u);  // a subsampled run reports its draws itself
}

TEST(EndToEndAudit, ReleasesPastTheCapAreNotCounted) {
  EndToEndAudit a(true, {}, 2);
  const double y = 1, m = 0.5, mp = 0;
  for (int i = 0; i < 5; ++i) a.release_gaussian(&y, &m, &mp, 1, 1);
  EXPECT_EQ(a.releases(), 2u);
  EXPECT_NEAR(a.statistic(), 2 * (0.5 - 0.125), 1e-12);
}

TEST(EndToEndAudit, ContextIsSetOnlyInsideItsScope) {
  EXPECT_EQ(end_to_end_audit(), nullptr);
  EndToEndAudit a(true, {});
  {
    EndToEndAuditScope scope(&a);
    EXPECT_EQ(end_to_end_audit(), &a);
  }
  EXPECT_EQ(end_to_end_audit(), nullptr);
}

}  // namespace
}  // namespace dpl::algorithms
