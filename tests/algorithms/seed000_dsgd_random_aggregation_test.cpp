// SPDX-License-Identifier: Apache-2.0
// Seed 000 Algorithm 2 (random groups, eq. (2.3)) and Algorithm 2* (min/max aggregation, (E.1)): convergence
// without noise, the group constraint N >= 2K, the single-step privacy of Algorithm 2 and its E9 conventions.
#include <gtest/gtest.h>

#include <cmath>

#include "accounting/errors.h"
#include "algorithms/seed000/dsgd_random_aggregation.h"
#include "algorithms/seed000/dsgd_random_aggregation_minmax.h"

using namespace dpl::algorithms;

TEST(DsgdRandomAggregation, SuboptimalityDecreasesWithoutNoise) {
  RunParameters p = RunParameters::from_assignments({"noise=off", "output=last"});
  const RunResult r = run_dsgd_random_aggregation(p, 3);
  ASSERT_EQ(r.trace.size(), 26u);
  const double first = r.trace.front().objective - r.optimum;
  const double last = r.trace.back().objective - r.optimum;
  EXPECT_GT(first, 0);
  EXPECT_LT(last, 1e-3 * first);
  EXPECT_LT(r.suboptimality, 1e-3 * first);
  // The ergodic average of Thm 3.2.1 also improves on the start.
  RunParameters q = RunParameters::from_assignments({"noise=off"});
  const RunResult e = run_dsgd_random_aggregation(q, 3);
  EXPECT_LT(e.suboptimality, 1e-2 * first);
}

TEST(DsgdRandomAggregation, NeedsTwoGroupsPerIteration) {
  RunParameters p = RunParameters::from_assignments({"agents=40", "K=21"});
  EXPECT_THROW(run_dsgd_random_aggregation(p, 1), dpl::InputError);
}

TEST(DsgdRandomAggregation, SingleStepPrivacyAndScalingConvention) {
  // 100 agents of 5 or 6 rows: the domain's bound is 2/5; b_inf = 1 is a larger declared bound.
  RunParameters p = RunParameters::from_assignments({"b_inf=1"});
  const RunResult r = run_dsgd_random_aggregation(p, 8);
  const int k = r.claimed["agent_step"].get<int>();
  ASSERT_GE(k, 1);
  // One release of d = 30 coordinates at step k: sum_l beta_k eta_k B_inf (no composition over K).
  const double worst = 30 * std::pow(1.02, k) * std::pow(0.95, k) * 1.0;
  EXPECT_NEAR(r.claimed["epsilon"].get<double>(), worst, 1e-12 * worst);
  EXPECT_EQ(r.claimed["releases"].get<int>(), 30);
  const double g = r.accounted["gamma"].get<double>();
  EXPECT_GT(g, 0);
  EXPECT_LE(g, 1);
  // The printed scaling multiplies the step and the sensitivity by N = 100: with eta0 = 0.01 the run is the same
  // and the sensitivity eta_k N B_inf equals the default's.
  RunParameters q = RunParameters::from_assignments({"b_inf=1", "scaling=printed", "eta0=0.01", "average_case=off"});
  const RunResult printed = run_dsgd_random_aggregation(q, 8);
  EXPECT_FALSE(printed.extra["diverged"].get<bool>());
  EXPECT_EQ(printed.claimed["agent_step"].get<int>(), k);  // same groups for the same seed
  EXPECT_NEAR(printed.claimed["epsilon"].get<double>(), worst, 1e-10 * worst);
  // With eta0 = 1 the printed scaling's steps eta_k N explode: stopped, flagged, no ledger.
  RunParameters bad = RunParameters::from_assignments({"scaling=printed"});
  const RunResult diverged = run_dsgd_random_aggregation(bad, 8);
  EXPECT_TRUE(diverged.extra["diverged"].get<bool>());
  EXPECT_LT(diverged.iterations, 25);
  EXPECT_EQ(diverged.accounted["epsilon"], "inf");
  EXPECT_FALSE(diverged.accounted.contains("expected_epsilon"));
  EXPECT_TRUE(diverged.mechanisms.empty());
}

TEST(DsgdRandomAggregationMinmax, SuboptimalityDecreasesWithoutNoise) {
  RunParameters p = RunParameters::from_assignments({"noise=off"});
  const RunResult r = run_dsgd_random_aggregation_minmax(p, 3);
  ASSERT_EQ(r.trace.size(), 101u);
  const double first = r.trace.front().objective - r.optimum;
  const double mid = r.trace[50].objective - r.optimum;
  const double last = r.trace.back().objective - r.optimum;
  EXPECT_LT(last, first / 5);
  EXPECT_LT(last, mid);
  EXPECT_LT(r.trace.back().consensus_error, 1e-4);
}

TEST(DsgdRandomAggregationMinmax, AverageNotAboveWorstWithNoise) {
  RunParameters p = RunParameters::from_assignments({"K=10", "b_inf=0.1", "beta0=1"});
  const RunResult r = run_dsgd_random_aggregation_minmax(p, 6);
  double worst = 0;
  for (int k = 1; k <= 10; ++k) worst += 30 * std::pow(1.02, k) * std::pow(0.93, k) * 0.1;
  EXPECT_NEAR(r.claimed["epsilon"].get<double>(), worst, 1e-12 * worst);
  const double g = r.accounted["gamma"].get<double>();
  EXPECT_GT(g, 0);
  EXPECT_LT(g, 1);
}
