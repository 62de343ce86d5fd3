// SPDX-License-Identifier: Apache-2.0
// Exact dominating pairs of three mechanisms with integer outputs, as atoms (accounting/pld/loss_pair_atoms.h).
#pragma once

#include "accounting/pld/loss_pair.h"

#include <cstdint>

namespace dpl {

// k-ary randomized response, dp_accounting's RandomizedResponseDpEvent(p, k), replace-one: P = (A, B, ..., B),
// Q = (B, A, B, ..., B), A = 1 - p + p/k, B = p/k: losses +log(A/B) (P-mass A), -log(A/B) (B) and 0 ((k - 2) B).
// Exact (dp_accounting's privacy_loss_distribution.from_randomized_response, REPLACE_ONE).
LossPair k_randomized_response_pair(double p, std::int64_t k);

// Discrete Laplace noise tanh(a/2) e^{-a|x|}, integer sensitivity s: P = DLap(0), Q = DLap(s), loss a(|x - s| - |x|):
// a s on x <= 0 (P-mass 1/(1 + e^{-a})), -a s on x >= s (e^{-a s}/(1 + e^{-a})), a (s - 2x) at 0 < x < s
// (tanh(a/2) e^{-a x}). Symmetric; shift s is the worst case (monotone likelihood ratio). Exact. s <= 1e6.
LossPair discrete_laplace_pair(double a, std::int64_t s);

// The univariate discrete Gaussian, pmf e^{-x^2/(2 sigma^2)}/Theta on the integers (Canonne, Kamath and Steinke 2020,
// Def. 1), integer shift s: loss (s^2 - 2 s x)/(2 sigma^2) at x (the normalisers cancel), P-mass e^{-x^2/(2 sigma^2)}/Theta
// (CKS 2020, Thm 7 reads delta(eps) off this pair). The atoms with |x| > X are left out, their mass bounded by
// 2 e^{-X^2/(2 sigma^2)}/(1 - e^{-X/sigma^2}) / Theta < 1e-30. Throws NotApplicable when more than 4e7 atoms would be
// needed (sigma above ~1.7e6). Exact up to that tail.
LossPair discrete_gaussian_pair(double sigma, std::int64_t s);

}  // namespace dpl
