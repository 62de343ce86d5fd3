// SPDX-License-Identifier: Apache-2.0
// Privacy amplification by shuffling (Feldman, McMillan and Talwar 2021, "Hiding among the clones: a simple and
// nearly optimal analysis of privacy amplification by shuffling", FOCS 2021): the dominating pair of n users' eps0-DP
// local reports, shuffled.
#pragma once

#include "accounting/pld/loss_pair.h"

#include <cstdint>

namespace dpl {

// FMT 2021, Sec. 3 (the clone reduction): for neighbouring datasets (one user's data changed) there is one
// post-processing f with shuffled(D) = f(A + D, C - A + 1 - D) and shuffled(D') = f(A + 1 - D, C - A + D), where C ~ Bin(n - 1, e^{-eps0}),
// A ~ Bin(C, 1/2), D ~ Bern(e^{eps0}/(e^{eps0} + 1)). So that pair of distributions dominates the shuffler in the
// Blackwell sense: it composes like any mechanism's pair (the numerical bound of FMT 2021, Appendix E, is its delta(eps)).
// Given C = c the first coordinate x has P-mass a b_c(x) + (1 - a) b_c(x - 1) and Q-mass a b_c(x - 1) + (1 - a) b_c(x),
// b_c = Bin(c, 1/2), a = e^{eps0}/(e^{eps0} + 1), so the loss is log((a (c + 1 - x) + (1 - a) x)/(a x + (1 - a)(c + 1 - x)))
// (in [-eps0, eps0]). The atoms (c, x) within 1e-32 tails of C (Chernoff) and of each b_c (Hoeffding) are
// enumerated; the rest is at loss +inf (pessimistic) or dropped (optimistic). Symmetric (swapping the coordinates
// swaps P and Q). Throws NotApplicable above 1.2e8 atoms (n of a few million at eps0 = 1).
LossPair shuffle_pair(double eps0, std::int64_t n);

}  // namespace dpl
