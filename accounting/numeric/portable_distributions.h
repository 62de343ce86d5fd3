// SPDX-License-Identifier: Apache-2.0
// Distribution functions and quantiles (beta, gamma, normal, Student t) built on portable_math: IEEE basic
// operations in x87 long double and portable::exp/log/log1p/erfc only, so every x86-64 CPU computes the same bits
// (glibc's long-double functions and Boost.Math, which promotes double to long double, call the x87 transcendental
// instructions, whose last bits differ between vendors). For the audits' confidence bounds and the proofs-check's
// intervals: within 1e-14 relative (measured: about 1e-15; checked against 30-digit MPFR by
// tests/accounting/portable_distributions_test.cpp), not directed; callers widen what they report.
#pragma once

namespace dpl::portable {

// log Gamma(x) for x > 0 (Stirling's series with Binet's remainder; recurrence below 12).
long double log_gamma(long double x);

// A point of (0, 1) given by both x and y = 1 - x, each to a relative error of a few u_ld, so that either tail
// keeps its digits (x = 1e-12 and y = 1e-12 alike).
struct UnitPoint {
  long double x;
  long double y;
};

// log I_x(a, b), the regularized incomplete beta function (a, b > 0), from the continued fraction of
// Numerical Recipes' betacf (modified Lentz) on the side where it converges, with the prefactor
// x^a y^b / B(a, b) formed without cancelling large logarithms.
long double log_beta_cdf(long double a, long double b, UnitPoint p);
// The point p with I_p(a, b) = alpha, 0 < alpha < 1 (the lower alpha-quantile of Beta(a, b)); its y is the upper
// quantile 1 - x to full relative accuracy.
UnitPoint beta_quantile(long double a, long double b, long double alpha);

// log P(a, x), the regularized lower incomplete gamma function (a > 0, x >= 0): series below a + 1, continued
// fraction for Q above (Numerical Recipes' gser/gcf).
long double log_gamma_cdf(long double a, long double x);
// The x with P(a, x) = alpha, 0 < alpha < 1 (the alpha-quantile of Gamma(a, 1)).
long double gamma_quantile(long double a, long double alpha);

// Phi(x), the standard normal distribution function, as erfc(-x / sqrt 2) / 2.
double normal_cdf(double x);
// Phi^{-1}(p) for 0 < p < 1 (Newton on log Phi from the Abramowitz-Stegun 26.2.23 start).
double normal_quantile(double p);

// The t with P(T > t) = p for Student's t with df > 0 degrees of freedom, 0 < p < 1:
// P(T > t) = I_{df/(df+t^2)}(df/2, 1/2) / 2 for t >= 0.
double student_t_upper_quantile(double df, double p);

}  // namespace dpl::portable
