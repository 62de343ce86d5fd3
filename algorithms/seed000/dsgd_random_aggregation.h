// SPDX-License-Identifier: Apache-2.0
// Seed 000 Algorithm 2 (Xiao 2019, Sec. 2.2, eq. (2.3)): the N agents are split at random into 2K groups; at
// iteration k the agents of S_{2k+1} and S_{2k+2} each release x_i = w y_1^k + (1 - w) y_2^k
// - eta_{k+1} c grad f_i((y_1^k + y_2^k)/2) + Lap(rate beta_{k+1}) with w ~ U(0,1)^d, and y_1^{k+1}, y_2^{k+1} are
// the two groups' means. Every agent acts once, so its loss is one step's (no composition over K).
#pragma once

#include <cstdint>

#include "accounting/progress_callback.h"
#include "algorithms/run/run_parameters.h"
#include "algorithms/run/run_result.h"

namespace dpl::algorithms {

// Parameters: the problem keys (defaults agents 100, graph complete), K (25; needs agents >= 2K),
// eta0 (1), eta_decay (0.95): eta_k = eta0 eta_decay^k (App. E (d)), beta0 (1), growth (1.02),
// scaling (rescaled: c = 1, the (I.1) form, sensitivity eta_{k+1} B_inf | printed: c = N as in (2.3),
// sensitivity eta_{k+1} N B_inf; docs/xiao2019.md E9), random_weights (on), noise (on), target (0), domain (unit-rows), b_inf (0 = from
// the domain), gamma (bound, the default | auto | exact: how
// the expected loss evaluates gamma, see random_aggregation_privacy.h), average_case (on), output (ergodic: sum_k (y1^k
// + y2^k)/(2K), Thm 3.2.1 | last: (y1^K + y2^K)/2). Trace: states = [y1; y2] (iteration 0 = initial), messages = the
// x_i released at that iteration.
RunResult run_dsgd_random_aggregation(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress = {});

}  // namespace dpl::algorithms
