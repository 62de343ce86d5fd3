// SPDX-License-Identifier: Apache-2.0
// The exact delta(eps) of composing pure-DP mechanisms in two groups (k1 steps of eps1-DP, k2 steps of eps2-DP):
// every eps_i-DP mechanism is a post-processing of randomized response with parameter eps_i (Kairouz, Oh and
// Viswanath 2015), so the composition's privacy profile is that of the composed randomized responses:
// delta(eps) = sum_{j1, j2} P(j1, j2) (1 - e^{eps - L(j1, j2)})_+, L = (k1 - 2 j1) eps1 + (k2 - 2 j2) eps2, with j_g
// ~ Binomial(k_g, 1/(1 + e^{eps_g})) independent. Evaluated term by term in log space (lgamma) in double precision;
// used by the checks of the papers' advanced-composition formulas (an independent recomputation, not the
// accounting library's).
#pragma once

#include <cstdint>

namespace dpl::proofs {

// Throws NotApplicable for more than 10^7 terms; eps1, eps2 > 0 (k2 may be 0).
double exact_pure_composition_delta(double eps1, std::int64_t k1, double eps2, std::int64_t k2, double eps);

}  // namespace dpl::proofs
