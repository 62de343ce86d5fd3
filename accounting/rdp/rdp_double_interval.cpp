// SPDX-License-Identifier: Apache-2.0
#include "accounting/rdp/rdp_double_interval.h"

#include "accounting/rdp/rdp_double_exp.h"
#include "accounting/rdp/rdp_normal_cdf_enclosure.h"

#include <mpfr.h>

#include <algorithm>

namespace dpl {

namespace {

// A 53-bit MPFR scratch variable per thread (binary64 values convert exactly in and out).
struct Scratch {
  mpfr_t x;
  Scratch() { mpfr_init2(x, 53); }
  ~Scratch() { mpfr_clear(x); }
};
mpfr_ptr scratch() {
  thread_local Scratch s;
  return s.x;
}

using MpfrFn = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

// f(v) rounded in direction r: MPFR computes the correctly rounded 53-bit result, and mpfr_get_d with the same
// direction keeps it a bound when it leaves the normal range.
double directed(MpfrFn f, double v, mpfr_rnd_t r) {
  mpfr_ptr x = scratch();
  mpfr_set_d(x, v, MPFR_RNDN);  // exact
  f(x, x, r);
  return mpfr_get_d(x, r);
}

}  // namespace

double DoubleInterval::relative_width() const {
  if (lo == hi) return 0;
  if (lo == 0) return std::numeric_limits<double>::infinity();
  return (hi - lo) / std::fabs(lo);
}

DoubleInterval abs(const DoubleInterval& a) {
  if (a.lo >= 0) return a;
  if (a.hi <= 0) return {-a.hi, -a.lo};
  return {0, std::max(-a.lo, a.hi)};
}

namespace {

// e^d <= 1 + d + d^2 for 0 <= d <= 1 (e^d - 1 - d = d^2 sum_k d^{k-2}/k! <= d^2 (e - 2)), rounded up.
double growth_factor_up(double d) { return up(1 + up(d + up(d * d))); }

// An increasing function f over an interval (or a box), from `at_lower`, its enclosure at the lower end: the lower
// end is at_lower.lo; the upper end f(upper) <= f(lower) e^d, where d bounds the increase of log f across the
// interval, is at_lower.hi times growth_factor_up(d) when d <= 2^-10 (one evaluation instead of two), else
// upper_end() (f evaluated at the upper end, rounded up).
template <typename UpperEnd>
DoubleInterval from_lower_end(const DoubleInterval& at_lower, double d, const UpperEnd& upper_end) {
  if (d <= 0x1p-10) return {at_lower.lo, up(at_lower.hi * growth_factor_up(d))};
  return {at_lower.lo, upper_end()};
}

}  // namespace

// exp is increasing and log exp grows by x.hi - x.lo across x (rdp_double_exp.h for the point enclosures).
DoubleInterval exp(const DoubleInterval& x) {
  return from_lower_end(exp_enclosure(x.lo), up(x.hi - x.lo), [&] { return exp_enclosure(x.hi).hi; });
}
DoubleInterval log(const DoubleInterval& x) { return {directed(mpfr_log, x.lo, MPFR_RNDD), directed(mpfr_log, x.hi, MPFR_RNDU)}; }
double log_up(double x) { return directed(mpfr_log, x, MPFR_RNDU); }
double log1p_up(double x) { return directed(mpfr_log1p, x, MPFR_RNDU); }
DoubleInterval expm1(const DoubleInterval& x) {
  return {directed(mpfr_expm1, x.lo, MPFR_RNDD), directed(mpfr_expm1, x.hi, MPFR_RNDU)};
}
DoubleInterval log1p(const DoubleInterval& x) {
  return {directed(mpfr_log1p, x.lo, MPFR_RNDD), directed(mpfr_log1p, x.hi, MPFR_RNDU)};
}

// log(e^c - 1) = c + log1p(-u), u = e^{-c}: for c >= 20 (u < 2^-28) with -u/(1-u) <= log1p(-u) <= -u, no MPFR
// call; for c >= 1 with MPFR's log1p (no overflow of e^c); below, log(expm1(c)). Enclosure.
DoubleInterval log_expm1(const DoubleInterval& c) {
  if (c.lo >= 1) {
    const DoubleInterval u = exp(DoubleInterval{-c.hi, -c.lo});
    if (c.lo >= 20) return c + DoubleInterval{-(u / (DoubleInterval::point(1) - u)).hi, -u.lo};
    return c + log1p(DoubleInterval{-u.hi, -u.lo});
  }
  return log(expm1(c));
}

namespace {

// An upper bound on (log Phi)'(v) = phi(v)/Phi(v) for all v >= x: it decreases in v (Phi is log-concave), is
// phi(-2)/Phi(-2) = 2.3732 at -2, and for t = -x > 2 below t + 1/t (R(t) > t/(t^2+1), A&S 7.1.13); for x >= 0,
// phi/Phi <= 2 phi(x) <= 0.8 e^{-x^2/2} <= 0.8/(1 + x^2/2).
double log_normal_cdf_slope_up(double x) {
  if (x >= 0) return up(0.8 / down(1 + down(down(x * x) / 2)));
  return x >= -2 ? 2.4 : up(-x + 0.5);
}

}  // namespace

// Phi is increasing and log Phi grows by at most K (x.hi - x.lo) across x, K the slope bound above.
DoubleInterval normal_cdf(const DoubleInterval& x) {
  DoubleInterval r = from_lower_end(normal_cdf_at(x.lo), up(up(x.hi - x.lo) * log_normal_cdf_slope_up(x.lo)),
                                    [&] { return normal_cdf_at(x.hi).hi; });
  r.hi = std::min(1.0, r.hi);
  return r;
}

// e^{l} Phi(x) is increasing in both l and x; its log grows by at most (l.hi - l.lo) + K (x.hi - x.lo).
DoubleInterval exp_times_normal_cdf(const DoubleInterval& l, const DoubleInterval& x) {
  return from_lower_end(exp_times_normal_cdf_at(l.lo, x.lo),
                        up(up(l.hi - l.lo) + up(up(x.hi - x.lo) * log_normal_cdf_slope_up(x.lo))),
                        [&] { return exp_times_normal_cdf_at(l.hi, x.hi).hi; });
}

DoubleInterval times_expm1(const DoubleInterval& w, const DoubleInterval& x) {
  thread_local Scratch e;
  auto end = [&](double wv, double xv, mpfr_rnd_t r) {
    mpfr_set_d(e.x, xv, MPFR_RNDN);
    mpfr_expm1(e.x, e.x, r);
    mpfr_mul_d(e.x, e.x, wv, r);
    return mpfr_get_d(e.x, r);
  };
  return {end(w.lo, x.lo, MPFR_RNDD), end(w.hi, x.hi, MPFR_RNDU)};
}

}  // namespace dpl
