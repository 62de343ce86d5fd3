// SPDX-License-Identifier: Apache-2.0
// Seed 001 (Wang-Nedic): the corrected, accumulated-sensitivity accountant (notes sec. 3.5). Golden values: the
// notes' table, re-derived independently in plain Python floats (recursion s^{k+1} = |1 - gamma^k a| s^k +
// 2 lambda^k, eps = Sum_{k=2}^{T+1} s^k/nu^k, k0 = 1): printed to 6 decimals below.
#include "accounting/errors.h"
#include "algorithms/seed001/accumulated_sensitivity.h"
#include "algorithms/seed001/claimed_epsilon.h"
#include "algorithms/seed001/ratio_series.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

using namespace dpl;
using namespace dpl::algorithms::seed001;

TEST(Seed001AccumulatedSensitivity, Theorem2Part3TableClaimedEpsOne) {
  const StepSchedule nu = theorem2_nu(1, 1);  // (2 Phi) k^0.3: the paper claims eps = 1 at every T
  const std::int64_t T[] = {10, 100, 1000};
  const double a[] = {0.25, 0.5, 1.0};
  const double golden[3][3] = {{2.569612, 19.732645, 107.033598},
                               {2.065117, 12.591859, 57.362141},
                               {1.393927, 6.714668, 27.941646}};
  for (int i = 0; i < 3; ++i) {
    for (int t = 0; t < 3; ++t) {
      const AccumulatedEpsilon e = accumulated_epsilon(theorem2_lambda(), theorem2_gamma(), nu, 1, {a[i]}, 1, T[t]);
      EXPECT_NEAR(mid_double(e.epsilon), golden[i][t], 2e-6) << "a = " << a[i] << ", T = " << T[t];
      EXPECT_LT(mid_double(width(e.epsilon)), 1e-30);
      // ... far above the paper's claim (<= 1) from T = 10 on.
      EXPECT_TRUE(certainly_gt(e.epsilon, paper_epsilon(theorem2_lambda(), nu, 1, 1, T[t]).epsilon));
    }
  }
  // The worst agent is the one with the smallest |w_ii|; the maximum over agents picks it.
  const AccumulatedEpsilon all =
      accumulated_epsilon(theorem2_lambda(), theorem2_gamma(), nu, 1, {1.0, 0.25, 0.5}, 1, 100);
  EXPECT_DOUBLE_EQ(all.worst_a, 0.25);
  EXPECT_NEAR(mid_double(all.epsilon), 19.732645, 2e-6);
}

TEST(Seed001AccumulatedSensitivity, SimulationScheduleTable) {
  const std::int64_t T[] = {10, 100, 1000, 10000};
  const double golden[] = {0.321361, 2.347459, 14.600304, 83.803371};  // a = 1, C = 1
  for (int t = 0; t < 4; ++t) {
    const AccumulatedEpsilon e =
        accumulated_epsilon(simulation_lambda(), simulation_gamma(), simulation_nu(), 1, {1.0}, 1, T[t]);
    EXPECT_NEAR(mid_double(e.epsilon), golden[t], 2e-6) << "T = " << T[t];
  }
  // Linear in C.
  const AccumulatedEpsilon e2 =
      accumulated_epsilon(simulation_lambda(), simulation_gamma(), simulation_nu(), 2, {1.0}, 1, 100);
  EXPECT_NEAR(mid_double(e2.epsilon), 2 * 2.347459, 4e-6);
}

TEST(Seed001AccumulatedSensitivity, InfiniteHorizonDivergesHonestly) {
  // u - v + w = 1 - 0.9 + 0.3 = 0.4 <= 1: infinite, and said so.
  const AccumulatedEpsilon e = accumulated_epsilon(simulation_lambda(), simulation_gamma(), simulation_nu(), 1,
                                                   {0.5}, 1, kInfiniteHorizon);
  EXPECT_TRUE(e.infinite);
  EXPECT_FALSE(is_finite(e.epsilon));
  EXPECT_EQ(to_json(e)["epsilon"], "inf");
  // The paper's own formula is finite for the same schedules.
  EXPECT_FALSE(paper_epsilon(simulation_lambda(), simulation_nu(), 1, 1, kInfiniteHorizon).infinite);
  // u - v + w > 1 (may converge): no fake number, NotApplicable.
  EXPECT_THROW(accumulated_epsilon(theorem2_lambda(), power_schedule(1, -0.1), power_schedule(1, 0.5), 1, {0.5}, 1,
                                   kInfiniteHorizon),
               NotApplicable);
  EXPECT_THROW(accumulated_epsilon(simulation_lambda(), simulation_gamma(), simulation_nu(), 1, {}, 1, 10), InputError);
  EXPECT_THROW(accumulated_epsilon(simulation_lambda(), simulation_gamma(), simulation_nu(), 1, {0.0}, 1, 10),
               InputError);
}

TEST(Seed001AccumulatedSensitivity, ClosedFormOfTheRecursion) {
  // s^{k+1} = 2C Sum_{t=k0}^{k} lambda^t Prod_{r=t+1}^{k} |1 - gamma^r a| (notes sec. 3.5), in doubles.
  const auto s = accumulated_sensitivity(simulation_lambda(), simulation_gamma(), 1.5, 0.4, 1, 60);
  for (std::int64_t k = 1; k < 60; ++k) {
    double closed = 0;
    for (std::int64_t t = 1; t <= k; ++t) {
      double prod = 1;
      for (std::int64_t r = t + 1; r <= k; ++r) prod *= std::abs(1 - simulation_gamma().at(r) * 0.4);
      closed += 2 * 1.5 * simulation_lambda().at(t) * prod;
    }
    EXPECT_NEAR(mid_double(s[k]), closed, 1e-14 * closed) << k;  // s[k] = s^{k0 + k} = s^{k+1}
  }
}

// s^{k+1} >= 2 C lambda^k (the paper's per-step value is only the last term), and s is non-increasing in a.
RC_GTEST_PROP(Seed001AccumulatedSensitivity, AtLeastThePapersSensitivity, ()) {
  const double C = *rc::gen::inRange(1, 500) / 100.0;
  const double a = *rc::gen::inRange(1, 101) / 100.0;
  const double u = *rc::gen::inRange(50, 101) / 100.0;
  const double v = *rc::gen::inRange(10, 101) / 100.0;
  const std::int64_t k0 = *rc::gen::inRange(1, 4);
  const std::int64_t last = k0 + *rc::gen::inRange(1, 150);
  const StepSchedule lambda = power_schedule(*rc::gen::inRange(1, 100) / 100.0, -u);
  const StepSchedule gamma = power_schedule(1, -v);
  const auto s = accumulated_sensitivity(lambda, gamma, C, a, k0, last);
  const auto s_more = accumulated_sensitivity(lambda, gamma, C, std::min(1.0, a + 0.1), k0, last);
  RC_ASSERT(lo(s[0]) == 0 && hi(s[0]) == 0);
  bool strictly_above_somewhere = false;
  for (std::int64_t k = k0; k < last; ++k) {
    const auto n = static_cast<std::size_t>(k - k0 + 1);
    const Interval paper = 2 * exact(C) * lambda.enclose(k);
    RC_ASSERT(certainly_ge(s[n], paper) || (lo(s[n]) == lo(paper) && hi(s[n]) == hi(paper)));
    if (certainly_gt(s[n], paper)) strictly_above_somewhere = true;
    RC_ASSERT(!certainly_lt(s[n], s_more[n]));
  }
  // From the second step on the accumulation is strict whenever gamma^k a < 1 somewhere before.
  if (last >= k0 + 2) RC_ASSERT(strictly_above_somewhere);
}
