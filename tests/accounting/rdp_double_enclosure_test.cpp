// SPDX-License-Identifier: Apache-2.0
// The binary64 enclosures of the fast certified RDP path (docs/rdp_double_precision.md, sec. 2): e^x by a Taylor
// polynomial with its Lagrange remainder, the Mills ratio by Laplace's continued fraction, Phi by the erf series
// or the Mills ratio. RapidCheck: each must contain an independent 256-bit MPFR value (round to nearest, ~1e-70
// relative, far inside one binary64 ulp) and stay a few ulps wide. Each containment check is paired with a
// deliberately miscalibrated twin (the remainder dropped, one convergent instead of two) that it must catch.
#include "accounting/rdp/rdp_double_exp.h"
#include "accounting/rdp/rdp_double_interval.h"
#include "accounting/rdp/rdp_normal_cdf_enclosure.h"
#include "accounting/rdp/rdp_subsampled_gaussian.h"

#include <gtest/gtest.h>
#include <mpfr.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <functional>
#include <random>

namespace dpl {
namespace {

using DI = DoubleInterval;

// An RAII 256-bit MPFR number.
struct M {
  mpfr_t v;
  explicit M(double x = 0) { mpfr_init2(v, 256); mpfr_set_d(v, x, MPFR_RNDN); }
  ~M() { mpfr_clear(v); }
  M(const M&) = delete;
  M& operator=(const M&) = delete;
};

bool contains(const DI& e, const M& exact) { return mpfr_cmp_d(exact.v, e.lo) >= 0 && mpfr_cmp_d(exact.v, e.hi) <= 0; }

void exp_reference(double x, M& out) { mpfr_set_d(out.v, x, MPFR_RNDN); mpfr_exp(out.v, out.v, MPFR_RNDN); }

// Phi(x) = erfc(-x / sqrt 2) / 2.
void phi_reference(double x, M& out) {
  M s(2);
  mpfr_sqrt(s.v, s.v, MPFR_RNDN);
  mpfr_set_d(out.v, -x, MPFR_RNDN);
  mpfr_div(out.v, out.v, s.v, MPFR_RNDN);
  mpfr_erfc(out.v, out.v, MPFR_RNDN);
  mpfr_div_2ui(out.v, out.v, 1, MPFR_RNDN);
}

// e^{l} Phi(x), the product formed at 256 bits (MPFR's exponent range holds it where binary64 would not).
void exp_times_phi_reference(double l, double x, M& out) {
  M e;
  exp_reference(l, e);
  phi_reference(x, out);
  mpfr_mul(out.v, out.v, e.v, MPFR_RNDN);
}

// R(t) = Phi(-t) / phi(t), phi(t) = e^{-t^2/2} / sqrt(2 pi).
void mills_reference(double t, M& out) {
  M d(t), c;
  mpfr_sqr(d.v, d.v, MPFR_RNDN);
  mpfr_div_2ui(d.v, d.v, 1, MPFR_RNDN);
  mpfr_neg(d.v, d.v, MPFR_RNDN);
  mpfr_exp(d.v, d.v, MPFR_RNDN);
  mpfr_const_pi(c.v, MPFR_RNDN);
  mpfr_mul_2ui(c.v, c.v, 1, MPFR_RNDN);
  mpfr_sqrt(c.v, c.v, MPFR_RNDN);
  mpfr_div(d.v, d.v, c.v, MPFR_RNDN);
  phi_reference(-t, out);
  mpfr_div(out.v, out.v, d.v, MPFR_RNDN);
}

double relative_width(const DI& e) { return (e.hi - e.lo) / e.lo; }

// A double from an unsigned draw: uniform in [lo, hi].
double uniform(unsigned v, double lo, double hi) { return lo + (hi - lo) * ((v % 1000003) / 1000002.0); }

RC_GTEST_PROP(RdpDoubleEnclosure, ExpContainsTheExactValue, (unsigned u, unsigned w)) {
  // Half the draws over the whole range [-746, 710], half near 0 at magnitudes 1e-20 .. 1e2.
  const double x = w % 2 ? uniform(u, -746, 710) : uniform(u, -1, 1) * std::pow(10.0, static_cast<int>(w / 2 % 23) - 20);
  const DI e = exp_enclosure(x);
  M ref;
  exp_reference(x, ref);
  RC_ASSERT(contains(e, ref));
  if (e.lo > 1e-300 && e.hi < 1e300) RC_ASSERT(relative_width(e) <= 4e-15);
}

TEST(RdpDoubleEnclosure, ExpRangeEndsAreBounds) {
  for (double x : {-746.0, -745.13, -745.0, -744.4, -708.5, -708.3, 0.0, 709.0, 709.78, 709.79, 710.0, 1e300, -1e300}) {
    const DI e = exp_enclosure(x);
    M ref;
    exp_reference(x, ref);
    EXPECT_TRUE(contains(e, ref)) << x;
  }
}

// The twin: the Taylor polynomial of degree 5 without the remainder, as a careless implementation would write it.
DI exp_truncated_twin(double x) {
  const double k = std::floor(x / std::log(2.0) + 0.5), r = x - k * std::log(2.0);
  double p = 1, t = 1;
  for (int m = 1; m <= 5; ++m) t *= r / m, p += t;
  const double v = std::ldexp(p, static_cast<int>(k));
  return {down(v), up(v)};
}

TEST(RdpDoubleEnclosure, ExpCheckCatchesATruncatedTwin) {
  std::mt19937_64 g(20261126);
  int missed = 0;
  for (int i = 0; i < 200; ++i) {
    const double x = std::uniform_real_distribution<double>(-50, 50)(g);
    M ref;
    exp_reference(x, ref);
    missed += !contains(exp_truncated_twin(x), ref);
  }
  EXPECT_GT(missed, 100);  // the remainder (~1e-6 relative) is outside a 2-ulp interval nearly always
}

RC_GTEST_PROP(RdpDoubleEnclosure, MillsRatioContainsTheExactValue, (unsigned u, unsigned w)) {
  const double t = w % 2 ? uniform(u, 1, 12) : std::exp(uniform(u, 0, std::log(1e6)));
  const DI r = mills_ratio(t);
  M ref;
  mills_reference(t, ref);
  RC_ASSERT(contains(r, ref));
  RC_ASSERT(relative_width(r) <= 4e-15);
}

// The twin: one convergent (no bracket), computed like the library's backward recurrence, with few terms.
DI mills_one_convergent_twin(double t, int n) {
  DI s = DI::point(t);
  for (int k = n - 1; k >= 1; --k) s = DI::point(t) + DI::point(k) / s;
  return DI::point(1) / s;
}

TEST(RdpDoubleEnclosure, MillsCheckCatchesASingleConvergent) {
  int missed = 0;
  for (int i = 0; i < 100; ++i) {
    const double t = 2 + 0.1 * i;
    M ref;
    mills_reference(t, ref);
    missed += !contains(mills_one_convergent_twin(t, 8), ref);
  }
  EXPECT_EQ(missed, 100);
}

TEST(RdpDoubleEnclosure, MillsRatioOutsideItsDomainIsTheTrivialInterval) {
  EXPECT_EQ(mills_ratio(0.5).lo, 0);
  EXPECT_TRUE(std::isinf(mills_ratio(0.5).hi));
  EXPECT_TRUE(std::isinf(mills_ratio(std::nan("")).hi));
}

RC_GTEST_PROP(RdpDoubleEnclosure, NormalCdfContainsTheExactValue, (unsigned u, unsigned w)) {
  const double x = w % 3 == 0 ? uniform(u, -3, 3) : w % 3 == 1 ? uniform(u, -40, 12) : -std::exp(uniform(u, 0, 8));
  const DI p = normal_cdf_at(x);
  M ref;
  phi_reference(x, ref);
  RC_ASSERT(contains(p, ref));
  // Widest in the far tail, where the exponent -x^2/2 carries ~x^2/2 ulps of absolute rounding.
  if (p.lo > 1e-300) RC_ASSERT(relative_width(p) <= 1e-15 * (32 + x * x));
}

// Interval arguments: the enclosure must contain the value at every point of the interval; checked at the two
// ends and a point inside, with interval widths of 1 to 1e6 ulps.
RC_GTEST_PROP(RdpDoubleEnclosure, IntervalFunctionsContainTheirRange, (unsigned u, unsigned w, unsigned k)) {
  const double x = uniform(u, -60, 12), l = uniform(w, -700, 300);
  const double dx = std::fabs(x) * 1e-16 * std::pow(10.0, k % 7), dl = std::fabs(l) * 1e-16 * std::pow(10.0, w % 7);
  const DI X{x, x + dx}, L{l, l + dl};
  const DI p = normal_cdf(X), e = exp_times_normal_cdf(L, X), ex = exp(L);
  for (double f : {0.0, 0.37, 1.0}) {
    const double xi = x + f * dx, li = l + f * dl;
    M ref;
    phi_reference(xi, ref);
    RC_ASSERT(contains(p, ref));
    exp_times_phi_reference(li, xi, ref);
    RC_ASSERT(contains(e, ref));
    exp_reference(li, ref);
    RC_ASSERT(contains(ex, ref));
  }
}

// The binary64 fractional series (binomial series of 1 subtracted term by term) against the 200-bit MPFI series
// (fractional_moment - 1, an independent evaluation with its own tail bound): both enclose A - 1, so they must
// intersect; and the fast one must be within 2^-44 relative (else it would have fallen back). 40 draws with a fixed
// seed over q in [1e-6, 0.49], z in [0.5, 50], fractional orders in [1.5, 120].
TEST(RdpDoubleEnclosure, FastFractionalSeriesAgreesWithThe200BitSeries) {
  std::mt19937_64 g(20261126);
  int compared = 0;
  for (int i = 0; i < 40; ++i) {
    const double q = std::exp(std::uniform_real_distribution<double>(std::log(1e-6), std::log(0.49))(g));
    const double z = std::exp(std::uniform_real_distribution<double>(std::log(0.5), std::log(50.0))(g));
    const double alpha = std::floor(std::uniform_real_distribution<double>(1.5, 120)(g)) + 0.37;
    const SubsampledGaussianRdp curve(q, z);
    const auto fast = curve.fractional_excess_fast(alpha);
    std::int64_t terms = 0;
    const Interval slow = curve.fractional_moment(Real(alpha), &terms) - 1;
    if (!fast || !is_finite(slow) || terms >= 2500) continue;  // the 200-bit series capped: no tight reference
    ++compared;
    EXPECT_TRUE(lo(*fast) <= hi(slow) && lo(slow) <= hi(*fast))
        << "q " << q << " z " << z << " alpha " << alpha << ": fast [" << lo(*fast) << ", " << hi(*fast)
        << "], 200-bit [" << lo(slow) << ", " << hi(slow) << "]";
  }
  EXPECT_GE(compared, 30);
}

}  // namespace
}  // namespace dpl
