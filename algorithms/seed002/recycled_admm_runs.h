// SPDX-License-Identifier: Apache-2.0
// `dpledger run` entries of seed 002 (Zhang, Khalili and Liu, "Recycled ADMM: Improve Privacy and Accuracy with
// Less Computation in Distributed Algorithms"): `admm` (conventional decentralised ADMM, eqs. (8)-(9)), `radmm`
// (Algorithm 1), `private-radmm` (Algorithm 2, Theorem IV.1) and `dvp-admm` (the dual-variable-perturbation
// baseline of Zhang and Zhu 2017 the paper compares with).
//
// Shared keys: the problem keys (defaults: shipped breast_cancer data, since the paper's Adult set is not
// shipped; 5 agents on a random connected graph with 7 edges, as the paper's small "randomly generated"
// network; logistic loss, l2 0.1; l1 must be 0), C (loss weight, O_i = C f_i, 1; rho/N = C l2), eta, newton_tol
// (1e-12: Newton stops at KKT residual <= newton_tol * max(1, ||linear term||)). Iterations: T (admm, dvp-admm)
// or K (R-ADMM, T = 2K). Trace: iteration 0 is f(0) (random, data-independent), then every broadcast f(t).
#pragma once

#include "accounting/progress_callback.h"
#include "algorithms/run/run_parameters.h"
#include "algorithms/run/run_result.h"

#include <cstdint>

namespace dpl::algorithms {

// Keys: T (200), eta (0.5, the paper's Fig. 1), C, newton_tol. No noise, no privacy.
RunResult run_admm(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress = {});
// Keys: K (100), eta (0.5), gamma (0.2), C, newton_tol. No noise, no privacy.
RunResult run_radmm(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress = {});
// Keys: K (10), eta (1, Fig. 2), gamma (0.2, Fig. 2), alpha (2, Fig. 2), alpha_growth (1: alpha_i(k) = alpha
// growth^{k-1}, the same for every agent as in the paper), noise (on), delta (1e-5: the (eps, delta) figure next
// to the pure one), C (100 here: the paper does not give it), newton_tol.
RunResult run_private_radmm(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress = {});
// Keys: T (20), eta (1), zeta (0 = auto: the largest rate whose total bound does not exceed private R-ADMM's
// at alpha_match and K = T/2, as the paper matches the baselines' total bounds), alpha_match (2), phi (0),
// noise (on), delta (1e-5), C (100, as private-radmm), newton_tol.
RunResult run_dvp_admm(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress = {});

}  // namespace dpl::algorithms
