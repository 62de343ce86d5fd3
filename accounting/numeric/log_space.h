// SPDX-License-Identifier: Apache-2.0
// Log-space arithmetic on certified intervals: sums of exponentials without overflow or cancellation.
#pragma once

#include "accounting/numeric/interval.h"
#include "accounting/numeric/portable_math.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>

namespace dpl {

// log(e^a + e^b), stable for any magnitudes (a, b may be -inf).
Interval log_add_exp(const Interval& a, const Interval& b);
// The same in binary64, rounded to nearest (a few ulps): for estimates and running sums that are not reported as
// bounds, or that a certified step bounds later.
inline double log_add_exp(double a, double b) {
  if (a == -std::numeric_limits<double>::infinity()) return b;
  if (b == -std::numeric_limits<double>::infinity()) return a;
  if (a < b) std::swap(a, b);
  // exp(b - a) underflows to 0 below -745 (the same result), but through glibc's slow errno path: skipped.
  if (b - a < -746) return a;
  return a + portable::binary64::log1p(portable::binary64::exp(b - a));
}
// log(e^a - e^b) for a > b certainly; uses log1mexp(b - a).
Interval log_sub_exp(const Interval& a, const Interval& b);
// log(sum_i e^{x_i}); empty span gives -inf.
Interval log_sum_exp(std::span<const Interval> xs);
// log(1 - e^x) for x < 0 (Maechler 2012: log(-expm1(x)) for x > -log 2, log1p(-exp(x)) otherwise).
Interval log1mexp(const Interval& x);
// log(e^x - 1) for x > 0, i.e. x + log1mexp(-x).
Interval logexpm1(const Interval& x);
// log C(n, k) for integers 0 <= k <= n (lgamma, certified).
Interval log_binomial(std::int64_t n, std::int64_t k);
// log C(n, k) for real n >= 0 and integer k >= 0 via the generalised binomial |C(n,k)| (lgamma-free form used
// when n is not an integer: product form for small k); sign returned separately.
Interval log_abs_binomial_real(const Interval& n, std::int64_t k, int* sign);
// log erfc(x), certified, without underflow for large x (uses log_normal_cdf).
Interval log_erfc(const Interval& x);
// -inf as an interval.
Interval negative_infinity();

}  // namespace dpl
