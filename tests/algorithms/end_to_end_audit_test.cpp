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
