// SPDX-License-Identifier: Apache-2.0
#include "accounting/numeric/interval.h"

#include <mpfi.h>
#include <mpfr.h>

#include <cmath>
#include <stdexcept>

namespace dpl {

namespace {

// The widest MPFR exponent range, so that moments such as e^{(k^2-k)/(2 z^2)} at orders ~1e5 neither overflow
// nor underflow (the default range stops near 2^(2^30)).
const bool kWideExponents = [] {
  mpfr_set_emax(mpfr_get_emax_max());
  mpfr_set_emin(mpfr_get_emin_min());
  return true;
}();

mpfr_prec_t precision() { return static_cast<mpfr_prec_t>(mpfr_get_default_prec()); }

// Applies an MPFR function f at the endpoint `at` with rounding mode `rnd`, writing into `out`.
template <class F>
void directed(mpfr_t out, const mpfr_t at, mpfr_rnd_t rnd, F f) {
  f(out, at, rnd);
}

Interval from_mpfr_pair(const mpfr_t a, const mpfr_t b) {
  Interval r;
  mpfi_interv_fr(r.backend().data(), a, b);
  return r;
}

// Encloses a monotone MPFR function g on x: increasing if `increasing`, else decreasing.
template <class G>
Interval monotone(const Interval& x, bool increasing, G g) {
  const Interval& xx = x;
  mpfr_t l, r, xl, xr;
  const auto prec = mpfi_get_prec(xx.backend().data());
  mpfr_inits2(prec, l, r, xl, xr, static_cast<mpfr_ptr>(nullptr));
  mpfi_get_left(xl, xx.backend().data());
  mpfi_get_right(xr, xx.backend().data());
  if (increasing) {
    g(l, xl, MPFR_RNDD);
    g(r, xr, MPFR_RNDU);
  } else {
    g(l, xr, MPFR_RNDD);
    g(r, xl, MPFR_RNDU);
  }
  Interval out = from_mpfr_pair(l, r);
  mpfr_clears(l, r, xl, xr, static_cast<mpfr_ptr>(nullptr));
  return out;
}

}  // namespace

Interval exact(double x) {
  if (std::isnan(x)) throw std::invalid_argument("internal: exact(NaN)");
  Interval r;
  mpfi_set_d(r.backend().data(), x);
  return r;
}

Interval exact_int(std::int64_t n) {
  Interval r;
  mpfi_set_si(r.backend().data(), static_cast<long>(n));
  return r;
}

Interval make_interval(const Real& l, const Real& h) {
  if (l > h) throw std::invalid_argument("internal: make_interval with lo > hi");
  return from_mpfr_pair(l.backend().data(), h.backend().data());
}

Interval from_decimal(const std::string& s) {
  Interval r;
  if (mpfi_set_str(r.backend().data(), s.c_str(), 10) != 0)
    throw std::invalid_argument("internal: not a decimal number: " + s);
  return r;
}

Real lo(const Interval& x) {
  Real r;
  mpfi_get_left(r.backend().data(), x.backend().data());
  return r;
}
Real hi(const Interval& x) {
  Real r;
  mpfi_get_right(r.backend().data(), x.backend().data());
  return r;
}
Real mid(const Interval& x) {
  Real r;
  mpfi_mid(r.backend().data(), x.backend().data());
  return r;
}
Real width(const Interval& x) { return hi(x) - lo(x); }

double lo_down(const Interval& x) { return mpfr_get_d(lo(x).backend().data(), MPFR_RNDD); }
double hi_up(const Interval& x) { return mpfr_get_d(hi(x).backend().data(), MPFR_RNDU); }
double mid_double(const Interval& x) { return mpfr_get_d(mid(x).backend().data(), MPFR_RNDN); }

bool certainly_lt(const Interval& a, const Interval& b) { return hi(a) < lo(b); }
bool certainly_le(const Interval& a, const Interval& b) { return hi(a) <= lo(b); }
bool certainly_gt(const Interval& a, const Interval& b) { return lo(a) > hi(b); }
bool certainly_ge(const Interval& a, const Interval& b) { return lo(a) >= hi(b); }
bool contains(const Interval& x, const Real& v) { return lo(x) <= v && v <= hi(x); }
bool contains_zero(const Interval& x) { return lo(x) <= 0 && 0 <= hi(x); }
bool is_finite(const Interval& x) {
  return mpfr_number_p(lo(x).backend().data()) && mpfr_number_p(hi(x).backend().data());
}

Interval hull(const Interval& a, const Interval& b) {
  Interval r;
  mpfi_union(r.backend().data(), a.backend().data(), b.backend().data());
  return r;
}

Interval imax(const Interval& a, const Interval& b) {
  const Real l = lo(a) > lo(b) ? lo(a) : lo(b);
  const Real h = hi(a) > hi(b) ? hi(a) : hi(b);
  return make_interval(l, h);
}
Interval imin(const Interval& a, const Interval& b) {
  const Real l = lo(a) < lo(b) ? lo(a) : lo(b);
  const Real h = hi(a) < hi(b) ? hi(a) : hi(b);
  return make_interval(l, h);
}
Interval clamp_nonnegative(const Interval& x) {
  if (hi(x) < 0) return exact(0.0);
  if (lo(x) >= 0) return x;
  return make_interval(Real(0), hi(x));
}

Interval pi() {
  Interval r;
  mpfi_const_pi(r.backend().data());
  return r;
}
Interval log2() {
  Interval r;
  mpfi_const_log2(r.backend().data());
  return r;
}
Interval positive_infinity() {
  Interval r;
  mpfr_t inf;
  mpfr_init2(inf, precision());
  mpfr_set_inf(inf, 1);
  mpfi_interv_fr(r.backend().data(), inf, inf);
  mpfr_clear(inf);
  return r;
}

Interval erfc(const Interval& x) {
  return monotone(x, false, [](mpfr_t o, const mpfr_t a, mpfr_rnd_t rnd) { mpfr_erfc(o, a, rnd); });
}
Interval erf(const Interval& x) {
  return monotone(x, true, [](mpfr_t o, const mpfr_t a, mpfr_rnd_t rnd) { mpfr_erf(o, a, rnd); });
}
Interval normal_cdf(const Interval& x) { return erfc(-x / sqrt(exact(2.0))) / 2; }

// log Phi(x): direct for x > -1e4 (MPFR's exponent range holds e^{-x^2/2} there); below, the Mills-ratio
// sandwich phi(t)/t (1 - 1/t^2) <= 1 - Phi(t) <= phi(t)/t for t = -x > 0 (Gordon 1941), a certified enclosure.
Interval log_normal_cdf(const Interval& x) {
  // >= (not >): the upper piece of a split below starts at -1e4 exactly and must not split again (infinite
  // recursion, a stack overflow).
  if (lo(x) >= -1e4) return log(normal_cdf(x));
  if (hi(x) > -1e4) return hull(log_normal_cdf(make_interval(lo(x), Real(-1e4))),
                                log_normal_cdf(make_interval(Real(-1e4), hi(x))));
  const Interval t = -x;
  const Interval log_phi_over_t = -t * t / 2 - log(sqrt(2 * pi())) - log(t);
  const Interval lower = log_phi_over_t + log1p(-1 / (t * t));
  return make_interval(lo(lower), hi(log_phi_over_t));
}

Interval lgamma(const Interval& x) {
  if (lo(x) <= 0) throw std::invalid_argument("internal: lgamma needs x > 0");
  // lngamma is decreasing on (0, x0] and increasing on [x0, inf), x0 ~ 1.4616; enclose piecewise.
  const Real x0_lo("1.4616321449683622"), x0_hi("1.4616321449683624");
  auto up = [](mpfr_t o, const mpfr_t a, mpfr_rnd_t rnd) { mpfr_lngamma(o, a, rnd); };
  if (lo(x) >= x0_hi) return monotone(x, true, up);
  if (hi(x) <= x0_lo) return monotone(x, false, up);
  // Straddles the minimum: lower end is the minimum value (~ -0.1215), upper the larger endpoint value.
  const Interval a = monotone(make_interval(lo(x), lo(x)), true, up);
  const Interval b = monotone(make_interval(hi(x), hi(x)), true, up);
  return make_interval(Real("-0.12148629053584961"), hi(a) > hi(b) ? hi(a) : hi(b));
}

}  // namespace dpl
