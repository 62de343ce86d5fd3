// SPDX-License-Identifier: Apache-2.0
// The dominating pair of the mixture-of-Gaussians mechanism (dp_accounting's MixtureOfGaussiansDpEvent):
// N(0, sigma^2) against sum_i p_i N(c_i, sigma^2), c_i >= 0, in both neighbouring directions. It is the scalar pair
// that dominates a vector-valued mixture whose sensitivity vectors have norms c_i (Choquette-Choo, Ganesh, Steinke
// and Thakurta 2023, "Privacy amplification for matrix mechanisms", Cor. 4.7), e.g. banded matrix factorisation
// with cyclic Poisson sampling; with c = (0, 1) and p = (1 - q, q) it is the Poisson-subsampled Gaussian.
#pragma once

#include "accounting/pld/loss_pair.h"

#include <vector>

namespace dpl {

// remove: P = sum_i p_i N(c_i, sigma^2), Q = N(0, sigma^2); add: the two swapped. The loss
// F(z) = log sum_i p_i e^{s_i z - s_i^2/2} (z = x/sigma, s_i = c_i/sigma) is convex and increasing in z, so
// P(L > l) = sum_i p_i Phi-bar(z*(l) - s_i), Q(L > l) = Phi-bar(z*(l)) with F(z*(l)) = l (and the mirror images for
// add), z*(l) by Newton's method from the right (monotone convergence for a convex increasing F) in long double
// to a few ulps. Exact pair; survival values to a few 1e-16 relative (the existing Gaussian pairs' budget).
LossPair mixture_of_gaussians_pair(double sigma, const std::vector<double>& sens, const std::vector<double>& probs,
                                   PairDirection d);

}  // namespace dpl
