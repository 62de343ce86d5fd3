// SPDX-License-Identifier: Apache-2.0
// The private ADMM baselines Xiao 2019 compares Algorithm 1 with in Fig. 2-1 (App. E, example (a)), implemented
// from the thesis's descriptions on the same linearised ADMM step as Algorithm 1's executable reading,
//   x_i^{k+1} = r x_i^k + (1 - r) mean_{j in N_i} x_j^k - grad f_i(x_i^k)/D_i^k + lambda~_i^k/D_i^k (+ output noise),
//   lambda_i^{k+1} = lambda_i^k + zeta sum_{j in N_i} (x_j^{k+1} - x_i^{k+1}),
// with the fixed weights "Gamma_i = 0.5 D, rho_i = 0.5 D/|N_i|, the expectation of the penalty terms in
// Algorithm 1" (r = 1/2) and the thesis's noise rate beta_k = beta0 growth^k for every private method:
//   [48] Ding et al.: output perturbation at the end of each iteration, x + Lap(rate beta_k);
//   [42] Zhang and Zhu (dynamic DP ADMM): the Lagrange multiplier perturbed at the start of each iteration,
//        lambda~ = lambda + Lap(rate beta_k), the dual update from the unperturbed lambda;
//   [43] Zhang, Khalili and Liu (ICML 2018): increasing penalties Gamma_i^k = 0.5 * 1.02^k |N_i| and
//        rho_i^k = 0.5 * 1.02^k, i.e. D_i^k = 1.02^k |N_i| and r = 1/2, with output perturbation.
// Privacy: every coordinate an agent releases is a Laplace mechanism whose mean moves by at most s when its data
// change (s = B_inf/D_i^k for output noise; for [42] the noise reaches x as Lap(rate beta_k D) while the mean moves
// by B_inf/D, a loss of beta_k B_inf); the cumulative worst-case loss sum_k sum_l (loss per coordinate) of the
// target agent is returned per iteration (pure, the thesis's Theorem 2.2.1 corollary with gamma = 1).
#pragma once

#include "algorithms/run/problem_setup.h"

#include <Eigen/Dense>

#include <vector>

namespace dpl::algorithms {

enum class AdmmBaseline { output_perturbation_48, dual_perturbation_42, increasing_penalty_43 };

struct AdmmBaselineConfig {
  int K = 100;
  double D = 10, zeta = 0.5;
  double beta0 = 1, growth = 1.02;  // Laplace RATE beta_k = beta0 growth^k
  double penalty_growth = 1.02;     // [43]: D_i^k = penalty_growth^k |N_i|
  double b_inf = 0;                 // the target agent's l_inf gradient sensitivity (from the declared domain)
  int target = 0;
  bool noise = true;
};

struct AdmmBaselineRun {
  std::vector<Eigen::MatrixXd> states;  // x^0 .. x^K, rows = agents
  std::vector<double> worst_loss;       // cumulative worst-case loss of the target after iterations 1..K
};

AdmmBaselineRun run_admm_baseline(const DistributedProblem& problem, AdmmBaseline which, const AdmmBaselineConfig& c,
                                  const Eigen::MatrixXd& x0, Rng& rng);

}  // namespace dpl::algorithms
