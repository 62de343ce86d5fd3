// SPDX-License-Identifier: Apache-2.0
// Distribution functions and quantiles on portable_math (portable_distributions.h): IEEE basic operations in x87
// long double and portable::exp/log/log1p/erfc only.
#pragma GCC optimize("fp-contract=off")

#include "accounting/numeric/portable_distributions.h"

#include "accounting/errors.h"
#include "accounting/numeric/portable_math.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

namespace dpl::portable {

namespace {

constexpr long double kInfinityLd = std::numeric_limits<long double>::infinity();
constexpr long double kUnitRoundoffLd = 0x1p-64L;                                // unit roundoff of x87 long double
constexpr long double kHalfLog2Pi = 0.918938533204672741780329736405617639861L;  // log(2 pi) / 2
constexpr long double kLentzFloor = 0x1p-16000L;  // Lentz's guard against a zero denominator
constexpr long double kContinuedFractionTolerance = 4 * kUnitRoundoffLd;
// The searches' ranges: e^{+-11350} is inside long double's normal range (2^{+-16382} ~ e^{+-11355}); Phi(-100) is
// e^{-5000}.
constexpr long double kLogitRange = 11350, kNormalRange = 100;
constexpr long kMaxTerms = 20000000;  // O(sqrt(max(a, b))) terms are needed: parameters to about 10^13

void too_many_terms(const char* what, long double a, long double b) {
  throw InputError(std::string(what) + " did not converge for parameters " + std::to_string(static_cast<double>(a)) +
                   ", " + std::to_string(static_cast<double>(b)) + ": allowed up to about 1e13");
}

// (z - 1/2) log z - z + log(2 pi)/2: Stirling's main term of log Gamma(z).
long double stirling_main(long double z) { return (z - 0.5L) * log(z) - z + kHalfLog2Pi; }

// Binet's remainder omega(z) = log Gamma(z) - stirling_main(z) (DLMF 5.11.1, the Bernoulli series to B_18; the first
// omitted term is below 5e-21 at z >= 12), moved up to z >= 12 by log Gamma(z) = log Gamma(z + m) - log prod (z + i).
long double binet_remainder(long double z) {
  if (z >= 12) {
    static constexpr long double kCoefficients[] = {1.0L / 12,       -1.0L / 360,      1.0L / 1260,
                                                    -1.0L / 1680,    1.0L / 1188,      -691.0L / 360360,
                                                    1.0L / 156,      -3617.0L / 122400, 43867.0L / 244188};
    const long double w = 1 / (z * z);
    long double s = 0;
    for (int k = 8; k >= 0; --k) s = s * w + kCoefficients[k];
    return s / z;
  }
  long double product = 1, shifted = z;
  while (shifted < 12) product *= shifted, shifted += 1;
  return binet_remainder(shifted) + stirling_main(shifted) - stirling_main(z) - log(product);
}

// Beta(a, b) with what log(x^a y^b / B(a, b)) needs besides x: log B(a, b) expanded by Stirling so that no two
// large logarithms cancel, log(x^a y^b / B(a, b)) = a log x + b log y + normaliser, normaliser = a log1p(b/a) +
// b log1p(a/b) + (log a + log b - log(a + b))/2 - log(2 pi)/2 - Omega, Omega = omega(a) + omega(b) - omega(a + b).
// Computed once per quantile search.
struct BetaShape {
  long double a, b, normaliser, log_a, log_b;
  bool integers;
};

bool is_whole(long double v) { return v == std::floor(v); }

BetaShape beta_shape(long double a, long double b) {
  BetaShape s;
  s.a = a, s.b = b;
  s.log_a = log(a), s.log_b = log(b);
  const long double omega = binet_remainder(a) + binet_remainder(b) - binet_remainder(a + b);
  s.normaliser =
      a * log1p(b / a) + b * log1p(a / b) + 0.5L * (s.log_a + s.log_b - log(a + b)) - kHalfLog2Pi - omega;
  s.integers = is_whole(a) && is_whole(b);
  return s;
}

// Beta(b, a), whose normaliser is the same (it is symmetric in a and b).
BetaShape mirrored(const BetaShape& s) {
  BetaShape m = s;
  std::swap(m.a, m.b);
  std::swap(m.log_a, m.log_b);
  return m;
}

// log x and log y, each from the one of x and y that is at most 1/2.
struct LogPoint {
  long double log_x, log_y;
};

LogPoint logs_of(UnitPoint p) {
  return {p.x <= 0.5L ? log(p.x) : log1p(-p.y), p.y <= 0.5L ? log(p.y) : log1p(-p.x)};
}

// The continued fraction of I_x(a, b) y^{-b} x^{-a} B(a, b) a (Numerical Recipes, 3rd ed., 6.4.5; betacf), by the
// modified Lentz method; converges for x < (a + 1)/(a + b + 2).
long double beta_continued_fraction(long double a, long double b, long double x) {
  const long double qab = a + b, qap = a + 1, qam = a - 1;
  long double c = 1, d = 1 - qab * x / qap;
  if (std::fabs(d) < kLentzFloor) d = kLentzFloor;
  d = 1 / d;
  long double h = d;
  for (long m = 1; m <= kMaxTerms; ++m) {
    const long double mm = static_cast<long double>(m), m2 = 2 * mm;
    long double aa = mm * (b - mm) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < kLentzFloor) d = kLentzFloor;
    c = 1 + aa / c;
    if (std::fabs(c) < kLentzFloor) c = kLentzFloor;
    d = 1 / d;
    h *= d * c;
    aa = -(a + mm) * (qab + mm) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < kLentzFloor) d = kLentzFloor;
    c = 1 + aa / c;
    if (std::fabs(c) < kLentzFloor) c = kLentzFloor;
    d = 1 / d;
    const long double del = d * c;
    h *= del;
    if (std::fabs(del - 1) <= kContinuedFractionTolerance) return h;
  }
  too_many_terms("the incomplete beta function", a, b);
  return h;
}

constexpr long double kMaxBinomialTerms = 1e5;
// Above this y the continued fraction's loss to 1 - x (about 6 u_ld/y in log I) is below 6e-17.
constexpr long double kBinomialTailBelow = 1e-3L;

// I_x(a, b) for integers a, b >= 1 as the binomial tail sum_{i < b} C(n, i) y^i x^{n-i}, n = a + b - 1 (DLMF
// 8.17.5), from i = b - 1 downwards: the first term is C(n, b-1) y^{b-1} x^a = (x^a y^b / B(a, b)) / (a y) (since
// 1/B(a, b) = a C(n, b-1)), each next one the last times i x/((n - i + 1) y). Returns log I. With y small it keeps
// the digits that the continued fraction, which sees x only, loses to 1 - x (about 6 u_ld/y in log I). `prefix` is
// log(x^a y^b / B(a, b)).
long double log_binomial_tail(const BetaShape& s, UnitPoint p, long double prefix, long double log_y) {
  const long double a = s.a, b = s.b, n = a + b - 1;
  const long double log_first = prefix - s.log_a - log_y;
  const long double odds = p.x / p.y;
  long double term = 1, sum = 1;
  for (long double i = b - 1; i >= 1; i -= 1) {
    const long double ratio = i / (n - i + 1) * odds;
    term *= ratio;
    sum += term;
    if (ratio < 1 && term <= sum * (kUnitRoundoffLd / 8)) break;
  }
  return log_first + log(sum);
}

// log(x^a e^{-x} / Gamma(a)) = a (log(x/a) - (x - a)/a) + (log a)/2 - log(2 pi)/2 - omega(a), with
// log(x/a) - (x - a)/a = log1p(d) - d (d = (x - a)/a) near x = a.
long double log_gamma_prefix(long double a, long double x) {
  const long double d = (x - a) / a;
  const long double core = std::fabs(d) < 0.5L ? log1p(d) - d : log(x / a) - d;
  return a * core + 0.5L * log(a) - kHalfLog2Pi - binet_remainder(a);
}

struct LogValueAndSlope {
  long double log_value;  // log F(t)
  long double slope;      // d log F / dt
};

// log F and the log of its prefactor (x^a y^b / B(a, b), x^a e^{-x} / Gamma(a)), the derivative of F in the variable
// the quantile is searched in: both come out of one evaluation.
struct LogCdfAndPrefix {
  long double log_cdf;
  long double log_prefix;
};

// The t in [lo, hi] with log F(t) = log_target for an increasing F: Newton's method on log F, kept inside the bracket
// that the signs so far have established, bisecting where Newton leaves it (where F is within u_ld of 0 or 1, log F is
// flat and a Newton step can leave the range by thousands of orders of magnitude).
// A Newton step leaves an error of about C step^2, C = |(log F)''/(2 (log F)')|; with C taken 4 times over from the
// slopes at the last two points, a step whose predicted error is below the tolerance is returned without another
// evaluation.
template <class Eval>
long double solve_increasing(Eval eval, long double log_target, long double t, long double lo, long double hi) {
  long double previous_t = kInfinityLd, previous_slope = 0;
  for (int i = 0; i < 2000; ++i) {
    const LogValueAndSlope v = eval(t);
    const long double f = v.log_value - log_target;
    if (std::isnan(f)) throw InputError("a quantile search met an undefined value");
    if (f == 0) return t;
    if (f < 0) lo = t; else hi = t;
    long double next = t - f / v.slope;
    const bool newton = std::isfinite(next) && next > lo && next < hi;
    if (!newton) next = lo + (hi - lo) / 2;
    const long double step = std::fabs(next - t);
    const long double tolerance = 4 * kUnitRoundoffLd * std::max<long double>(1, std::fabs(t));
    if (step <= tolerance || hi - lo <= tolerance) return next;
    if (newton && std::isfinite(previous_t) && previous_t != t && std::isfinite(v.slope) && v.slope > 0) {
      const long double curvature = std::fabs(v.slope - previous_slope) / (2 * std::fabs(t - previous_t) * v.slope);
      if (4 * curvature * step * step <= tolerance) return next;
    }
    previous_t = t, previous_slope = v.slope;
    t = next;
  }
  throw InputError("a quantile search did not converge");
}

// x = e^t/(1 + e^t) and y = 1/(1 + e^t), each from the exponential that does not overflow.
UnitPoint from_logit(long double t) {
  if (t <= 0) {
    const long double e = exp(t);
    return {e / (1 + e), 1 / (1 + e)};
  }
  const long double e = exp(-t);
  return {1 / (1 + e), e / (1 + e)};
}

void require_probability(const char* name, long double p) {
  if (!(p > 0 && p < 1))
    throw InputError(std::string(name) + "=" + std::to_string(static_cast<double>(p)) +
                     " is out of range: allowed (0, 1)");
}

void require_positive_finite(const char* name, long double v) {
  if (!(v > 0 && v < kInfinityLd))
    throw InputError(std::string(name) + "=" + std::to_string(static_cast<double>(v)) +
                     " is out of range: allowed (0, inf)");
}

constexpr long double kInvSqrt2 = 0.707106781186547524400844362104849039L;

// log Phi(x): log(erfc(-x/sqrt 2)/2), and log1p(-erfc(x/sqrt 2)/2) for x > 0 (where Phi is near 1).
long double log_normal_cdf(long double x) {
  if (x > 0) return log1p(-0.5L * erfc(x * kInvSqrt2));
  return log(0.5L * erfc(-x * kInvSqrt2));
}

// Phi^{-1}(p) for 0 < p <= 1/2 to 4.5e-4 absolute (Abramowitz and Stegun 26.2.23).
long double lower_normal_quantile_estimate(long double p) {
  const long double t = std::sqrt(-2 * log(p));
  return -(t - (2.515517L + 0.802853L * t + 0.010328L * t * t) /
                   (1 + 1.432788L * t + 0.189269L * t * t + 0.001308L * t * t * t));
}

// Phi^{-1}(p) for 0 < p <= 1/2: Newton on log Phi (d log Phi / dx = phi(x)/Phi(x)) from that estimate.
long double lower_normal_quantile(long double p) {
  const long double start = std::clamp(lower_normal_quantile_estimate(p), -kNormalRange, 0.0L);
  auto eval = [](long double x) {
    const long double lp = log_normal_cdf(x);
    return LogValueAndSlope{lp, exp(-0.5L * x * x - kHalfLog2Pi - lp)};
  };
  return solve_increasing(eval, log(p), start, -kNormalRange, 0);
}

// Phi^{-1}(p) for 0 < p < 1 to 4.5e-4 (Abramowitz and Stegun 26.2.23): the beta and gamma quantiles' starts.
long double normal_quantile_estimate(long double p) {
  if (p == 0.5L) return 0;
  return p < 0.5L ? lower_normal_quantile_estimate(p) : -lower_normal_quantile_estimate(1 - p);
}

}  // namespace

// log Gamma(x) = stirling_main(x) + omega(x) (DLMF 5.11.1).
long double log_gamma(long double x) {
  require_positive_finite("x", x);
  return stirling_main(x) + binet_remainder(x);
}

namespace {

// I_x(a, b) from the continued fraction on the side x < (a + 1)/(a + b + 2), else 1 - I_y(b, a) (DLMF 8.17.4); for
// integers, where that side's variable (x or y) is within 1e-3 of 1, from the binomial tail instead. Returns
// log I and the log of the prefactor x^a y^b / B(a, b) (the derivative of I in t = log(x/y)).
LogCdfAndPrefix log_beta_cdf_and_prefix(const BetaShape& s, UnitPoint p) {
  if (!(p.x > 0)) return {-kInfinityLd, -kInfinityLd};
  if (!(p.y > 0)) return {0, -kInfinityLd};
  const long double a = s.a, b = s.b;
  const LogPoint l = logs_of(p);
  const long double prefix = a * l.log_x + b * l.log_y + s.normaliser;
  if (p.x <= (a + 1) / (a + b + 2)) {
    if (s.integers && p.y < kBinomialTailBelow && b <= kMaxBinomialTerms)
      return {log_binomial_tail(s, p, prefix, l.log_y), prefix};
    return {prefix + log(beta_continued_fraction(a, b, p.x)) - s.log_a, prefix};
  }
  const long double complement = s.integers && p.x < kBinomialTailBelow && a <= kMaxBinomialTerms
                                     ? exp(log_binomial_tail(mirrored(s), {p.y, p.x}, prefix, l.log_x))
                                     : exp(prefix + log(beta_continued_fraction(b, a, p.y)) - s.log_b);
  return {log1p(-complement), prefix};
}

}  // namespace

long double log_beta_cdf(long double a, long double b, UnitPoint p) {
  require_positive_finite("a", a);
  require_positive_finite("b", b);
  return log_beta_cdf_and_prefix(beta_shape(a, b), p).log_cdf;
}

// Solved in t = log(x/y): d I / d t = x^a y^b / B(a, b), so d log I / d t = e^{prefix - log I}.
UnitPoint beta_quantile(long double a, long double b, long double alpha) {
  require_positive_finite("a", a);
  require_positive_finite("b", b);
  require_probability("alpha", alpha);
  const BetaShape shape = beta_shape(a, b);
  auto eval = [&](long double t) {
    const LogCdfAndPrefix v = log_beta_cdf_and_prefix(shape, from_logit(t));
    return LogValueAndSlope{v.log_cdf, exp(v.log_prefix - v.log_cdf)};
  };
  // Start: logit X ~ N(log(a/b), 1/a + 1/b) (the delta method), at the normal alpha-quantile.
  const long double start = std::clamp(
      shape.log_a - shape.log_b + normal_quantile_estimate(alpha) * std::sqrt(1 / a + 1 / b), -kLogitRange, kLogitRange);
  return from_logit(solve_increasing(eval, log(alpha), start, -kLogitRange, kLogitRange));
}

namespace {

// P(a, x) by its series x^a e^{-x}/Gamma(a) sum x^n/(a (a+1) ... (a+n)) below a + 1, else 1 - Q(a, x) from Q's
// continued fraction (Numerical Recipes, 3rd ed., 6.2.5 and 6.2.7), with the log of the prefactor
// x^a e^{-x}/Gamma(a).
LogCdfAndPrefix log_gamma_cdf_and_prefix(long double a, long double x) {
  if (!(x > 0)) return {-kInfinityLd, -kInfinityLd};
  if (x == kInfinityLd) return {0, -kInfinityLd};
  const long double prefix = log_gamma_prefix(a, x);
  if (x < a + 1) {
    long double ap = a, term = 1 / a, sum = term;
    for (long n = 1;; ++n) {
      ap += 1;
      term *= x / ap;
      sum += term;
      if (std::fabs(term) <= std::fabs(sum) * kContinuedFractionTolerance) break;
      if (n == kMaxTerms) too_many_terms("the incomplete gamma series", a, x);
    }
    return {prefix + log(sum), prefix};
  }
  long double b = x + 1 - a, c = 1 / kLentzFloor, d = 1 / b, h = d;
  for (long i = 1;; ++i) {
    const long double an = -static_cast<long double>(i) * (static_cast<long double>(i) - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < kLentzFloor) d = kLentzFloor;
    c = b + an / c;
    if (std::fabs(c) < kLentzFloor) c = kLentzFloor;
    d = 1 / d;
    const long double del = d * c;
    h *= del;
    if (std::fabs(del - 1) <= kContinuedFractionTolerance) break;
    if (i == kMaxTerms) too_many_terms("the incomplete gamma continued fraction", a, x);
  }
  return {log1p(-exp(prefix + log(h))), prefix};
}

}  // namespace

long double log_gamma_cdf(long double a, long double x) {
  require_positive_finite("a", a);
  return log_gamma_cdf_and_prefix(a, x).log_cdf;
}

// Solved in t = log x: d log P / d t = x^a e^{-x} / (Gamma(a) P).
long double gamma_quantile(long double a, long double alpha) {
  require_positive_finite("a", a);
  require_probability("alpha", alpha);
  auto eval = [&](long double t) {
    const LogCdfAndPrefix v = log_gamma_cdf_and_prefix(a, exp(t));
    return LogValueAndSlope{v.log_cdf, exp(v.log_prefix - v.log_cdf)};
  };
  // Start: log X ~ N(log a, 1/a) (the delta method), at the normal alpha-quantile.
  const long double start = std::clamp(log(a) + normal_quantile_estimate(alpha) / std::sqrt(a), -kLogitRange, kLogitRange);
  return exp(solve_increasing(eval, log(alpha), start, -kLogitRange, kLogitRange));
}

double normal_cdf(double x) {
  if (std::isnan(x)) throw InputError("x is NaN: allowed a real number");
  return static_cast<double>(0.5L * erfc(-static_cast<long double>(x) * kInvSqrt2));
}

// Phi^{-1}(p) = -Phi^{-1}(1 - p); 1 - p is exact for a double p >= 1/2.
double normal_quantile(double p) {
  require_probability("p", p);
  if (p == 0.5) return 0;
  if (p < 0.5) return static_cast<double>(lower_normal_quantile(p));
  return static_cast<double>(-lower_normal_quantile(1 - static_cast<long double>(p)));
}

// P(T > t) = I_x(df/2, 1/2)/2 with x = df/(df + t^2), t >= 0 (DLMF 8.17 with the t distribution's tail), so
// t = sqrt(df y / x) at the (2p)-quantile (x, y) of Beta(df/2, 1/2); P(T > -t) = 1 - P(T > t).
double student_t_upper_quantile(double df, double p) {
  require_positive_finite("df", df);
  require_probability("p", p);
  if (p == 0.5) return 0;
  const long double q = p < 0.5 ? p : 1 - static_cast<long double>(p);
  const UnitPoint b = beta_quantile(0.5L * df, 0.5L, 2 * q);
  const long double t = std::sqrt(df * b.y / b.x);
  return static_cast<double>(p < 0.5 ? t : -t);
}

}  // namespace dpl::portable
