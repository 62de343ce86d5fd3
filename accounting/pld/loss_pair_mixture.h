// SPDX-License-Identifier: Apache-2.0
// The labelled mixture of dominating pairs: with probability w_i the i-th pair is run and its index released
// (truncated Poisson sampling, sampling with replacement). It dominates the unlabelled mixture (forgetting the
// index is post-processing); its privacy-loss survival functions are the w-weighted sums of the parts'.
#pragma once

#include "accounting/pld/loss_pair.h"

#include <utility>
#include <vector>

namespace dpl {

// `parts`: (weight, pair), the weights doubles within 2 ulps (relative) of the exact probabilities, which sum to
// at most 1; `extra_p_inf`: probability of further parts left out, at loss +inf in the pessimistic pair and dropped
// from the optimistic variant (built from the parts' optimistic variants). The survival values carry the parts'
// relative errors plus 2 ulps (inside the 1e-15 margin of docs/pld_accountant.md, 1, for parts within 7e-16).
LossPair labeled_mixture(std::vector<std::pair<double, LossPair>> parts, double extra_p_inf);

}  // namespace dpl
