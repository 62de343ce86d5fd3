// SPDX-License-Identifier: Apache-2.0
// Decentralised ADMM in the node-local form of Zhang, Khalili and Liu (Recycled ADMM, eqs. (8)-(9)) and its
// variants: conventional ADMM (every iteration exact), R-ADMM (Algorithm 1: odd iterations exact, even iterations
// the recycled linearised step (10) with the dual frozen (11)), private R-ADMM (Algorithm 2: objective
// perturbation on the odd iterations (28), even step (29) from broadcast values only), and the dual-variable
// perturbation (DVP) baseline of Zhang and Zhu 2017 (conventional ADMM whose primal step sees a noisy dual).
// Each agent's objective is O_i = C f_i with f_i the problem's local objective (mean loss + (l2/2)||x||^2), so
// the paper's rho/N is C l2 and its R is (1/2)||x||^2.
#pragma once

#include "accounting/progress_callback.h"
#include "algorithms/run/problem_setup.h"
#include "algorithms/run/run_result.h"

#include <Eigen/Dense>

#include <functional>
#include <vector>

namespace dpl::algorithms::seed002 {

enum class AdmmNoise { none, objective, dual };

struct AdmmSettings {
  bool recycled = false;  // R-ADMM: iterations 2k are the recycled step, iterations 2k-1 exact
  int iterations = 100;   // T (for R-ADMM T = 2K)
  double eta = 0.5;       // penalty
  double eta_growth = 1;  // penalty at iteration t: eta growth^(t-1) (the increasing penalty of M-ADMM, [27])
  double gamma = 0;       // R-ADMM's extra proximal weight on the even step (10)
  double C = 1;           // loss weight: O_i = C f_i
  double phi = 0;         // DVP's extra regulariser (Phi/2)||x||^2 in the primal step (Zhang and Zhu 2017)
  double newton_tol = 1e-12;
  AdmmNoise noise = AdmmNoise::none;
  // objective: alpha_i(k) = rates[k-1] for the k-th perturbed (odd) iteration; dual: zeta(t) = rates[t-1]. The
  // vector must cover every perturbed iteration.
  std::vector<double> rates;
  // End-to-end audits (algorithms/run/end_to_end_audit.h) only: the noise is drawn at rate rate / noise_scale
  // (noise_scale times the claimed noise); observe_primal(t, i, lin, quad, f) sees every perturbed exact step's
  // released f_i(t) with its public linear term lin (2 lambda_i - eta sum_j (f_i + f_j), without the
  // perturbation) and quad.
  double noise_scale = 1;
  double loss_scale = 1;  // the exact step weighs the loss by C loss_scale (an audit's sensitivity fault)
  std::function<void(int, int, const Eigen::VectorXd&, double, const Eigen::VectorXd&)> observe_primal;
};

struct AdmmOutcome {
  std::vector<TraceStep> trace;  // iteration 0..T: every agent's broadcast f_i(t) (states; messages empty)
  Eigen::MatrixXd F;             // final f_i(T), rows = agents
  Eigen::MatrixXd lambda;        // final lambda_i(T)
  int argmin_solves = 0;         // exact primal steps (per agent counted once per iteration)
  double max_kkt_residual = 0;   // the largest Newton KKT residual over all exact steps
  int max_newton_iterations = 0;
  std::vector<double> noise_norms;  // ||e|| of every draw (objective: per odd iteration and agent)
  bool diverged = false;
};

// The even step of R-ADMM from broadcast values alone (Recycled ADMM (10) with the KKT condition of (12)/(28)
// and (13) substituted; exact algebra, notes: F(2k) = F(2k-1) - eta Dt^{-1} [(D + A) F(2k-2) - 2 A F(2k-1)]):
// f_i(2k) = f_i(2k-1) - eta/(2 eta V_i + gamma) sum_{j in V_i} (f_i(2k-2) + f_j(2k-2) - 2 f_j(2k-1)).
Eigen::MatrixXd recycled_step_from_broadcasts(const Graph& g, const Eigen::MatrixXd& F_before_odd,
                                              const Eigen::MatrixXd& F_odd, double eta, double gamma);

// Runs the iteration from F0 (data-independent). `noise` supplies the perturbations. Stops early (diverged) if
// a state leaves |x| < 1e150. `progress` (optional) is told the fraction of the iterations done, about every
// percent.
AdmmOutcome run_admm_iterations(const DistributedProblem& problem, const AdmmSettings& s, const Eigen::MatrixXd& F0,
                                Rng& noise, const ProgressCallback& progress = {});

}  // namespace dpl::algorithms::seed002
