// SPDX-License-Identifier: Apache-2.0
// Seed 000 Algorithm 2* (Xiao 2019, Appendix E, (E.1)): every agent, every iteration and coordinate, draws its
// aggregate uniformly between the min and the max of its closed neighbourhood's states:
// x_i^{k+1}[l] = w min_{j in N~_i} x_j^k[l] + (1 - w) max_{j in N~_i} x_j^k[l] - eta_{k+1} grad f_i(x_i^k)[l]
// + Lap(rate beta_{k+1}), w ~ U(0,1). Privacy as Algorithm 1 with omega = max - min, s = eta_{k+1} B_inf.
#pragma once

#include <cstdint>

#include "accounting/progress_callback.h"
#include "algorithms/run/run_parameters.h"
#include "algorithms/run/run_result.h"

namespace dpl::algorithms {

// Parameters: the problem keys (defaults agents 10, graph random, edges 40: example (c)), K (100, at most 1e5), eta0 (1),
// eta_decay (0.93): eta_k = eta0 eta_decay^k, beta0 (10; the thesis's 1 diverges here, see the .cpp), growth
// (1.02), random_weights (on; off: w = 1/2), noise (on), target (0), domain (unit-rows), b_inf (0 = from the
// domain), gamma (bound, the default | auto | exact: how the expected loss evaluates gamma, see random_aggregation_privacy.h),
// average_case (on), output (ergodic: (1/K) sum_k of the network averages, Sec. 3.3 (3.11) | last).
// Trace: iteration 0 = x^0; states broadcast (messages empty).
RunResult run_dsgd_random_aggregation_minmax(RunParameters& params, std::uint64_t seed,
                                             const ProgressCallback& progress = {});

}  // namespace dpl::algorithms
