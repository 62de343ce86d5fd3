// SPDX-License-Identifier: Apache-2.0
// PDOP, the private distributed optimisation of Huang, Mitra and Vaidya ("Differentially private distributed
// optimization", ICDCN 2015): the baseline of Wang and Nedic's Fig. 1 ([12] there) and of the thesis's example (c)
// ([45] there). Every agent broadcasts y_i = x_i + Lap(M_k) per coordinate with a decaying scale M_k = c_p p^k,
// averages the broadcasts of its closed neighbourhood with Metropolis weights, v_i = sum_j w_ij y_j, and takes a
// gradient step with geometrically decaying steps gamma_k = c q^k (0 < q < p < 1): x_i = v_i - gamma_k grad f_i(v_i)
// (gradients clipped to l1 norm C). v_i is public, so changing f_i moves the next broadcast by at most
// 2 C gamma_k (l1): each broadcast is a Laplace mechanism of scale M_{k+1} with that sensitivity, and the total
// pure epsilon is sum_k 2 C gamma_k / M_{k+1} <= 2 C c p / (c_p (p - q)) (Huang et al.'s budget, Thm 2).
#pragma once

#include "algorithms/run/problem_setup.h"

#include <Eigen/Dense>

#include <cstdint>
#include <vector>

namespace dpl::algorithms::baselines {

struct PdopConfig {
  double c = 0.12, q = 0.9;    // steps gamma_k = c q^k
  double c_p = 1, p = 0.95;    // noise scales M_k = c_p p^k
  double C = 3;                // l1 clipping of the gradients
  std::int64_t iterations = 10000;
  bool noise = true;
};

struct PdopRun {
  Eigen::MatrixXd states;                 // x after the last iteration, rows = agents
  std::vector<std::int64_t> iterations;   // on a geometric grid and the last
  std::vector<double> optimality_error;   // sum_i ||x_i - theta*||_2 there
  double epsilon = 0;                     // sum_k 2 C gamma_k / M_{k+1} over the run (upper, pure)
};

// The c_p that makes the budget 2 C c p/(c_p (p - q)) equal to `epsilon` (for "the same privacy budget").
double pdop_noise_scale_for(double epsilon, const PdopConfig& config);

// Runs from x_start (rows = agents); throws InputError unless 0 < q < p < 1 and c, c_p, C > 0.
PdopRun run_pdop(const DistributedProblem& problem, const PdopConfig& config, const Eigen::MatrixXd& x_start, Rng& rng);

}  // namespace dpl::algorithms::baselines
