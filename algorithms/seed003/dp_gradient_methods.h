// SPDX-License-Identifier: Apache-2.0
// Seed 003 Propositions 1 and 2 (Cyffers, Bellet and Basu): DP-SGD and DP coordinate descent as instances of
// Algorithm 1 with R(u) = u - (2/beta) grad f(u) (non-expansive for a beta-smooth convex f), lambda = gamma beta/2,
// clipped per-record gradients, Gaussian noise, and the prox of an l1 term after each step (the proximal
// variant: the paper's Figure 1 comparator).
#pragma once

#include "accounting/progress_callback.h"
#include "algorithms/run/run_parameters.h"
#include "algorithms/run/run_result.h"

#include <cstdint>

namespace dpl::algorithms::seed003 {

// `dp-sgd`. Keys: the problem keys (setup_erm; default breast_cancer, logistic, l2 0.01), K (500 steps), gamma
// (step, (0, 2/beta], default 1/beta), sigma (noise multiplier: the noise std is sigma C on the sum of clipped
// gradients, 1), C (clipping, 1), sampling (poisson | fixed | cyclic: batches by Poisson sampling with q, of
// size round(q n) without replacement, or one record per step in order), q (0.1; sigma=0 with q=1 is gradient
// descent and reaches suboptimality < 1e-6; with q < 1 the batch sampling error (Theorem 1's zeta) leaves a
// floor, about 1e-3 at q=0.1, whatever K), delta (1e-6), accountant
// (auto | rdp | pld: the accountant of accounted.epsilon). accounted.ledger is the `dpledger compose -m` ledger.
RunResult run_dp_sgd(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress = {});

// `dp-cd`. Keys: the problem keys, K (800), gamma, sigma (noise multiplier on the mean clipped gradient: std
// sigma C/n per coordinate, 60), C, coordinates (10: coordinates updated per step, a uniform subset; 0 = Poisson
// with q), q (0.1), delta, accountant.
RunResult run_dp_cd(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress = {});

}  // namespace dpl::algorithms::seed003
