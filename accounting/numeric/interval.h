// SPDX-License-Identifier: Apache-2.0
// The one high-precision interval type used for every reported bound (MPFI through Boost.Multiprecision),
// plus the few operations Boost does not give us with certified directed rounding.
#pragma once

#include <boost/multiprecision/mpfi.hpp>
#include <boost/multiprecision/mpfr.hpp>

#include <cstdint>
#include <string>

namespace dpl {

// 60 decimal digits (~200 bits) per endpoint: accurate far beyond anything printed; widths are tracked.
inline constexpr unsigned kDigits10 = 60;

using Interval = boost::multiprecision::number<boost::multiprecision::mpfi_float_backend<kDigits10>,
                                               boost::multiprecision::et_off>;
using Real = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<kDigits10>,
                                           boost::multiprecision::et_off>;

// The exact binary64 value of x as a degenerate interval (no rounding: double fits in 200 bits).
Interval exact(double x);
// The exact integer n as an interval.
Interval exact_int(std::int64_t n);
// [lo, hi] from two reals; requires lo <= hi.
Interval make_interval(const Real& lo, const Real& hi);
// The real x (any value that converts to Real exactly: a double, an integer, an endpoint) as a degenerate interval.
inline Interval exact_real(const Real& x) { return make_interval(x, x); }
// The interval enclosing the decimal string s (e.g. "0.1" is not a double; this encloses it).
Interval from_decimal(const std::string& s);

Real lo(const Interval& x);
Real hi(const Interval& x);
Real mid(const Interval& x);
Real width(const Interval& x);
// Endpoints converted to double in the safe direction: lower rounded down, upper rounded up.
double lo_down(const Interval& x);
double hi_up(const Interval& x);
double mid_double(const Interval& x);

// Certain comparisons: true only if every point of a is below / above every point of b.
bool certainly_lt(const Interval& a, const Interval& b);
bool certainly_le(const Interval& a, const Interval& b);
bool certainly_gt(const Interval& a, const Interval& b);
bool certainly_ge(const Interval& a, const Interval& b);
bool contains(const Interval& x, const Real& v);
bool contains_zero(const Interval& x);
bool is_finite(const Interval& x);

// Interval hull and intersection.
Interval hull(const Interval& a, const Interval& b);
// max / min of two intervals, pointwise (certified: encloses max(x, y) for every x in a, y in b).
Interval imax(const Interval& a, const Interval& b);
Interval imin(const Interval& a, const Interval& b);
// Clamp a quantity known to be >= 0 (e.g. a probability) to that range.
Interval clamp_nonnegative(const Interval& x);

// Constants.
Interval pi();
Interval log2();
Interval positive_infinity();

// Elementary functions with certified enclosures (MPFI does exp, log, log1p, expm1, sqrt, pow).
Interval erfc(const Interval& x);                    // MPFR erfc with RNDD/RNDU at the endpoints (decreasing)
Interval erf(const Interval& x);                     // via MPFR erf, increasing
Interval normal_cdf(const Interval& x);              // Phi(x) = erfc(-x / sqrt 2) / 2
Interval log_normal_cdf(const Interval& x);          // log Phi(x), no underflow for x down to -1e8
Interval lgamma(const Interval& x);                  // log Gamma(x) for x > 0 (MPFR lngamma, directed)

}  // namespace dpl
