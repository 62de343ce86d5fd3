// SPDX-License-Identifier: Apache-2.0
// The threshold test on hand-made counts: event bounds, the choice on the selection half only, verdicts.
#include "audit/threshold_test.h"

#include "accounting/errors.h"
#include "audit/clopper_pearson.h"

#include <gtest/gtest.h>

#include <cmath>

namespace dpl::audit {
namespace {

TEST(EventBounds, EpsilonAndMu) {
  EXPECT_DOUBLE_EQ(epsilon_of_event(0.5, 0.5 * std::exp(-1.0), 0), 1.0);
  EXPECT_NEAR(epsilon_of_event(0.5, 0.1, 0.1), std::log(4.0), 1e-15);
  EXPECT_EQ(epsilon_of_event(0.1, 0.01, 0.1), -INFINITY);
  // N(0,1) vs N(1,1), event {x <= 0}: Phi(0) = 1/2, Phi(-1) = 0.158655253931457: mu = 1.
  EXPECT_NEAR(mu_of_event(0.5, 0.158655253931457), 1.0, 1e-12);
  EXPECT_EQ(mu_of_event(0, 0.1), -INFINITY);
}

// Counts with one threshold (two bins): `a` of n in bin 0 on D, `b` of n on D'.
ThresholdCounts two_bins(std::uint64_t sel_a, std::uint64_t sel_b, std::uint64_t a, std::uint64_t b, std::uint64_t n) {
  ThresholdCounts c({0.0});
  c.counts[kSelection][kD] = {sel_a, n - sel_a};
  c.counts[kSelection][kDPrime] = {sel_b, n - sel_b};
  c.counts[kEstimation][kD] = {a, n - a};
  c.counts[kEstimation][kDPrime] = {b, n - b};
  return c;
}

TEST(ThresholdTest, BoundsComeFromTheEstimationHalf) {
  const std::uint64_t n = 1000000;
  const auto c = two_bins(500000, 183940, 500000, 183940, n);
  const AuditResult r = threshold_test(c, AuditClaim{1.0, 0, {}}, 0.95, 0.1);
  EXPECT_TRUE(r.event.left_tail);
  EXPECT_TRUE(r.event.d_first);
  EXPECT_DOUBLE_EQ(r.p_lower, clopper_pearson_lower(500000, n, 0.025));
  EXPECT_DOUBLE_EQ(r.q_upper, clopper_pearson_upper(183940, n, 0.025));
  EXPECT_NEAR(r.epsilon_lower, std::log(r.p_lower / r.q_upper), 1e-11);
  EXPECT_LE(r.epsilon_lower, std::log(r.p_lower / r.q_upper));
  EXPECT_GT(r.epsilon_lower, 0.99);
  EXPECT_LT(r.epsilon_lower, 1.0);
  EXPECT_EQ(r.verdict, Verdict::pass);
  EXPECT_EQ(exit_code(r.verdict), 0);
}

TEST(ThresholdTest, ViolationAndInconclusive) {
  const std::uint64_t n = 1000000;
  // true ratio e^2 against a claim of 1
  const auto c = two_bins(500000, 67668, 500000, 67668, n);
  const AuditResult v = threshold_test(c, AuditClaim{1.0, 0, {}}, 0.95, 0.1);
  EXPECT_EQ(v.verdict, Verdict::violation);
  EXPECT_EQ(exit_code(v.verdict), 3);
  // 20 samples: too few to resolve 0.1
  const auto s = two_bins(10, 4, 10, 4, 20);
  const AuditResult i = threshold_test(s, AuditClaim{1.0, 0, {}}, 0.95, 0.1);
  EXPECT_EQ(i.verdict, Verdict::inconclusive);
  EXPECT_EQ(exit_code(i.verdict), 4);
  EXPECT_GT(i.detectable, 1.1);
}

TEST(ThresholdTest, SelectionHalfAloneChoosesTheEvent) {
  // The selection half says the right tail is likelier under D; the estimation half disagrees. The event stays
  // the selection's choice (whatever the estimation half shows), so its bounds keep their coverage.
  ThresholdCounts c = two_bins(100, 900, 900, 100, 1000);
  const AuditResult r = threshold_test(c, AuditClaim{1.0, 0, {}}, 0.95, 0.1);
  EXPECT_FALSE(r.event.d_first ? r.event.left_tail : !r.event.left_tail);
  EXPECT_LT(r.epsilon_lower, 0);
}

TEST(ThresholdTest, RejectsEmptyHalvesAndBadConfidence) {
  EXPECT_THROW(threshold_test(two_bins(0, 0, 0, 0, 0), AuditClaim{1, 0, {}}, 0.95, 0.1), InputError);
  const auto c = two_bins(5, 5, 5, 5, 10);
  EXPECT_THROW(threshold_test(c, AuditClaim{1, 0, {}}, 1.0, 0.1), InputError);
  EXPECT_THROW(threshold_test(c, AuditClaim{1, 0, {}}, 0.0, 0.1), InputError);
}

}  // namespace
}  // namespace dpl::audit
