// SPDX-License-Identifier: Apache-2.0
// `dpledger run` entries of seed 004 (Liu, Johansson and Shi, "Privacy Amplification via Node Sampling for
// Distributed Empirical Risk Minimization"): `dda` (distributed dual averaging, Duchi, Agarwal and Wainwright
// 2012: every node active, fixed Metropolis gossip, full local subgradients) and `dp-dda-node-sampling`
// (Algorithm 1). The problem is F = (1/n) sum_i (mean loss_i) + h with h the problem's regulariser
// (l1 ||x||_1 + (l2/2)||x||^2; the paper's mu is l2, its phi is l1); suboptimality is reported for
// sum_i f_i = n F, like every run. Data: the paper's rcv1/epsilon sets are not shipped; the shipped
// breast_cancer set (or a user file / synthetic) is used and named in extra.data_set.
//
// Keys of both: the problem keys (20 agents, complete supergraph as in the paper's experiments), T, a (t | 1:
// a_t), gamma_rule (constant | sqrt: gamma_t = gamma0 or gamma0 sqrt(t)), gamma0, batch (one: Step 3's single
// sample with replacement | full: the local mean subgradient), activation (all | edges | nodes), sampled (the
// number of edges or nodes drawn per step).
#pragma once

#include "accounting/progress_callback.h"
#include "algorithms/run/run_parameters.h"
#include "algorithms/run/run_result.h"

#include <cstdint>

namespace dpl::algorithms {

// Defaults: logistic loss, l2 1, T 2000, a = t, gamma0 0 (Corollary 1's strongly convex set-up), batch full,
// activation all. No noise, no privacy.
RunResult run_dda(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress = {});
// Defaults (Sec. 5.2, l1-regularised SVM, Figs. 1-3): hinge, l1 5e-4, l2 0, a = 1, gamma_t = 0.1 sqrt(t), T 1000,
// one sampled edge of K_20 (iota 0.1), batch one; epsilon 1, delta0 0.01 (the experiments' (1, 0.01)), constant
// 32, sigma 0 (= Theorem 1's), delta 0.01 (the accounting target; the experiments' delta), noise on. The l2
// experiment (Sec. 5.3, Figs. 4-6): --set l1=0 --set l2=0.0005 --set a=t --set gamma_rule=constant --set gamma0=20.
RunResult run_dp_dda_node_sampling(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress = {});

}  // namespace dpl::algorithms
