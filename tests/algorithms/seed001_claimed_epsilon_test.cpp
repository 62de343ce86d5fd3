// SPDX-License-Identifier: Apache-2.0
// Seed 001 (Wang-Nedic) Theorem 2: the paper's claimed epsilon with a certified infinite tail, the calibration
// of nu (Theorem 2(2)) and Phi = zeta(1.3) (Theorem 2(3)). Golden values: notes sec. 3.4 (mpmath, 30 digits).
#include "accounting/errors.h"
#include "algorithms/seed001/claimed_epsilon.h"
#include "algorithms/seed001/ratio_series.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

using namespace dpl;
using namespace dpl::algorithms::seed001;

namespace {
void expect_encloses(const Interval& x, double value, double tol) {
  EXPECT_LE(lo_down(x), value + tol);
  EXPECT_GE(hi_up(x), value - tol);
}
}  // namespace

TEST(Seed001ClaimedEpsilon, SimulationScheduleInfiniteHorizonGolden) {
  const ClaimedEpsilon e1 = paper_epsilon(simulation_lambda(), simulation_nu(), 1, 1, kInfiniteHorizon);
  ASSERT_FALSE(e1.infinite);
  EXPECT_NEAR(mid_double(e1.epsilon), 2.40074603728, 1e-10);
  EXPECT_LT(mid_double(width(e1.epsilon)), 1e-10);  // the enclosure is narrower than the tolerance
  expect_encloses(e1.epsilon, 2.40074603728, 1e-10);
  const ClaimedEpsilon e0 = paper_epsilon(simulation_lambda(), simulation_nu(), 1, 0, kInfiniteHorizon);
  EXPECT_NEAR(mid_double(e0.epsilon), 2.44074603728, 1e-10);
  EXPECT_LT(mid_double(width(e0.epsilon)), 1e-10);
  // Linear in C.
  const ClaimedEpsilon e3 = paper_epsilon(simulation_lambda(), simulation_nu(), 3, 1, kInfiniteHorizon);
  EXPECT_NEAR(mid_double(e3.epsilon), 3 * 2.40074603728, 3e-10);
}

TEST(Seed001ClaimedEpsilon, SimulationSchedulePartialSums) {
  const std::int64_t T[] = {100, 1000, 10000, 100000, 1000000, 10000000};
  const double golden[] = {0.75183, 1.31626, 1.74866, 2.03439, 2.20459, 2.29883};
  for (int i = 0; i < 6; ++i) {
    const ClaimedEpsilon e = paper_epsilon(simulation_lambda(), simulation_nu(), 1, 1, T[i]);
    EXPECT_NEAR(mid_double(e.epsilon), golden[i], 6e-6) << "T = " << T[i];
    EXPECT_LT(mid_double(width(e.epsilon)), 1e-12);
  }
  // A naive truncated sum at T = 1e6 is >= 8% below the infinite-horizon value (regression for tail handling).
  double naive = 0;
  for (int k = 1; k <= 1000000; ++k) naive += 2 * simulation_lambda().at(k) / simulation_nu().at(k);
  EXPECT_LT(naive, 0.92 * 2.40074603728);
  EXPECT_NEAR(naive, 2.20459, 1e-5);
}

TEST(Seed001ClaimedEpsilon, TailMethodAgainstKnownZetaValues) {
  // zeta(2) = pi^2/6 and zeta(3) (Apery): the same tail machinery, independent closed forms.
  const SeriesEnclosure z2 = certified_ratio_sum(theorem2_lambda(), power_schedule(1, 1), 1, kInfiniteHorizon);
  expect_encloses(z2.value, M_PI * M_PI / 6, 1e-15);
  EXPECT_LT(mid_double(width(z2.value)), 1e-20);
  const SeriesEnclosure z3 = certified_ratio_sum(power_schedule(1, -2), power_schedule(1, 1), 1, kInfiniteHorizon);
  expect_encloses(z3.value, 1.2020569031595942, 1e-15);
  // A wrong tail would be caught: the infinite value differs from the head to 10^4 by ~ 1/(2 10^8) for zeta(3).
  const SeriesEnclosure h3 = certified_ratio_sum(power_schedule(1, -2), power_schedule(1, 1), 1, 10000);
  EXPECT_TRUE(certainly_gt(z3.value, h3.value));
  EXPECT_NEAR(mid_double(z3.value - h3.value), 0.5e-8, 1e-11);
}

TEST(Seed001ClaimedEpsilon, Theorem2Part3) {
  const Interval phi = theorem2_phi();
  expect_encloses(phi, 3.93194921180954, 1e-14);
  EXPECT_LT(mid_double(width(phi)), 1e-20);
  EXPECT_NEAR(mid_double(phi), 3.93, 0.002);  // the paper's "approximately 3.93"
  // With nu = (2C Phi/eps) k^0.3 the paper's formula gives eps exactly (coefficients rounded up: <= eps).
  for (double C : {1.0, 2.5}) {
    for (double eps : {0.1, 1.0}) {
      const StepSchedule nu = theorem2_nu(C, eps);
      const ClaimedEpsilon e = paper_epsilon(theorem2_lambda(), nu, C, 1, kInfiniteHorizon);
      EXPECT_LE(hi_up(e.epsilon), eps);
      EXPECT_GE(lo_down(e.epsilon), eps * (1 - 1e-14));
    }
  }
  // eps(T)/eps = 1 - zeta(1.3, T+1)/zeta(1.3) (notes sec. 3.4).
  const StepSchedule nu = theorem2_nu(1, 1);
  const std::int64_t T[] = {100, 1000, 10000, 100000, 1000000};
  const double fraction[] = {0.7874, 0.8933, 0.9465, 0.9732, 0.9866};
  for (int i = 0; i < 5; ++i)
    EXPECT_NEAR(mid_double(paper_epsilon(theorem2_lambda(), nu, 1, 1, T[i]).epsilon), fraction[i], 6e-5);
}

TEST(Seed001ClaimedEpsilon, DivergenceIsReportedAsInfinity) {
  // u + w = 1 + 0 <= 1: constant noise with lambda = 1/k.
  const ClaimedEpsilon e = paper_epsilon(theorem2_lambda(), affine_schedule(1, 0, 0), 1, 1, kInfiniteHorizon);
  EXPECT_TRUE(e.infinite);
  EXPECT_FALSE(is_finite(e.epsilon));
  EXPECT_EQ(to_json(e)["epsilon"], "inf");
  // u + w = 0.5 + 0.4 < 1.
  EXPECT_TRUE(paper_epsilon(power_schedule(1, -0.5), power_schedule(1, 0.4), 1, 1, kInfiniteHorizon).infinite);
  // ... while finite horizons of the same are finite.
  const ClaimedEpsilon h = paper_epsilon(theorem2_lambda(), affine_schedule(1, 0, 0), 1, 1, 100000);
  EXPECT_FALSE(h.infinite);
  expect_encloses(h.epsilon, 2 * 12.090146129863428, 1e-13);  // 2 H_{100000} (finite-range Euler-Maclaurin)
  EXPECT_LT(mid_double(width(h.epsilon)), 1e-20);
  EXPECT_THROW(calibrate_nu(theorem2_lambda(), affine_schedule(1, 0, 0), 1, 1), NotApplicable);
  EXPECT_THROW(paper_epsilon(simulation_lambda(), simulation_nu(), 0, 1, 10), InputError);
  EXPECT_THROW(paper_epsilon(simulation_lambda(), simulation_nu(), 1, 5, 4), InputError);
  // No certified tail for a non-completely-monotone ratio (lambda = 1/(1 + k^2) has c > 1): said, not guessed.
  EXPECT_THROW(paper_epsilon(ratio_schedule(1, 1, 2), simulation_nu(), 1, 1, kInfiniteHorizon), NotApplicable);
}

namespace {
// Random schedules in the supported families with a small cut-off (cheap): lambda = a/(1 + b k^c), nu = a' + b' k^c'.
struct Pair {
  StepSchedule lambda, nu;
};
Pair random_pair(bool convergent) {
  const double la = *rc::gen::inRange(1, 101) / 100.0;
  const double lb = *rc::gen::inRange(50, 201) / 100.0;
  const double lc = *rc::gen::inRange(60, 101) / 100.0;
  const double na = *rc::gen::inRange(10, 101) / 100.0;
  const double nb = *rc::gen::inRange(100, 201) / 100.0;
  const int lo = convergent ? static_cast<int>(std::ceil((1.05 - lc) * 100)) : 30;
  const double nc = *rc::gen::inRange(std::max(lo, 30), 101) / 100.0;
  return {ratio_schedule(la, lb, lc), affine_schedule(na, nb, nc)};
}
}  // namespace

RC_GTEST_PROP(Seed001ClaimedEpsilon, MonotoneInTAndLinearInC, ()) {
  const Pair p = random_pair(false);
  const std::int64_t k0 = *rc::gen::inRange(0, 3);
  const std::int64_t t1 = *rc::gen::inRange<std::int64_t>(k0, 3000);
  const std::int64_t t2 = t1 + *rc::gen::inRange<std::int64_t>(1, 3000);
  const double C = *rc::gen::inRange(1, 1000) / 100.0;
  const ClaimedEpsilon e1 = paper_epsilon(p.lambda, p.nu, C, k0, t1);
  const ClaimedEpsilon e2 = paper_epsilon(p.lambda, p.nu, C, k0, t2);
  RC_ASSERT(certainly_lt(e1.epsilon, e2.epsilon));
  const ClaimedEpsilon unit = paper_epsilon(p.lambda, p.nu, 1, k0, t2);
  const Interval diff = e2.epsilon - exact(C) * unit.epsilon;
  RC_ASSERT(std::abs(mid_double(diff)) <= 1e-25 * mid_double(e2.epsilon));
  // The infinite horizon (when convergent) is above every finite one.
  if (p.nu.c + p.lambda.c > 1.0) {
    const ClaimedEpsilon inf = paper_epsilon(p.lambda, p.nu, C, k0, kInfiniteHorizon);
    RC_ASSERT(certainly_gt(inf.epsilon, e2.epsilon));
  }
}

RC_GTEST_PROP(Seed001ClaimedEpsilon, CalibrationRoundTrip, ()) {
  const Pair p = random_pair(true);
  const double C = *rc::gen::inRange(1, 500) / 100.0;
  const double target = *rc::gen::inRange(1, 1000) / 100.0;
  const NuCalibration cal = calibrate_nu(p.lambda, p.nu, C, target, 1);
  const ClaimedEpsilon e = paper_epsilon(p.lambda, cal.nu, C, 1, kInfiniteHorizon);
  RC_ASSERT(!e.infinite);
  RC_ASSERT(hi_up(e.epsilon) <= target);                   // within the target, certified
  RC_ASSERT(lo_down(e.epsilon) >= target * (1 - 1e-13));   // and equal to it up to the rounding of nu
  RC_ASSERT(mid_double(width(cal.phi)) < 1e-20 * mid_double(cal.phi));
}
