#include "accounting/rdp/rdp_double_interval.h"

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

DoubleInterval exp(const DoubleInterval& x) { return {directed(mpfr_exp, x.lo, MPFR_RNDD), directed(mpfr_exp, x.hi, MPFR_RNDU)}; }
DoubleInterval log(const DoubleInterval& x) { return {directed(mpfr_log, x.lo, MPFR_RNDD), directed(mpfr_log, x.hi, MPFR_RNDU)}; }
double log_up(double x) { return directed(mpfr_log, x, MPFR_RNDU); }
double log1p_up(double x) { return directed(mpfr_log1p, x, MPFR_RNDU); }
DoubleInterval log1p(const DoubleInterval& x) {
  return {directed(mpfr_log1p, x.lo, MPFR_RNDD), directed(mpfr_log1p, x.hi, MPFR_RNDU)};
}

// Phi(x) = erfc(-x/sqrt 2)/2; erfc is decreasing, halving is exact (barring underflow, rounded outward anyway).
DoubleInterval normal_cdf(const DoubleInterval& x) {
  constexpr double kSqrt2Lo = 1.4142135623730949, kSqrt2Hi = 1.4142135623730951;  // enclose sqrt 2
  const DoubleInterval t = DoubleInterval{-x.hi, -x.lo} / DoubleInterval{kSqrt2Lo, kSqrt2Hi};
  return {down(directed(mpfr_erfc, t.hi, MPFR_RNDD) / 2), up(directed(mpfr_erfc, t.lo, MPFR_RNDU) / 2)};
}

// Far in the lower tail MPFR's erfc needs a working precision that grows like x^2 (slow): there, for t = -x >= 10,
// the asymptotic expansion Phi(-t) = phi(t)/t [sum_{k<n} (-1)^k (2k-1)!!/t^{2k} + R_n] with |R_n| at most the
// first omitted term (it envelops: Abramowitz and Stegun 7.1.24), n = 20 (|R_n| <= 39!!/10^40 < 4e-17), in log
// space so that neither factor under- or overflows. Enclosure of e^{l} Phi(x).
DoubleInterval exp_times_lower_tail(const DoubleInterval& l, const DoubleInterval& x) {
  using DI = DoubleInterval;
  constexpr int kTerms = 20;
  const DI t{-x.hi, -x.lo}, u = DI::point(1) / (t * t);  // u = 1/t^2 <= 1/100
  // Horner in u of sum_{k<n} (-1)^k (2k-1)!! u^k, then +-(2n-1)!! u^n; the double factorials enclosed.
  DI dfact[kTerms + 1];
  dfact[0] = DI::point(1);
  for (int k = 1; k <= kTerms; ++k) dfact[k] = dfact[k - 1] * DI::point(2 * k - 1);
  auto signed_coef = [&](int k) { return k % 2 ? DI{-dfact[k].hi, -dfact[k].lo} : dfact[k]; };
  DI series = signed_coef(kTerms - 1);
  for (int k = kTerms - 2; k >= 0; --k) series = signed_coef(k) + u * series;
  DI un = DI::point(1);
  for (int k = 0; k < kTerms; ++k) un = un * u;
  const DI rem = dfact[kTerms] * un;
  series = series + DI{-rem.hi, rem.hi};
  constexpr DI kHalfLog2Pi{0.9189385332046727, 0.9189385332046728};
  const DI expo = l - t * t / DI::point(2) - log(t) - kHalfLog2Pi;
  return exp(expo) * series;
}

// e^{l} Phi(x) = e^{l} erfc(-x/sqrt 2)/2: every factor is non-negative and increasing in (l, x), so the lower end
// is the product of the lower ends rounded down and the upper end that of the upper ends rounded up.
DoubleInterval exp_times_normal_cdf(const DoubleInterval& l, const DoubleInterval& x) {
  if (x.hi <= -10) return exp_times_lower_tail(l, x);
  constexpr double kSqrt2Lo = 1.4142135623730949, kSqrt2Hi = 1.4142135623730951;
  const DoubleInterval t = DoubleInterval{-x.hi, -x.lo} / DoubleInterval{kSqrt2Lo, kSqrt2Hi};
  thread_local Scratch e, c;
  auto end = [&](double lv, double tv, mpfr_rnd_t r) {
    mpfr_set_d(e.x, lv, MPFR_RNDN);
    mpfr_exp(e.x, e.x, r);
    mpfr_set_d(c.x, tv, MPFR_RNDN);
    mpfr_erfc(c.x, c.x, r);
    mpfr_mul(e.x, e.x, c.x, r);
    mpfr_div_2ui(e.x, e.x, 1, r);
    return mpfr_get_d(e.x, r);
  };
  return {end(l.lo, t.hi, MPFR_RNDD), end(l.hi, t.lo, MPFR_RNDU)};
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
