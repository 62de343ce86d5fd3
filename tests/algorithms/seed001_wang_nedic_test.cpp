// SPDX-License-Identifier: Apache-2.0
// Seed 001 (Wang-Nedic) Algorithm 1: the `wang-nedic` run with its ledgers, the replay used by the audit, the
// Assumption 1 check, the convergence rate of Remark 3 (noise off) with a miscalibrated twin, and noise-on
// behaviour against the DGD baseline under the same growing noise (the paper's Fig. 1 comparison).
#include "accounting/errors.h"
#include "algorithms/run/problem_setup.h"
#include "algorithms/seed001/accumulated_sensitivity.h"
#include "algorithms/seed001/algorithm1_step.h"
#include "algorithms/seed001/claimed_epsilon.h"
#include "algorithms/seed001/wang_nedic.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdio>

using namespace dpl;
using namespace dpl::algorithms;
using namespace dpl::algorithms::seed001;

namespace {

DistributedProblem make_problem(const std::vector<std::string>& keys, std::uint64_t seed) {
  ProblemDefaults defaults;
  defaults.data = "synthetic";
  defaults.agents = 5;
  defaults.per_agent = 3;
  defaults.graph = "random";
  defaults.edges = 6;
  defaults.loss = "squared";
  defaults.l2 = 0.1;
  defaults.synthetic_rows = 15;
  defaults.synthetic_dim = 2;
  auto params = RunParameters::from_assignments(keys);
  Rng rng(seed);
  return setup_problem(params, defaults, rng);
}

Eigen::MatrixXd gaussian_start(int m, int d, Rng& rng) {
  Eigen::MatrixXd x(m, d);
  for (int i = 0; i < m; ++i)
    for (int c = 0; c < d; ++c) x(i, c) = rng.gaussian();
  return x;
}

double mean_at(const std::vector<WangNedicRun>& runs, std::int64_t n) {
  double s = 0;
  for (const auto& r : runs) {
    std::size_t i = 0;
    while (i + 1 < r.error_iterations.size() && r.error_iterations[i] < n) ++i;
    s += r.optimality_error[i];
  }
  return s / static_cast<double>(runs.size());
}

}  // namespace

TEST(Seed001WangNedic, DefaultRunReportsBothLedgers) {
  // The paper's Sec. VI schedules exactly (lambda 0.02/(1 + 0.1k)) and C = 1, for the golden values of its claim;
  // the defaults take lambda 6 times larger (the paper's objective is 6 times this one) and C = 3, so their claim
  // is 18 times these.
  RunParameters params = RunParameters::from_assignments({"lambda_a=0.02", "C=1"});
  const RunResult r = run_wang_nedic(params, 1);
  RunParameters defaults;
  const RunResult d = run_wang_nedic(defaults, 1);
  EXPECT_NEAR(d.claimed["epsilon"].get<double>(), 18 * 1.74866, 18e-5);
  EXPECT_LT(d.objective, d.start_objective);
  EXPECT_EQ(r.algorithm, "wang-nedic");
  EXPECT_EQ(r.iterations, 10000);
  EXPECT_EQ(r.parameters["lambda_form"], "ratio");
  EXPECT_EQ(r.parameters["nu_c"], 0.3);
  EXPECT_EQ(r.parameters["agents"], 5);
  ASSERT_EQ(r.trace.size(), 10000u);  // trace_every = 1: every iterate
  EXPECT_EQ(r.trace[0].states.rows(), 5);
  EXPECT_EQ(r.trace[0].states.cols(), 2);
  EXPECT_EQ(r.trace[0].messages.rows(), 5);
  EXPECT_GT((r.trace[3].messages - r.trace[3].states).cwiseAbs().maxCoeff(), 0);  // noisy messages
  EXPECT_GE(r.suboptimality, -1e-9);
  // Claimed: Theorem 2(1) at T = k0 + K - 1 = 10000 and at infinity (C = 1): notes sec. 3.4.
  EXPECT_NEAR(r.claimed["epsilon"].get<double>(), 1.74866, 1e-5);
  EXPECT_NEAR(r.claimed["epsilon_infinite_horizon"].get<double>(), 2.40074603728, 1e-10);
  // Accounted: eps_true(T) of the worst agent, certified; infinite horizon diverges.
  std::vector<double> a = r.extra["abs_w_ii"].get<std::vector<double>>();
  const AccumulatedEpsilon acc =
      accumulated_epsilon(simulation_lambda(), simulation_gamma(), simulation_nu(), 1, a, 1, 10000);
  EXPECT_EQ(r.accounted["epsilon"].get<double>(), hi_up(acc.epsilon));
  EXPECT_GT(r.accounted["epsilon"].get<double>(), 40 * r.claimed["epsilon"].get<double>());
  EXPECT_EQ(r.accounted["epsilon_infinite_horizon"], "inf");
  EXPECT_GT(r.extra["kappa"].get<double>(), 0);
  // The coupled audit: the paper's per-step claim fails (documented known failure), the accumulated bound holds.
  const Json& audit = r.extra["coupled_audit"];
  EXPECT_FALSE(audit["paper_claim_holds"].get<bool>());
  EXPECT_TRUE(audit["accumulated_sensitivity_holds"].get<bool>());
  EXPECT_LE(audit["realised_worst_case_loss"].get<double>(), r.accounted["epsilon"].get<double>() * (1 + 1e-9));
  EXPECT_GT(audit["realised_worst_case_loss"].get<double>(), r.claimed["epsilon"].get<double>());
  // The feasibility table of the paper's schedules: the corrected condition fails.
  EXPECT_FALSE(r.extra["feasibility"][5]["holds"].get<bool>());
}

TEST(Seed001WangNedic, OptionsAndInputErrors) {
  auto off = RunParameters::from_assignments({"noise=off", "K=50", "trace_every=0"});
  const RunResult r = run_wang_nedic(off, 2);
  EXPECT_EQ(r.accounted["epsilon"], "inf");
  EXPECT_TRUE(r.trace.empty());
  auto noclip = RunParameters::from_assignments({"clip=off", "K=50"});
  EXPECT_EQ(run_wang_nedic(noclip, 2).accounted["epsilon"], "inf");  // Assumption 4 not enforced: no bound
  auto dgd = RunParameters::from_assignments({"baseline=dgd", "K=50"});
  const RunResult d = run_wang_nedic(dgd, 2);
  EXPECT_EQ(d.extra["baseline"], "dgd");
  EXPECT_NE(d.accounted["epsilon"], "inf");
  auto unknown = RunParameters::from_assignments({"iterationz=5"});
  EXPECT_THROW(run_wang_nedic(unknown, 1), InputError);
  auto big_gamma = RunParameters::from_assignments({"gamma_a=2"});
  EXPECT_THROW(run_wang_nedic(big_gamma, 1), InputError);
  // Assumption 1 violated (W = 0: kappa = 0): InputError naming it.
  const DistributedProblem p = make_problem({}, 3);
  Rng rng(3);
  const Eigen::MatrixXd x0 = gaussian_start(5, 2, rng);
  WangNedicConfig cfg;
  cfg.iterations = 10;
  try {
    run_algorithm1(p, Eigen::MatrixXd::Zero(5, 5), cfg, x0, rng);
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("Assumption 1"), std::string::npos);
  }
  EXPECT_NO_THROW(run_algorithm1(p, negative_laplacian_weights(p.graph), cfg, x0, rng));
}

TEST(Seed001WangNedic, ReplayReproducesTheRunBitForBit) {
  const DistributedProblem p = make_problem({}, 4);
  Rng rng(4);
  const Eigen::MatrixXd x0 = gaussian_start(5, 2, rng);
  WangNedicConfig cfg;
  cfg.iterations = 2000;
  cfg.audit_agent = 2;
  const WangNedicRun run = run_algorithm1(p, negative_laplacian_weights(p.graph), cfg, x0, rng);
  const LocalObjective& f = p.locals[2];
  const auto xs = replay_agent(run.transcript, cfg.lambda, cfg.gamma,
                               [&](const Eigen::VectorXd& x) { return clip_l1(f.gradient(x), cfg.C); });
  ASSERT_EQ(xs.size(), 2001u);
  EXPECT_EQ((xs.back() - run.states.row(2).transpose()).cwiseAbs().maxCoeff(), 0.0);
  // A replay with another gradient does not reproduce it (the comparison can fail).
  const auto other = replay_agent(run.transcript, cfg.lambda, cfg.gamma, huber_gradient(1, 100));
  EXPECT_GT((other.back() - run.states.row(2).transpose()).cwiseAbs().maxCoeff(), 1e-3);
}

// Remark 3: consensus error O(1/(k gamma^k)) and overall O((k gamma^k)^-1/2); gamma = k^-0.6 gives k^-0.4 and
// k^-0.2. Theorem 1 holds for lambda = 0.5/(1+k) (sum = inf, sum lambda^2/gamma = sum k^-1.4 < inf). Noise off,
// well-conditioned instance (l2 = 1, 10 rows per agent).
TEST(Seed001WangNedic, RemarkThreeRateWithNoiseOffAndAMiscalibratedTwin) {
  const DistributedProblem p =
      make_problem({"l2=1", "per_agent=10", "synthetic_rows=50"}, 5);
  const Eigen::MatrixXd W = negative_laplacian_weights(p.graph);
  WangNedicConfig cfg;
  cfg.noise = false;
  cfg.clip = false;
  cfg.trace_every = 0;
  cfg.iterations = 30000;
  cfg.gamma = power_schedule(1, -0.6);
  cfg.lambda = ratio_schedule(0.5, 1, 1);
  Rng rng(5);
  const Eigen::MatrixXd x0 = gaussian_start(5, 2, rng);
  const WangNedicRun run = run_algorithm1(p, W, cfg, x0, rng);
  const double overall = log_log_slope(run.error_iterations, run.optimality_error, 1000, 30000);
  const double consensus = log_log_slope(run.error_iterations, run.consensus_error, 1000, 30000);
  EXPECT_LE(overall, -0.2 + 0.05) << "stated O(k^-0.2)";
  EXPECT_LE(consensus, -0.4 + 0.05) << "stated O(k^-0.4)";
  EXPECT_LT(run.optimality_error.back(), 0.05 * run.optimality_error.front());
  // Twin: a summable stepsize (lambda = 0.5/(1+k^2), violating Theorem 1) stalls; the same rate check catches it.
  WangNedicConfig twin = cfg;
  twin.lambda = ratio_schedule(0.5, 1, 2);
  const WangNedicRun bad = run_algorithm1(p, W, twin, x0, rng);
  const double twin_slope = log_log_slope(bad.error_iterations, bad.optimality_error, 1000, 30000);
  EXPECT_GT(twin_slope, -0.2 + 0.05);
  std::printf("fitted slopes on [1e3, 3e4]: overall %.3f (stated <= -0.2), consensus %.3f (stated <= -0.4), "
              "summable-step twin %.3f\n", overall, consensus, twin_slope);
}

// Noise on, the paper's Sec. VI set-up (10 fixed seeds) without clipping (as in the paper's experiment; with
// clip = on and C = 1 the total movement Sum lambda^k C ~ 0.2 ln K is too small to show progress): Algorithm 1's
// error decreases; DGD under the same growing noise (gamma = 1) does not converge (its error grows).
TEST(Seed001WangNedic, NoiseOnDecreasesWhileDgdUnderTheSameNoiseDoesNot) {
  std::vector<WangNedicRun> alg, dgd;
  for (std::uint64_t seed = 10; seed < 20; ++seed) {
    const DistributedProblem p = make_problem({}, seed);
    const Eigen::MatrixXd W = negative_laplacian_weights(p.graph);
    Rng rng(seed);
    const Eigen::MatrixXd x0 = gaussian_start(5, 2, rng);
    WangNedicConfig cfg;
    cfg.trace_every = 0;
    cfg.iterations = 30000;
    cfg.clip = false;
    Rng r1 = rng.split(), r2 = rng.split();
    alg.push_back(run_algorithm1(p, W, cfg, x0, r1));
    dgd.push_back(run_dgd_baseline(p, W, cfg, x0, r2));
  }
  const double a_early = mean_at(alg, 1000), a_late = mean_at(alg, 30000);
  const double d_early = mean_at(dgd, 1000), d_late = mean_at(dgd, 30000);
  EXPECT_LT(a_late, 0.8 * a_early) << a_early << " -> " << a_late;
  EXPECT_GT(d_late, 1.5 * d_early) << d_early << " -> " << d_late;
  EXPECT_LT(a_late, d_late);
  std::printf("mean optimality error at 1e3 / 3e4: Algorithm 1 %.4g / %.4g, DGD %.4g / %.4g\n", a_early, a_late,
              d_early, d_late);
}
