// SPDX-License-Identifier: Apache-2.0
// Seed 000 Algorithm 1 (random-aggregation linearised ADMM): convergence without noise, the dual-sign erratum
// (E4), gamma = 1 with fixed weights, the thesis's worst-case total (PC-10) and average < worst with noise.
#include <gtest/gtest.h>

#include <cmath>

#include "accounting/errors.h"
#include "algorithms/seed000/admm_random_aggregation.h"
#include "algorithms/seed000/random_aggregation_privacy.h"

using namespace dpl::algorithms;

namespace {
double max_abs_state(const TraceStep& t) { return t.states.cwiseAbs().maxCoeff(); }
}  // namespace

TEST(AdmmRandomAggregation, ConvergesWithoutNoise) {
  RunParameters p = RunParameters::from_assignments({"noise=off"});
  const RunResult r = run_admm_random_aggregation(p, 11);
  EXPECT_EQ(r.iterations, 100);
  EXPECT_LT(r.suboptimality, 1e-6);
  EXPECT_GE(r.suboptimality, -1e-9);
  EXPECT_LT(r.trace.back().consensus_error, 1e-8);
  EXPECT_FALSE(r.extra["diverged"].get<bool>());
}

TEST(AdmmRandomAggregation, ElasticNetUsesTheL1Subgradient) {
  // With l1 > 0 the iteration must optimise the whole objective (the l1 part as l1 sign(x)); a run that used the
  // smooth gradient only would stop at the l2 optimum, 1.4e-4 above the elastic-net optimum here.
  RunParameters p = RunParameters::from_assignments({"noise=off", "l1=0.001", "K=2000"});
  const RunResult r = run_admm_random_aggregation(p, 11);
  EXPECT_LT(r.suboptimality, 1e-5);
  EXPECT_GE(r.suboptimality, -1e-9);
}

TEST(AdmmRandomAggregation, PrintedDualSignDivergesCorrectedConverges) {
  RunParameters printed = RunParameters::from_assignments({"noise=off", "K=40", "dual_sign=printed"});
  const RunResult bad = run_admm_random_aggregation(printed, 5);
  RunParameters corrected = RunParameters::from_assignments({"noise=off", "K=40"});
  const RunResult good = run_admm_random_aggregation(corrected, 5);
  const double start = max_abs_state(bad.trace.front());
  EXPECT_TRUE(bad.extra["diverged"].get<bool>() || max_abs_state(bad.trace.back()) > 1e3 * start);
  EXPECT_GT(bad.trace.back().consensus_error, 1e3 * bad.trace.front().consensus_error);
  EXPECT_LT(max_abs_state(good.trace.back()), start);
  EXPECT_LT(good.trace.back().consensus_error, 1e-3 * good.trace.front().consensus_error);
}

TEST(AdmmRandomAggregation, FixedWeightsGiveGammaOne) {
  // r = 1/2: the aggregate is a point (omega = 0), i.e. the Laplace mechanism: average == worst (PC-9).
  RunParameters p = RunParameters::from_assignments({"K=20", "random_weights=off", "beta0=1"});
  const RunResult r = run_admm_random_aggregation(p, 2);
  EXPECT_EQ(r.accounted["gamma"].get<double>(), 1.0);
  EXPECT_EQ(r.accounted["expected_epsilon"].get<double>(), r.accounted["epsilon"].get<double>());
  EXPECT_EQ(r.claimed["gamma"].get<double>(), 1.0);
  EXPECT_NEAR(r.accounted["realised_epsilon"].get<double>(), r.claimed["epsilon"].get<double>(),
              1e-12 * r.claimed["epsilon"].get<double>());
}

TEST(AdmmRandomAggregation, WorstCaseTotalOfExampleA) {
  // PC-10: 0.014 sum_{k=1}^{100} 1.02^k = 4.45867732843 (d = 14, s = B_inf/D = 0.01/10).
  std::vector<double> betas;
  for (int k = 1; k <= 100; ++k) betas.push_back(std::pow(1.02, k));
  EXPECT_NEAR(claimed_worst_case_total(14, betas, 0.001), 4.45867732843, 1e-10);
}

TEST(AdmmRandomAggregation, AverageBelowWorstWithNoise) {
  // b_inf = 0.1 (a declared bound above the domain's 2/57), D = 10: s = 0.01; d = 30 (breast_cancer), K = 15.
  RunParameters p = RunParameters::from_assignments({"K=15", "b_inf=0.1", "beta0=1", "gamma=auto"});
  const RunResult r = run_admm_random_aggregation(p, 4);
  double beta_sum = 0;
  for (int k = 1; k <= 15; ++k) beta_sum += std::pow(1.02, k);
  const double worst = 30 * 0.01 * beta_sum;
  EXPECT_NEAR(r.claimed["epsilon"].get<double>(), worst, 1e-12);
  const double accounted = r.accounted["epsilon"].get<double>();
  EXPECT_GE(accounted, worst * (1 - 1e-15));
  EXPECT_LE(accounted, worst * (1 + 1e-12));
  const double ratio = r.accounted["gamma"].get<double>();
  EXPECT_GT(ratio, 0.0);
  EXPECT_LT(ratio, 1.0);
  EXPECT_LT(r.accounted["realised_epsilon"].get<double>(), accounted);
  const double thesis_ratio = r.claimed["gamma"].get<double>();
  EXPECT_GT(thesis_ratio, 0.0);
  EXPECT_LT(thesis_ratio, 1.0);
  EXPECT_EQ(r.extra["privacy_curves"]["worst"].size(), 15u);
  // The closed-form gamma bound (default 'auto') is above the exact quadrature and within 1% of it.
  RunParameters q = RunParameters::from_assignments({"K=15", "b_inf=0.1", "beta0=1", "gamma=exact"});
  const RunResult exact = run_admm_random_aggregation(q, 4);
  const double e_exact = exact.accounted["expected_epsilon"].get<double>();
  const double e_auto = r.accounted["expected_epsilon"].get<double>();
  EXPECT_GE(e_auto, e_exact);
  EXPECT_LE(e_auto, 1.01 * e_exact);
  EXPECT_EQ(exact.accounted["realised_epsilon"].get<double>(), r.accounted["realised_epsilon"].get<double>());
}

TEST(AdmmRandomAggregation, RejectsBadParameters) {
  RunParameters sign = RunParameters::from_assignments({"dual_sign=minus"});
  EXPECT_THROW(run_admm_random_aggregation(sign, 1), dpl::InputError);
  RunParameters target = RunParameters::from_assignments({"target=10"});
  EXPECT_THROW(run_admm_random_aggregation(target, 1), dpl::InputError);
}
