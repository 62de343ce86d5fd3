// SPDX-License-Identifier: Apache-2.0
// Wang and Nedic, "Differentially-private distributed optimization with guaranteed optimality" (seed 001):
// Algorithm 1 (eq. (4)) on a distributed problem, the plain DGD baseline under the same noise, and the
// `dpledger run wang-nedic` entry with the paper's claimed budget (Theorem 2) next to the corrected accounting.
//
// Run keys (defaults = the paper's Sec. VI): the problem keys of setup_problem (data=synthetic, loss=squared,
// agents=5, per_agent=3, synthetic_rows=15, synthetic_dim=2, l2=0.1, graph=random, edges=6); the schedules
// lambda_*, gamma_*, nu_* (step_schedule.h; lambda = 0.12/(1+0.1k): the paper's 0.02 on its objective, 6 times
// this one; gamma = 1/(1+0.1k^0.9), nu = 1+0.1k^0.3);
// k0 (1), K (iterations, 10000; at most 2e7, and 1e6 with audit=on), C (3, the l1 gradient bound of
// Assumption 4), clip (on: gradients clipped to l1 norm C; the paper's quadratics violate Assumption 4
// otherwise), noise (on), baseline (none | dgd: gamma = 1), trace_every (1 = every iterate, the default up to K = 1e5; ceil(K/1e5) beyond; 0 = no trace), audit (on),
// audit_agent (-1 = the agent with the smallest |w_ii|), audit_centre (100: f_i' = Huber centred there,
// coupled_audit.h), x0_scale (1: x_i^{k0} ~ N(0, x0_scale^2 I)).
#pragma once

#include "accounting/progress_callback.h"
#include "algorithms/run/problem_setup.h"
#include "algorithms/run/run_result.h"
#include "algorithms/seed001/coupled_audit.h"
#include "algorithms/seed001/step_schedule.h"

#include <Eigen/Dense>

#include <cstdint>
#include <functional>
#include <vector>

namespace dpl::algorithms::seed001 {

struct WangNedicConfig {
  StepSchedule lambda = simulation_lambda();
  StepSchedule gamma = simulation_gamma();
  StepSchedule nu = simulation_nu();
  std::int64_t k0 = 1;
  std::int64_t iterations = 10000;
  double C = 1;
  bool clip = true;
  bool noise = true;
  int trace_every = 100;   // 0: no trace
  int audit_agent = -1;    // agent whose transcript is kept (-1: none)
  // End-to-end audits (algorithms/run/end_to_end_audit.h) only: the Laplace draws have scale noise_scale nu^k;
  // gradient_scale multiplies every (clipped) gradient; observe_messages(k, Y) sees iteration k's messages before
  // the update.
  double noise_scale = 1;
  double gradient_scale = 1;
  std::function<void(std::int64_t, const Eigen::MatrixXd&)> observe_messages;
};

struct WangNedicRun {
  Eigen::MatrixXd states;  // x^{k0+K}, rows = agents
  std::vector<TraceStep> trace;
  // Errors after n completed iterations, n on a geometric grid (about 20 per decade) and n = K:
  std::vector<std::int64_t> error_iterations;
  std::vector<double> optimality_error;  // Sum_i ||x_i - theta*||_2
  std::vector<double> consensus_error;   // Sum_i ||x_i - xbar||_2^2
  AgentTranscript transcript;            // of config.audit_agent (empty if -1)
};

// Algorithm 1 (eq. (4) of Wang-Nedic) for K = iterations steps k = k0 .. k0+K-1 from x_start (rows = agents):
// each agent j sends y_j^k = x_j^k + zeta_j^k (zeta i.i.d. Laplace(nu^k) per coordinate; zero when noise is
// off), then every agent i updates with its own un-noised state and its (clipped) gradient. W is the negative-
// Laplacian weight matrix (w_ij > 0 on edges, w_ii = -Sum_j w_ij). The DGD baseline is the same with gamma = 1.
// Throws InputError when W violates Assumption 1 (wang_nedic_kappa(W) <= 0) or a schedule is invalid.
// `progress` (optional) is told the fraction of the iterations done, about every percent.
WangNedicRun run_algorithm1(const DistributedProblem& problem, const Eigen::MatrixXd& W, const WangNedicConfig& config,
                            const Eigen::MatrixXd& x_start, Rng& rng, const ProgressCallback& progress = {});

// The DGD baseline of the paper's Fig. 1 (Nedic-Ozdaglar 2009 [3], "under the same noise"): gamma^k = 1.
WangNedicRun run_dgd_baseline(const DistributedProblem& problem, const Eigen::MatrixXd& W, WangNedicConfig config,
                              const Eigen::MatrixXd& x_start, Rng& rng);

// Least-squares slope of log(y) against log(x) over the points with x in [x_from, x_to] (y > 0); InputError if
// fewer than 3 such points.
double log_log_slope(const std::vector<std::int64_t>& x, const std::vector<double>& y, double x_from, double x_to);

// `dpledger run wang-nedic`: reads the keys above, runs, and fills the RunResult (claimed: Theorem 2(1) at
// T = k0+K-1 and at infinity; accounted: the accumulated-sensitivity eps_true(T) and eps_true(inf); extra: the
// coupled audit, the feasibility table, kappa, |w_ii|, the gradient norms at the optimum, the error curve).
RunResult run_wang_nedic(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress = {});

}  // namespace dpl::algorithms::seed001

namespace dpl::algorithms {
// The registry (algorithm_registry.cpp) names the run functions in dpl::algorithms.
using seed001::run_wang_nedic;
}  // namespace dpl::algorithms
