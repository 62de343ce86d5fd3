// SPDX-License-Identifier: Apache-2.0
#include "accounting/mechanisms/analytic_gaussian_long_double.h"

#include "accounting/numeric/portable_math.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dpl {

namespace {

// The unit roundoff of x87 long double at its default 64-bit precision (round to nearest).
constexpr long double kUnitRoundoffLd = 0x1p-64L;

struct PointValue {
  long double value, margin;  // |true delta - value| <= margin
};

// Balle and Wang 2018, Thm 8 at the exact point (m, e), as delta = erfc(alpha)/2 - e^e erfc(beta)/2 with
// alpha = (e/m - m/2)/sqrt 2, beta = (e/m + m/2)/sqrt 2, and a bound on the error of the long-double evaluation
// (derivation: docs/accountants.md, "The analytic Gaussian's numerics"; the margin makes [value - margin,
// value + margin] an enclosure of the true value).
std::optional<PointValue> point_value(long double m, long double e) {
  if (!(m >= 1e-4000L && m <= 1e150L) || !(e >= 0 && e <= 1e4L)) return std::nullopt;
  const long double s = std::sqrt(0.5L);  // 1/sqrt 2, correctly rounded (IEEE square root)
  const long double p = e / m, h = m / 2;  // h exact
  const long double alpha = (p - h) * s, beta = (p + h) * s;
  // |alpha - its computed value| and the same for beta are at most 4 u (1 + 2u) s (p + h) <= 4.01 u beta_computed.
  const long double arg_error = 4.01L * kUnitRoundoffLd * beta;
  // alpha > 107 for certain: 0 <= delta <= erfc(alpha)/2 < erfc(107)/2 < 1e-4900 (what remains of a Gaussian of
  // tiny mu, e.g. a calibration's most private end).
  if (alpha - arg_error > 107) return PointValue{0, 1e-4900L};
  // The relative error of portable::erfc at the computed argument against erfc at the true one: the function's
  // own bound (130 u for x >= 0; 2 - erfc(-x) for x < 0, a value in (1, 2], 131 u) plus the argument's error times the largest |d log erfc / dx| on the
  // segment, <= 2 max(x, 0) + sqrt 2 (Abramowitz and Stegun 7.1.13; <= 2/sqrt(pi) for x < 0), to first order:
  // (1 + c) e^{L E} - 1 <= c + 1.002 L E for L E <= 1e-3.
  auto erfc_relative_error = [&](long double x) -> std::optional<long double> {
    const long double c = (x >= 0 ? 130 : 131) * kUnitRoundoffLd;
    const long double l_e = (2 * std::max(x + arg_error, 0.0L) + 1.4143L) * arg_error;
    if (!(l_e <= 1e-3L)) return std::nullopt;
    return c + 1.002L * l_e;
  };
  const long double erfc_alpha = portable::erfc(alpha), erfc_beta = portable::erfc(beta);
  // Normal results only: the error bounds above are relative and the margin's products must not underflow.
  if (!(erfc_alpha >= 1e-4000L && erfc_beta >= 1e-4000L)) return std::nullopt;
  const auto r_alpha = erfc_relative_error(alpha), r_beta = erfc_relative_error(beta);
  if (!r_alpha || !r_beta) return std::nullopt;
  const long double a = erfc_alpha / 2;                       // exact scaling
  const long double b = portable::exp(e) * (erfc_beta / 2);  // exp: 2 u; the product: u
  const long double r_a = *r_alpha, r_b = *r_beta + 3 * kUnitRoundoffLd;
  // |A - a| <= r_a A <= 1.001 r_a a (likewise for B); the subtraction's rounding <= u (a + b); the margin's own
  // roundings (a few u, relative) are covered by the factor 1.001.
  const long double margin = 1.001L * (1.001L * (r_a * a + r_b * b) + kUnitRoundoffLd * (a + b));
  return PointValue{a - b, margin};
}

}  // namespace

std::optional<LongDoubleEnclosure> analytic_gaussian_delta_long_double(long double mu_lo, long double mu_hi,
                                                                       long double eps) {
  if (!(mu_lo <= mu_hi)) return std::nullopt;
  const auto up = point_value(mu_hi, eps);
  if (!up) return std::nullopt;
  const auto down = mu_lo == mu_hi ? up : point_value(mu_lo, eps);
  if (!down) return std::nullopt;
  // value +- margin rounded to nearest is within half an ulp of the exact sum: one step outwards bounds it.
  constexpr long double inf = std::numeric_limits<long double>::infinity();
  return LongDoubleEnclosure{std::nextafter(down->value - down->margin, -inf),
                             std::nextafter(up->value + up->margin, inf)};
}

}  // namespace dpl
