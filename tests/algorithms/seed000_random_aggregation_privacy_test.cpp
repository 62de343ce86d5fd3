// SPDX-License-Identifier: Apache-2.0
// Seed 000 randomized-aggregation ledger: the closed-form gamma bound against the exact quadrature
// (accounting/gamma), with the small-shift limit gamma_0 as the twin that a bound check must reject, and the
// ledger's claimed/accounted figures on hand-made releases.
#include <gtest/gtest.h>

#include <cmath>

#include "accounting/errors.h"
#include "accounting/gamma/average_case_gamma.h"
#include "algorithms/seed000/random_aggregation_privacy.h"

using namespace dpl::algorithms;

TEST(GammaClosedFormBound, AboveExactAndTight) {
  for (double e : {0.001, 0.005, 0.02, 0.1, 0.5})
    for (double u : {0.05, 0.3, 1.0, 1.3, 3.0, 10.0, 50.0}) {
      if (u < 2 * e) continue;
      const dpl::GammaResult r = dpl::average_case_gamma(u, 1.0, e);
      const double exact = (r.gamma + abs(r.quadrature_error)).convert_to<double>();
      const double bound = gamma_closed_form_bound(u, e);
      EXPECT_GE(bound, exact) << "u " << u << " e " << e;
      EXPECT_LE(bound, std::min(1.0, exact * (1 + 0.5 * e) + 1e-12)) << "u " << u << " e " << e;
    }
  EXPECT_EQ(gamma_closed_form_bound(0.01, 0.01), 1.0);  // outside u >= 2e: the trivial bound
}

TEST(GammaClosedFormBound, SmallShiftLimitIsNotABound) {
  // Twin: gamma_0 = 2(1 - e^{-u/2})/u (the e -> 0 limit) lies below the exact gamma, so the same check rejects it.
  int below = 0;
  for (double u : {0.3, 1.0, 3.0}) {
    const dpl::GammaResult r = dpl::average_case_gamma(u, 1.0, 0.02);
    if (r.small_shift.convert_to<double>() < r.gamma.convert_to<double>()) ++below;
  }
  EXPECT_EQ(below, 3);
}

TEST(AggregationLedger, HandMadeReleases) {
  // Two steps, two coordinates; one with omega = 0 (fixed aggregation).
  std::vector<AggregatedRelease> rel = {{1, 0.3, 0.0, 0.5, 2.0, 0.001},
                                        {1, 0.7, 0.2, 0.2, 2.0, 0.001},
                                        {2, -1.0, -0.5, 0.5, 4.0, 0.001},
                                        {2, 2.0, 1.0, 1.0, 4.0, 0.001}};
  for (GammaMethod m : {GammaMethod::exact, GammaMethod::automatic}) {
    const AggregationLedger l = account_random_aggregation(rel, true, m);
    const double worst = 2 * 2.0 * 0.001 + 2 * 4.0 * 0.001;
    EXPECT_NEAR(l.claimed["epsilon"].get<double>(), worst, 1e-15);
    EXPECT_GE(l.accounted["epsilon"].get<double>(), worst * (1 - 1e-15));
    EXPECT_LE(l.accounted["epsilon"].get<double>(), worst * (1 + 1e-12));
    const double expected = l.accounted["expected_epsilon"].get<double>();
    const double g1 = dpl::average_case_gamma(0.5, 2.0, 0.001).gamma.convert_to<double>();
    const double g3 = dpl::average_case_gamma(1.0, 4.0, 0.001).gamma.convert_to<double>();
    const double exact_expected = 2.0 * 0.001 * (g1 + 1) + 4.0 * 0.001 * (g3 + 1);
    EXPECT_GE(expected, exact_expected * (1 - 1e-12));
    EXPECT_LE(expected, exact_expected * (1 + 1e-3));
    EXPECT_LE(l.accounted["realised_epsilon"].get<double>(), worst);
    // Claimed average: eq. (2.6) (accounting/gamma's 200-bit value) where omega > s, else 1.
    const double t1 = dpl::average_case_gamma(0.5, 2.0, 0.001).thesis_bound.convert_to<double>();
    const double t3 = dpl::average_case_gamma(1.0, 4.0, 0.001).thesis_bound.convert_to<double>();
    EXPECT_NEAR(l.claimed["average_epsilon"].get<double>(), 2.0 * 0.001 * (t1 + 1) + 4.0 * 0.001 * (t3 + 1), 1e-13);
    EXPECT_EQ(l.curves["worst"].size(), 2u);
  }
  EXPECT_THROW(parse_gamma_method("gamma", "fast"), dpl::InputError);
}
