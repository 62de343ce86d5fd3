// SPDX-License-Identifier: Apache-2.0
// Seed 000 Algorithm 1 (Xiao 2019, Sec. 2.2): private linearised ADMM with random local aggregation, in the
// executable reading for a general graph (the thesis, Sec. 2.2): per agent, iteration and coordinate
// r ~ U(0,1), x_i^{k+1}[l] = r x_i^k[l] + (1 - r) mean_{j in N_i} x_j^k[l] - grad f_i(x_i^k)[l]/D + lambda_i^k[l]/D
// + Lap(rate beta_{k+1}), then lambda_i^{k+1} = lambda_i^k + zeta sum_{j in N_i}(x_j^{k+1} - x_i^{k+1})
// (the sign corrected, docs/xiao2019.md E4; the printed '-' is available and diverges).
#pragma once

#include <cstdint>

#include "accounting/progress_callback.h"
#include "algorithms/run/run_parameters.h"
#include "algorithms/run/run_result.h"

namespace dpl::algorithms {

// Parameters: the problem keys (defaults agents 10, graph random, edges 20), K (100, at most 1e5: the trace is kept in memory), D (10), zeta (0.5),
// beta0 (2; the thesis's 1 costs eps 33.5 here and does not beat the start, see the .cpp), growth (1.02): beta_k =
// beta0 growth^k; output (last | ergodic: Thm 3.1.2's average of the iterates); random_weights (on; off: r = 1/2, gamma = 1), dual_sign
// (corrected | printed), noise (on), target (agent accounted, 0), domain (unit-rows), b_inf (0 = the
// domain's replace-one bound 2/b_i; the thesis uses the one-sided 1/b_i), gamma (bound, the default | auto | exact: how
// the expected loss evaluates gamma, see random_aggregation_privacy.h), average_case (on: exact expected loss).
// Trace: iteration 0 is x^0; states are broadcast (messages empty). A diverging run (|x| >= 1e150) stops early
// with extra.diverged = true.
RunResult run_admm_random_aggregation(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress = {});

}  // namespace dpl::algorithms
