// Interval arithmetic on binary64 for the fast certified RDP evaluation (docs/rdp_double_precision.md).
// +, -, *, / are correctly rounded to nearest (IEEE 754-2019, Sec. 4.3), so the exact result lies within half an
// ulp of the computed one; widening each result by one ulp outward (nextafter) therefore encloses it, in the
// subnormal range too. exp, log, log1p and erfc come from MPFR at 53 bits with directed rounding (proven
// correctly rounded, Fousse et al. 2007). An overflow makes an endpoint infinite: the caller then falls back to
// the 200-bit MPFI evaluation.
#pragma once

#include <cmath>
#include <limits>

namespace dpl {

struct DoubleInterval {
  double lo = 0, hi = 0;

  static DoubleInterval point(double x) { return {x, x}; }
  bool finite() const { return std::isfinite(lo) && std::isfinite(hi); }
  // Relative width (hi - lo) / |lo|, +inf when lo = 0 and hi > 0.
  double relative_width() const;
};

// One ulp outward: encloses any correctly rounded-to-nearest result of an exact value in [lo, hi].
inline double down(double x) { return std::nextafter(x, -std::numeric_limits<double>::infinity()); }
inline double up(double x) { return std::nextafter(x, std::numeric_limits<double>::infinity()); }

DoubleInterval operator+(const DoubleInterval& a, const DoubleInterval& b);
DoubleInterval operator-(const DoubleInterval& a, const DoubleInterval& b);
DoubleInterval operator*(const DoubleInterval& a, const DoubleInterval& b);
// Requires 0 not in b.
DoubleInterval operator/(const DoubleInterval& a, const DoubleInterval& b);
DoubleInterval abs(const DoubleInterval& a);

// MPFR at 53 bits, endpoints rounded outward (all four functions are monotone).
DoubleInterval exp(const DoubleInterval& x);
DoubleInterval log(const DoubleInterval& x);    // requires lo > 0
DoubleInterval log1p(const DoubleInterval& x);  // requires lo > -1
// Phi(x) = erfc(-x / sqrt 2) / 2, increasing in x.
DoubleInterval normal_cdf(const DoubleInterval& x);
// e^{l} Phi(x) for l and x enclosed, with the product formed in MPFR's exponent range (e^{l} may overflow binary64
// while the product does not); increasing in both arguments.
DoubleInterval exp_times_normal_cdf(const DoubleInterval& l, const DoubleInterval& x);
// w (e^{x} - 1) for w >= 0 and x >= 0 enclosed, the product formed in MPFR's exponent range; increasing in both.
DoubleInterval times_expm1(const DoubleInterval& w, const DoubleInterval& x);

}  // namespace dpl
