// SPDX-License-Identifier: Apache-2.0
// Seed 000 Sec. 2.1 (Xiao 2019): Gaussian DGD on the complete graph whose states are summed through additive
// N-out-of-N secret sharing mod p; Theorem 2.1.1 claims (eps/sqrt(N'), delta) central DP with N' semi-honest
// (non-colluding) agents.
#pragma once

#include <cstdint>

#include "accounting/progress_callback.h"
#include "algorithms/run/run_parameters.h"
#include "algorithms/run/run_result.h"

namespace dpl::algorithms {

// Parameters: the problem keys of setup_problem (graph must be complete; default agents 10), K (50, at most 1e5), eta (0.5),
// sigma (0.1), delta (1e-5), honest (N'; 0 = all agents), frac_bits (32), noise (on). Trace: iteration 0 is the
// initial state; messages are the broadcast share sums (elements of Z_p, p = 2^61 - 1, as doubles).
RunResult run_dgd_secret_sharing(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress = {});

}  // namespace dpl::algorithms
