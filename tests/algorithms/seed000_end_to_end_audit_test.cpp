// SPDX-License-Identifier: Apache-2.0
// The end-to-end audits of seed 000's runs: the statistic of a randomized-aggregation release with its hidden weight
// integrated out is the log-ratio of the two densities (golden values by numerical integration of the Laplace
// density over the weight), the canary row at the corner of the declared domain moves the agent's hinge gradient
// by the domain's bound B_inf (and by F times it under the clip and sensitivity faults), and an end-to-end run
// reports the target's releases on D and D'.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include "algorithms/run/audit_probe.h"
#include "algorithms/run/end_to_end_audit.h"
#include "algorithms/seed000/aggregated_release_ratio.h"
#include "algorithms/seed000/agent_canary.h"
#include "algorithms/seed000/dsgd_random_aggregation.h"

namespace dpl::algorithms {
namespace {

// The density of (mean uniform on [lo, hi] + offset) + Lap(rate beta) at y, by the midpoint rule over the weight
// (20,000 panels; the Laplace density is Lipschitz, so the rule's error is far below the tolerance used).
double integrated_density(double y, double lo, double hi, double offset, double beta) {
  const int panels = 20000;
  double s = 0;
  for (int j = 0; j < panels; ++j) {
    const double m = lo + (hi - lo) * (j + 0.5) / panels + offset;
    s += 0.5 * beta * std::exp(-beta * std::fabs(y - m));
  }
  return s / panels;
}

RC_GTEST_PROP(AggregatedReleaseRatio, IsTheLogRatioOfTheWeightIntegratedDensities, ()) {
  const double lo = *rc::gen::inRange(-2000, 2000) / 1000.0;
  const double hi = lo + *rc::gen::inRange(1, 3000) / 1000.0;
  const double y = *rc::gen::inRange(-5000, 5000) / 1000.0;
  const double od = *rc::gen::inRange(-1000, 1000) / 1000.0, odp = *rc::gen::inRange(-1000, 1000) / 1000.0;
  const double beta = *rc::gen::inRange(100, 5000) / 1000.0;
  const double golden = std::log(integrated_density(y, lo, hi, od, beta) / integrated_density(y, lo, hi, odp, beta));
  RC_ASSERT(std::fabs(aggregated_laplace_log_ratio(y, lo, hi, od, odp, beta) - golden) < 1e-6);
}

TEST(AggregatedReleaseRatio, FixedWeightIsTheLaplaceRatioAndTinyIntervalsTendToIt) {
  // lo == hi: (|y - m'| - |y - m|) beta.
  EXPECT_NEAR(aggregated_laplace_log_ratio(0.3, 1.0, 1.0, 0.5, -0.2, 2.0), (std::fabs(0.3 - 0.8) - std::fabs(0.3 - 1.5)) * 2.0,
              1e-15);
  // An interval of 1e-12 noise units: within 1e-11 of the Laplace ratio, inside and outside the interval.
  for (double y : {1.5, 1.5 + 5e-13, 3.0, -1.0})
    EXPECT_NEAR(aggregated_laplace_log_ratio(y, 1.5, 1.5 + 1e-12, 0, 0.25, 1.0),
                aggregated_laplace_log_ratio(y, 1.5, 1.5, 0, 0.25, 1.0), 1e-11);
  // Far in the tails (densities below 1e-300) the ratio stays finite: beta times the offset difference.
  EXPECT_NEAR(aggregated_laplace_log_ratio(2000, 0, 1, 0.5, 0, 1.0), 0.5, 1e-9);
}

LocalObjective four_row_hinge() {
  Dataset data;
  data.features = Eigen::MatrixXd::Constant(4, 3, 0.25);
  data.labels = Eigen::VectorXd::Ones(4);
  return LocalObjective(data, LossKind::hinge, Regularizer{1.0, 0.0});
}

TEST(AgentCanary, CornerRowMovesTheHingeGradientByTheDomainsBound) {
  const LocalObjective f = four_row_hinge();
  // |<4 row, x>| <= 0.6 < 1: both labels' hinge subgradients active, also for the row 4 times outside the domain.
  const Eigen::VectorXd x = Eigen::VectorXd::Constant(3, 0.05);
  for (DataDomain domain : {DataDomain::unit_cube, DataDomain::unit_rows}) {
    const double b_inf = loss_bounds(LossKind::hinge, f.regularizer(), 1.0, domain, 3, 4).sensitivity_linf;
    for (double clip : {1.0, 4.0}) {
      InjectedFaults faults;
      faults.clip = clip;
      const CanaryObjectives c = canary_objectives(f, domain, faults);
      const Eigen::VectorXd diff = audited_subgradient(c.on_d, x, faults) - audited_subgradient(c.on_dprime, x, faults);
      for (int l = 0; l < 3; ++l) {
        const double expected = domain == DataDomain::unit_cube || l == 0 ? clip * b_inf : 0.0;
        EXPECT_NEAR(std::fabs(diff(l)), expected, 1e-12) << to_string(domain) << " clip " << clip << " l " << l;
      }
    }
  }
}

TEST(AgentCanary, SensitivityFaultScalesTheLossPartOnly) {
  const LocalObjective f = four_row_hinge();
  const Eigen::VectorXd x = Eigen::VectorXd::Constant(3, 0.1);
  InjectedFaults faults;
  faults.sensitivity = 3;
  const Eigen::VectorXd reg = f.regularizer().smooth_gradient(x);
  EXPECT_LT((audited_subgradient(f, x, faults) - reg - 3 * (f.subgradient(x) - reg)).norm(), 1e-14);
  EXPECT_TRUE(audited_subgradient(f, x, InjectedFaults{}) == f.subgradient(x));
}

TEST(SeedZeroEndToEnd, DsgdRunReportsTheTargetsReleasesOnDAndDPrime) {
  const std::vector<std::string> config = {"data=synthetic", "synthetic_rows=200", "synthetic_dim=1",
                                             "loss=hinge",     "K=1",                "eta0=4",
                                             "beta0=0.5"};
  double stats[2] = {0, 0};
  for (bool on_d : {true, false}) {
    AuditProbe probe;
    RunParameters p = RunParameters::from_assignments(config);
    p.set_audit_probe(&probe);
    EndToEndAudit e2e(on_d, {});
    EndToEndAuditScope scope(&e2e);
    (void)run_dsgd_random_aggregation(p, on_d ? 11 : 12);
    EXPECT_EQ(e2e.releases(), 1u);  // one coordinate, released once
    EXPECT_EQ(e2e.draws(), 1u);
    EXPECT_EQ(e2e.family(), NoiseFamily::laplace);
    stats[on_d ? 0 : 1] = e2e.statistic();
  }
  // The claim is beta_1 eta_1 B_inf = 0.51 * 3.8 * 1 = 1.938 (100 agents of 2 rows): every release's statistic lies within it.
  for (double s : stats) EXPECT_LE(std::fabs(s), 1.938 + 1e-9);
}

}  // namespace
}  // namespace dpl::algorithms
