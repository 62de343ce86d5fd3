// SPDX-License-Identifier: Apache-2.0
// Seed 003 private ADMM (Cyffers, Bellet and Basu, Sec. 5): the Douglas-Rachford operator on the consensus
// problem run by Algorithm 1. `admm-centralized` (Algorithm 2, record-level), `admm-federated` (Algorithm 3, m
// of n users per round without replacement, z-hat kept as the running mean of u), `admm-decentralized`
// (Algorithm 4, one user per step, the random walk on the complete graph), `admm-lasso` (Algorithm 6: the Lasso
// with clipping; scaling=fixed thresholds at gamma kappa/(2n) so its fixed point is the Lasso being solved,
// scaling=printed at gamma kappa, whose fixed point is the Lasso with 2 n kappa). Only z_K is released.
#pragma once

#include "accounting/progress_callback.h"
#include "algorithms/run/run_parameters.h"
#include "algorithms/run/run_result.h"

#include <cstdint>

namespace dpl::algorithms::seed003 {

// Keys (all four): the problem keys (setup_erm; admm-lasso: lasso-synthetic, squared loss, l1 0.01), K (100;
// federated 2000 rounds of m users; decentralized 200 n walk steps, one user each), gamma (the prox step gamma_p of
// prox_{gamma f_i}, 10; admm-lasso: the printed gamma, default 10 n, record step gamma/(2n) = 5), lambda (1; 0.5
// for the sampled variants), sigma (noise std of eta, 2), C (clipping of x_i - z, 0 = none; default 0.05: the
// sensitivity is 2C and the fixed point is unchanged), delta (1e-6), account (on; off: no accountant, for tuning
// runs). admm-federated: m (users per round, default
// round(n/10)); admm-lasso: scaling (fixed | printed). With sigma=0 every default run reaches suboptimality < 1e-6.
RunResult run_admm_centralized(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress = {});
RunResult run_admm_federated(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress = {});
RunResult run_admm_decentralized(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress = {});
RunResult run_admm_lasso(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress = {});

}  // namespace dpl::algorithms::seed003
