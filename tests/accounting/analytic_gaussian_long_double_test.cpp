// SPDX-License-Identifier: Apache-2.0
// The long-double enclosure of the Gaussian privacy profile (analytic_gaussian_long_double.h) against the MPFR
// enclosure at 60 digits: it contains it on random (mu, eps) over the whole range it accepts, it is narrow (its
// twin, the value at mu moved by 1e-10 relatively, falls outside it), and the epsilons built on it print and
// return the same digits as a certified MPFR bisection to 1e-25.
#include "accounting/mechanisms/analytic_gaussian.h"
#include "accounting/mechanisms/analytic_gaussian_long_double.h"
#include "accounting/numeric/decimal.h"
#include "accounting/numeric/epsilon_search.h"
#include "accounting/numeric/interval.h"

#include <gtest/gtest.h>
#include <mpfr.h>
#include <rapidcheck/gtest.h>

#include <cmath>

namespace {

using namespace dpl;

long double ld(const Real& x, mpfr_rnd_t r) { return mpfr_get_ld(x.backend().data(), r); }

// mu log-uniform in [1e-3, 1e3], eps = mu * t + mu^2 / 2 * s (around the loss's mean and spread), t in [-3, 40].
struct Point {
  long double mu, eps;
};
Point draw() {
  const double mu = std::pow(10.0, *rc::gen::inRange(-3000, 3000) / 1000.0);
  const double t = *rc::gen::inRange(-3000, 40000) / 1000.0;
  const double eps = std::max(0.0, mu * mu / 2 + mu * t);
  return {mu, eps};
}

RC_GTEST_PROP(AnalyticGaussianLongDouble, ContainsTheMpfrEnclosure, ()) {
  const Point p = draw();
  const auto e = analytic_gaussian_delta_long_double(p.mu, p.mu, p.eps);
  RC_PRE(e.has_value());
  const Interval ref = analytic_gaussian_delta(exact_real(Real(p.mu)), exact_real(Real(p.eps)));
  RC_ASSERT(Real(e->lo) <= lo(ref));
  RC_ASSERT(hi(ref) <= Real(e->hi));
}

// Narrow: its width is below 1e-14 of Phi(mu/2 - eps/mu), the larger of the two terms (so the value at mu moved
// by 1e-10 is outside it wherever delta moves by more than that).
RC_GTEST_PROP(AnalyticGaussianLongDouble, NarrowerThanTheLargerTermTimes1e14, ()) {
  const Point p = draw();
  const auto e = analytic_gaussian_delta_long_double(p.mu, p.mu, p.eps);
  RC_PRE(e.has_value());
  const Interval mu = exact_real(Real(p.mu)), eps = exact_real(Real(p.eps));
  const Real larger = hi(normal_cdf(mu / 2 - eps / mu));
  RC_ASSERT(Real(e->hi) - Real(e->lo) <= larger * Real("1e-14"));
}

TEST(AnalyticGaussianLongDouble, TwinAtAMovedMuFallsOutside) {
  int checked = 0;
  for (const double mu : {0.01, 0.3, 1.0, 2.5, 7.0, 40.0}) {
    for (const double t : {0.0, 1.0, 3.0, 6.0}) {
      const double eps = mu * mu / 2 + mu * t;
      const auto e = analytic_gaussian_delta_long_double(mu, mu, eps);
      ASSERT_TRUE(e.has_value()) << mu << " " << eps;
      const Interval moved = analytic_gaussian_delta(exact(mu) * (1 + Real("1e-10")), exact(eps));
      EXPECT_GT(lo(moved), Real(e->hi)) << mu << " " << eps;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 24);
}

TEST(AnalyticGaussianLongDouble, AnIntervalOfMuEnclosesBothEnds) {
  const long double a = 0.9L, b = 1.1L, eps = 1.5L;
  const auto e = analytic_gaussian_delta_long_double(a, b, eps);
  ASSERT_TRUE(e.has_value());
  const Interval at_a = analytic_gaussian_delta(exact_real(Real(a)), exact_real(Real(eps)));
  const Interval at_b = analytic_gaussian_delta(exact_real(Real(b)), exact_real(Real(eps)));
  EXPECT_LE(Real(e->lo), lo(at_a));
  EXPECT_GE(Real(e->hi), hi(at_b));
  EXPECT_LT(hi(at_a), lo(at_b));  // delta increases with mu
}

TEST(AnalyticGaussianLongDouble, RefusesOutsideItsRange) {
  EXPECT_FALSE(analytic_gaussian_delta_long_double(0.0L, 0.0L, 1.0L).has_value());
  EXPECT_FALSE(analytic_gaussian_delta_long_double(1.0L, 1.0L, 2e4L).has_value());
  EXPECT_FALSE(analytic_gaussian_delta_long_double(2.0L, 1.0L, 1.0L).has_value());
  // A term below 1e-4000: erfc(beta) with beta ~ 100.
  EXPECT_FALSE(analytic_gaussian_delta_long_double(1.0L, 1.0L, 141.0L).has_value());
  // The MPFR fallback decides there instead.
  EXPECT_FALSE(analytic_gaussian_delta_long_double(1e160L, 1e160L, 1.0L).has_value());
  EXPECT_EQ(analytic_gaussian_delta_at_most(exact(1e160), Real(1), 1e-10), Verdict::no);
}

// A Gaussian of tiny mu: delta is below erfc(107)/2 < 1e-4900, and MPFR agrees.
TEST(AnalyticGaussianLongDouble, TinyMuIsEnclosedNearZero) {
  const auto e = analytic_gaussian_delta_long_double(1e-200L, 1e-200L, 1.0L);
  ASSERT_TRUE(e.has_value());
  EXPECT_LE(e->lo, 0.0L);
  EXPECT_LE(e->hi, 1.1e-4900L);
  EXPECT_LE(hi(analytic_gaussian_delta(exact(1e-200), exact(1))), Real(e->hi));
  EXPECT_EQ(analytic_gaussian_delta_at_most(exact(1e-200), Real(1), 1e-300), Verdict::yes);
}

// The epsilon from the long-double path prints the same 15 digits and returns the same binary64 values (both
// directions) as a certified MPFR bisection to relative width 1e-25.
TEST(AnalyticGaussianLongDouble, EpsilonDigitsEqualTheMpfrBisection) {
  int cases = 0;
  for (const double sigma : {0.4, 1.0, 1.1, 3.7306316348159427, 10.0, 200.0}) {
    for (const double delta : {1e-3, 1e-5, 1e-10, 1e-30}) {
      const Interval mu = exact(1) / exact(sigma);
      const EpsilonSearch got = analytic_gaussian_epsilon(mu, delta);
      auto profile = [&](const Real& e) { return analytic_gaussian_delta(mu, exact_real(e)); };
      const EpsilonSearch ref = smallest_epsilon(profile, Real(delta), Real(1), Real("1e-25"));
      ASSERT_TRUE(got.lower.has_value());
      ASSERT_TRUE(ref.lower.has_value());
      EXPECT_EQ(format_upper(got.epsilon), format_upper(ref.epsilon)) << sigma << " " << delta;
      EXPECT_EQ(format_lower(*got.lower), format_lower(*ref.lower)) << sigma << " " << delta;
      EXPECT_EQ(hi_up(got.epsilon), hi_up(ref.epsilon)) << sigma << " " << delta;
      EXPECT_EQ(lo_down(*got.lower), lo_down(*ref.lower)) << sigma << " " << delta;
      ++cases;
    }
  }
  EXPECT_EQ(cases, 24);
}

}  // namespace
