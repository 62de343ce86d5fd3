// SPDX-License-Identifier: Apache-2.0
// Seeded runs of Liu, Johansson and Shi's Algorithm 1 (DP-DDA with node sampling, algorithms/seed004) observed
// step by step, for the checks of Theorem 2, Lemmas 4 and 5 and Corollaries 1-4: the auxiliary sequence y^(t) of
// (8) (from the network mean z-bar), the weighted averages x~_i^(t) and y~^(t), and the terms of each inequality
// at chosen checkpoints. The algorithm runs with explicit parameters (the theorem's), never its run defaults.
#pragma once

#include "algorithms/run/problem_setup.h"
#include "algorithms/seed004/node_sampling_gossip.h"
#include "algorithms/seed004/private_dual_averaging.h"

#include <cstdint>
#include <vector>

namespace dpl::proofs {

// A small synthetic instance: n nodes with q rows each of dimension m (unit-norm rows, labels +-1, logistic loss:
// L = 1 in Assumption 3), regulariser h = l1 ||x||_1 + (l2/2)||x||^2 (modulus mu = l2), the complete graph as
// supergraph, one edge gossiped per step (iota = 2/n; the paper's randomized-gossip example).
struct DdaInstance {
  int n = 10, q = 20, m = 3;
  double l2 = 0.1, l1 = 0;
  std::uint64_t data_seed = 7;
};

struct DdaProblem {
  algorithms::DistributedProblem problem;
  algorithms::Graph supergraph;
  double iota = 0, beta = 0, M = 0, L = 1, mu = 0;  // Theorem 2's constants for this instance
  int m = 0;
};
// Builds the instance and computes beta = sqrt(rho(E[W^T W] - 11^T/n)) exactly (enumeration of the edges:
// W = I - (e_i - e_j)(e_i - e_j)^T/2) and M = iota L^2/2 + 2 sqrt(iota) L^2/(1 - beta).
DdaProblem make_dda_problem(const DdaInstance& inst);

// What one run gives at each checkpoint t (all per run; the checks average over runs).
struct DdaCheckpoint {
  std::int64_t t = 0;
  double A = 0, gamma = 0;          // A_t, gamma_t
  double gap = 0;                   // F(y~^(t)) - F(x*)
  double lemma4_mean = 0;           // (1/n) sum_i ||x_i^(t) - y^(t)||
  double lemma4_mean_sq = 0;        // (1/n) sum_i ||x_i^(t) - y^(t)||^2
  double lemma5_lhs = 0;            // the left side of (21) summed to t
  double lemma5_rhs_printed = 0;    // the right side with a^2/(iota (mu A + gamma)) as printed
  double lemma5_rhs_modulus = 0;    // the same with the modulus mu iota A + gamma of (9)
  double xtilde_sq_error = 0;       // (1/n) sum_i ||x~_i^(t) - x*||^2
  double xtilde_consensus = 0;      // (1/n) sum_i ||x~_i^(t) - y~^(t)||
  double sum_weight_ratio = 0;      // sum_{tau <= t} a_tau^2/(mu iota A_tau + gamma_tau) (the sum in (9))
};

// One seeded run of T = checkpoints.back() steps with the given settings (s.iota and s.T are set here).
std::vector<DdaCheckpoint> observe_dda_run(const DdaProblem& p, algorithms::seed004::DualAveragingSettings s,
                                           const std::vector<std::int64_t>& checkpoints, std::uint64_t seed);

}  // namespace dpl::proofs
