// SPDX-License-Identifier: Apache-2.0
// The sum S = sum_{k>=0} (-1)^k g_k of an alternating series whose magnitudes are the moments of a positive measure,
// g_k = int_[0,1] t^k dmu(t) (equivalently g_k = f(k0 + k) for a completely monotone f, Bernstein), enclosed from
// its first n magnitudes (Cohen, Rodriguez Villegas and Zagier, "Convergence acceleration of alternating series",
// Experimental Mathematics 9 (2000), Prop. 1): with P(x) = T_n(1 - 2x) (|P| <= 1 on [0,1]) and d = P(-1) = T_n(3),
// S_n = (1/d) sum_{k<n} e_k g_k where (d - P(x))/(1 + x) = sum_{k<n} e_k x^k, and S - S_n = (1/d) int P(t)/(1 + t) dmu,
// so |S - S_n| <= S/d. For n <= 20 every e_k and d is an integer below 2^53 (exact in binary64); T_20(3) ~ 1.0e15.
// Used for the tails of the fractional-order subsampled-Gaussian series (docs/rdp_fractional_tail.md), whose terms
// decay only like i^{-a-2}.
#pragma once

#include "accounting/rdp/rdp_double_interval.h"

#include <span>

namespace dpl {

// The certified enclosures use 20 magnitudes (|S - S_n| <= 1e-15 S), the float64 estimates 12 (1.3e-9 S, plenty for
// choosing an order).
inline constexpr int kAlternatingTerms = 20;
inline constexpr int kAlternatingEstimateTerms = 12;

// Encloses S from enclosures of g_0 .. g_{n-1}, 2 <= n <= 20 (the caller guarantees the moment property; any g_k may be
// wide): [S_n / (1 + 1/d), S_n / (1 - 1/d)] with S_n enclosed; lower end >= 0.
DoubleInterval alternating_moment_sum(std::span<const DoubleInterval> g);
// The float64 value S_n from g_0 .. g_{n-1}, 2 <= n <= 20 (an estimate).
double alternating_moment_sum_estimate(std::span<const double> g);
// d = T_n(3) for 2 <= n <= 20 (for the tests).
double alternating_moment_sum_denominator(int n);

}  // namespace dpl
