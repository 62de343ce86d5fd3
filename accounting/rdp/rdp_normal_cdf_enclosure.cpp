// SPDX-License-Identifier: Apache-2.0
#include "accounting/rdp/rdp_normal_cdf_enclosure.h"

#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace dpl {

namespace {

using DI = DoubleInterval;

DI hull(const DI& a, const DI& b) { return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)}; }

// A constant enclosed by MPFR at 53 bits, rounded down and up.
DI mpfr_constant(void (*set)(mpfr_ptr, mpfr_rnd_t)) {
  mpfr_t x;
  mpfr_init2(x, 53);
  set(x, MPFR_RNDD);
  const double lo = mpfr_get_d(x, MPFR_RNDD);
  set(x, MPFR_RNDU);
  const double hi = mpfr_get_d(x, MPFR_RNDU);
  mpfr_clear(x);
  return {lo, hi};
}
// log sqrt(2 pi) = log(2 pi)/2, from MPFR's pi (correctly rounded both ways).
const DI& pi_enclosed() {
  static const DI pi = mpfr_constant([](mpfr_ptr x, mpfr_rnd_t r) { mpfr_const_pi(x, r); });
  return pi;
}
const DI& log_sqrt_2pi() {
  static const DI v = [] {
    const DI two_pi = DI::point(2) * pi_enclosed();
    const DI l = log(two_pi);
    return DI{down(l.lo / 2), up(l.hi / 2)};
  }();
  return v;
}

// The n-th convergent of K(a_k / t) with a_1 = 1, a_k = k - 1, evaluated backwards: s_n = t, s_k = t + k / s_{k+1}
// down to k = 1, convergent 1 / s_1. Every quantity is positive; interval operations keep it enclosed.
DI convergent(double t, int n) {
  const DI T = DI::point(t);
  DI s = T;
  for (int k = n - 1; k >= 1; --k) s = T + DI::point(static_cast<double>(k)) / s;
  return DI::point(1) / s;
}

}  // namespace

// A&S 26.2.14 with the bracketing property of continued fractions with positive elements: by the determinant
// formula f_n - f_{n-1} = (-1)^{n-1} a_1...a_n / (B_n B_{n-1}) with all B_n > 0, the odd convergents decrease, the
// even ones increase, and every odd one exceeds every even one; the fraction converges for t > 0 (Laplace), so
// R(t) lies between f_n and f_{n+1}. Enclosure.
DoubleInterval mills_ratio(double t) {
  if (!(t >= 1)) return {0, std::numeric_limits<double>::infinity()};
  if (t > 0x1p60) {  // f_1 = 1/t and f_2 = 1/(t + 1/t) already agree to 2^-120 relative
    const DI T = DI::point(t);
    return hull(DI::point(1) / T, DI::point(1) / (T + DI::point(1) / T));
  }
  // Terms needed for 2^-52 (measured: 174 at t = 1.5, 113 at 2, 51 at 3, 41 at 4, 23 at 6, 14 at 10), then doubled until the
  // bracket is within 2^-50 relative or the two enclosures overlap (rounding, not truncation, sets the width).
  DI r{0, std::numeric_limits<double>::infinity()};
  for (int n = 14 + static_cast<int>(450 / (t * t)); n <= 4096; n *= 2) {
    const DI fn = convergent(t, n), fn1 = convergent(t, n + 1);
    r = hull(fn, fn1);
    if (r.hi - r.lo <= 0x1p-50 * r.lo || (fn.lo <= fn1.hi && fn1.lo <= fn.hi)) break;
  }
  return r;
}

// Phi(x) for -1 < x < 2 (where 1 - erf loses at most 2 bits): erf(|x|/sqrt 2) = sqrt(2/pi) |x| e^{-x^2/2} S, S = sum_n x^{2n}/(2n+1)!! (A&S 7.1.6), terms
// s_{n+1} = s_n x^2/(2n+3) positive; once the ratio r_n = x^2/(2n+3) is at most 1/2 (later ratios are smaller),
// the remainder s_{n+1} + s_{n+2} + ... is at most s_{n+1}/(1 - r_n) <= 2 s_{n+1}, added as [0, 2 s_{n+1}]. Elsewhere the Mills ratio:
// Phi(x) = 1 - phi(x) R(x) for x >= 2 and phi(x) R(-x) for x <= -1. Enclosure.
DoubleInterval normal_cdf_at(double x) {
  if (std::isnan(x)) return {0, 1};
  if (x <= -1) return exp_times_normal_cdf_at(0, x);
  const DI X = DI::point(x), x2 = X * X;
  const DI phi = exp(DI::point(0) - x2 / DI::point(2) - log_sqrt_2pi());  // phi(x), the density
  if (x >= 2) {
    // For x >= 8, 1 - Phi(x) = phi(x) R(x) < 6e-17 with t/(t^2+1) < R(t) < 1/t (the first two convergents): the
    // bracket [0, phi(x)/x] is then tight enough and costs no continued fraction.
    const DI tail = x >= 8 ? DI{0, (phi / X).hi} : phi * mills_ratio(x);
    return {std::max(0.0, down(1 - tail.hi)), std::min(1.0, up(1 - tail.lo))};
  }
  DI sum = DI::point(1), s = DI::point(1);
  bool closed = false;  // the remainder has been added (always by n ~ 40 for x^2 < 4)
  for (int n = 0; n < 200 && !closed; ++n) {
    const double rn = x2.hi / (2 * n + 3);  // an upper bound on the ratio, up to one ulp
    s = s * x2 / DI::point(2 * n + 3);
    if (up(rn) <= 0.5 && s.hi <= 0x1p-60 * sum.lo) {  // s_{n+1} and all later terms: at most 2 s_{n+1}
      sum = sum + DI{0, 2 * s.hi};
      closed = true;
    } else {
      sum = sum + s;
    }
  }
  if (!closed) return {0, 1};
  // sqrt(2/pi) |x| e^{-x^2/2} = 2 |x| phi(x).
  const DI erf = DI::point(2 * std::fabs(x)) * phi * sum;
  const DI half = x >= 0 ? DI::point(1) + erf : DI::point(1) - erf;
  return {std::max(0.0, down(half.lo / 2)), std::min(1.0, up(half.hi / 2))};
}

DoubleInterval exp_times_normal_cdf_at(double l, double x) {
  if (x <= -1) {
    const DI X = DI::point(x);
    return exp(DI::point(l) - X * X / DI::point(2) - log_sqrt_2pi()) * mills_ratio(-x);
  }
  return exp(DI::point(l)) * normal_cdf_at(x);
}

}  // namespace dpl
