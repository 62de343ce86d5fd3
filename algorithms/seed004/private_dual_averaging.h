// SPDX-License-Identifier: Apache-2.0
// Distributed dual averaging (Duchi, Agarwal and Wainwright 2012) in the form of Liu, Johansson and Shi,
// Algorithm 1 (DP-DDA with node sampling): active nodes draw one local sample with replacement (or, for
// conventional DDA, use the full local subgradient), add N(0, sigma^2 I), gossip z_j + a_t zeta_j over W^(t)
// (5), and take the proximal dual-averaging step (6) x = argmin <z, x> + iota A_{t+1} h(x) + gamma_{t+1} ||x||^2/2,
// closed form -S_{kappa l1}(z)/(kappa l2 + gamma) for h = l1 ||x||_1 + (l2/2)||x||^2 (the problem's
// regulariser), kappa = iota A_{t+1}. Output: x~_i = A_T^{-1} sum_t a_t x_i^(t); the run reports the network
// average of the x~_i.
#pragma once

#include "accounting/progress_callback.h"
#include "algorithms/run/problem_setup.h"
#include "algorithms/run/run_result.h"
#include "algorithms/seed004/node_sampling_gossip.h"

#include <Eigen/Dense>

#include <cstdint>
#include <functional>
#include <vector>

namespace dpl::algorithms::seed004 {

enum class WeightRule { constant, linear };  // a_t = 1 or a_t = t
enum class ProxRule { constant, sqrt };       // gamma_t = gamma0 or gamma0 sqrt(t)

struct DualAveragingSettings {
  std::int64_t T = 1000;
  double iota = 1;  // the regulariser's scale in (6)
  WeightRule a = WeightRule::linear;
  ProxRule gamma_rule = ProxRule::constant;
  double gamma0 = 0;
  double sigma = 0;
  bool one_sample = true;  // Step 3; false: the full local (sub)gradient of the mean loss
  int trace_points = 40;   // states recorded at about this many log-spaced iterations (and t = T)
  // Optional (white-box checks of the paper's lemmas): called at every step t = 1..T after the active nodes'
  // noisy subgradients are drawn and before the gossip, with z^(t) and x^(t) of every node (rows), the active
  // nodes and their zeta_i^(t) = g_i + nu_i (rows, in the order of `active`).
  std::function<void(std::int64_t t, const Eigen::MatrixXd& Z, const Eigen::MatrixXd& X, const std::vector<int>& active,
                     const Eigen::MatrixXd& zeta)>
      observe;
  // End-to-end audits (algorithms/run/end_to_end_audit.h) only: the noise drawn is noise_scale sigma;
  // fixed_sample_node >= 0: that node's one sample is always its row 0 (no hidden choice).
  double noise_scale = 1;
  int fixed_sample_node = -1;
  // Sees every noise draw (node, draw) as it is added (the white-box noise check of an audit).
  std::function<void(int, const Eigen::VectorXd&)> observe_noise;
};

struct DualAveragingOutcome {
  Eigen::MatrixXd averages;                 // x~_i^(T), rows = agents
  std::vector<std::int64_t> curve_t;        // iterations of the suboptimality curve (log-spaced, incl. T)
  std::vector<double> curve_suboptimality;  // sum_i f_i(mean_i x~_i^(t)) - optimum
  std::vector<TraceStep> trace;             // at curve_t: states x_i^(t+1), messages of that step's active nodes
  std::vector<std::int64_t> activations;    // per agent: the number of steps it was active
};

// The per-sample loss subgradient (logistic: L'(y <x, z>) y z; hinge: -y z if y <x, z> < 1 else 0), without the
// regulariser. Throws NotApplicable for other losses.
Eigen::VectorXd sample_subgradient(const LocalObjective& f, int row, const Eigen::VectorXd& x);

// Throws InputError if kappa l2 + gamma_t = 0 for some t (the step (6) would have no minimiser). `progress`
// (optional) is told the fraction of the T steps done, about every percent.
DualAveragingOutcome run_dual_averaging(const DistributedProblem& problem, const NodeSamplingGossip& gossip,
                                        const DualAveragingSettings& s, Rng& rng,
                                        const ProgressCallback& progress = {});

}  // namespace dpl::algorithms::seed004
