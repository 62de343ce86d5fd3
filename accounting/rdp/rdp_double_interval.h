// SPDX-License-Identifier: Apache-2.0
// Interval arithmetic on binary64 for the fast certified RDP evaluation (docs/rdp_double_precision.md).
// +, -, *, / are correctly rounded to nearest (IEEE 754-2019, Sec. 4.3), so the exact result lies within half an
// ulp of the computed one; widening each result by one ulp outward (nextafter) therefore encloses it, in the
// subnormal range too. exp is a Taylor polynomial with a proven remainder (rdp_double_exp.h); expm1, log and
// log1p come from MPFR at 53 bits with directed rounding (proven correctly rounded, Fousse et al. 2007). An
// overflow makes an endpoint infinite: the caller then falls back to the 200-bit MPFI evaluation.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace dpl {

struct DoubleInterval {
  double lo = 0, hi = 0;

  static DoubleInterval point(double x) { return {x, x}; }
  bool finite() const { return std::isfinite(lo) && std::isfinite(hi); }
  // Relative width (hi - lo) / |lo|, +inf when lo = 0 and hi > 0.
  double relative_width() const;
};

// One ulp outward: encloses any correctly rounded-to-nearest result of an exact value in [lo, hi]. The same
// values as std::nextafter towards +-inf, inline (the interval operations call it twice each): for finite
// non-zero x of magnitude below DBL_MAX the neighbour is the adjacent bit pattern; 0, +-DBL_MAX, infinities and
// NaN go to std::nextafter.
inline double up(double x) {
  constexpr double kMax = std::numeric_limits<double>::max();
  if (!(x > -kMax && x < kMax) || x == 0) return std::nextafter(x, std::numeric_limits<double>::infinity());
  const auto bits = std::bit_cast<std::uint64_t>(x);
  return std::bit_cast<double>(x > 0 ? bits + 1 : bits - 1);
}
inline double down(double x) { return -up(-x); }

// Inline: the sums of the RDP curves call them millions of times.
inline DoubleInterval operator+(const DoubleInterval& a, const DoubleInterval& b) {
  return {down(a.lo + b.lo), up(a.hi + b.hi)};
}
inline DoubleInterval operator-(const DoubleInterval& a, const DoubleInterval& b) {
  return {down(a.lo - b.hi), up(a.hi - b.lo)};
}
inline DoubleInterval operator*(const DoubleInterval& a, const DoubleInterval& b) {
  if (a.lo >= 0 && b.lo >= 0) return {down(a.lo * b.lo), up(a.hi * b.hi)};  // the common case: both non-negative
  const double p0 = a.lo * b.lo, p1 = a.lo * b.hi, p2 = a.hi * b.lo, p3 = a.hi * b.hi;
  return {down(std::fmin(std::fmin(p0, p1), std::fmin(p2, p3))), up(std::fmax(std::fmax(p0, p1), std::fmax(p2, p3)))};
}
// Requires 0 not in b.
inline DoubleInterval operator/(const DoubleInterval& a, const DoubleInterval& b) {
  if (a.lo >= 0 && b.lo > 0) return {down(a.lo / b.hi), up(a.hi / b.lo)};
  const double p0 = a.lo / b.lo, p1 = a.lo / b.hi, p2 = a.hi / b.lo, p3 = a.hi / b.hi;
  return {down(std::fmin(std::fmin(p0, p1), std::fmin(p2, p3))), up(std::fmax(std::fmax(p0, p1), std::fmax(p2, p3)))};
}
DoubleInterval abs(const DoubleInterval& a);

// Endpoints rounded outward (all four functions are monotone); exp by rdp_double_exp.h, the others by MPFR.
DoubleInterval exp(const DoubleInterval& x);
DoubleInterval log(const DoubleInterval& x);    // requires lo > 0
DoubleInterval log1p(const DoubleInterval& x);  // requires lo > -1
DoubleInterval expm1(const DoubleInterval& x);
// log(e^c - 1) for c > 0 (increasing), without overflow for large c.
DoubleInterval log_expm1(const DoubleInterval& c);
// The upper ends alone (one MPFR call instead of two): log x and log1p x rounded up.
double log_up(double x);    // requires x > 0
double log1p_up(double x);  // requires x > -1
// Phi(x) = erfc(-x / sqrt 2) / 2, increasing in x (enclosed without erfc: rdp_normal_cdf_enclosure.h).
DoubleInterval normal_cdf(const DoubleInterval& x);
// e^{l} Phi(x) for l and x enclosed; increasing in both. For x <= -1 formed as e^{l - x^2/2 - log sqrt(2 pi)} times
// the Mills ratio (rdp_normal_cdf_enclosure.h), so e^{l} may exceed binary64 where the product does not.
DoubleInterval exp_times_normal_cdf(const DoubleInterval& l, const DoubleInterval& x);
// w (e^{x} - 1) for w >= 0 and x >= 0 enclosed, the product formed in MPFR's exponent range; increasing in both.
DoubleInterval times_expm1(const DoubleInterval& w, const DoubleInterval& x);

}  // namespace dpl
