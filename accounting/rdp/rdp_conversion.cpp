// SPDX-License-Identifier: Apache-2.0
#include "accounting/rdp/rdp_conversion.h"

#include "accounting/numeric/portable_math.h"

#include <algorithm>
#include <cmath>

namespace dpl {

namespace {
}  // namespace

// Mironov 2017, Prop. 3 (upper bound).
Interval rdp_epsilon_classic(const Interval& r, const Real& alpha, double delta) {
  return r - log(exact(delta)) / (exact_real(alpha) - 1);
}

// Balle et al. 2020, Thm 21 (upper bound).
Interval rdp_epsilon_improved(const Interval& r, const Real& alpha, double delta) {
  const Interval a = exact_real(alpha);
  return r + log1p(-1 / a) - (log(exact(delta)) + log(a)) / (a - 1);
}

Interval rdp_to_epsilon(const Interval& r, const Real& alpha, double delta) {
  if (!is_finite(r)) return positive_infinity();
  return clamp_nonnegative(imin(rdp_epsilon_classic(r, alpha, delta), rdp_epsilon_improved(r, alpha, delta)));
}

// Mironov 2017 Prop. 3 and Balle et al. 2020 Thm 21, solved for delta (upper bound).
Interval rdp_to_delta(const Interval& r, const Real& alpha, double eps) {
  if (!is_finite(r)) return exact(1.0);
  const Interval a = exact_real(alpha), e = exact(eps);
  const Interval classic = (a - 1) * (r - e);
  const Interval improved = (a - 1) * (r - e + log1p(-1 / a)) - log(a);
  const Interval log_delta = imin(classic, improved);
  return imin(exact(1.0), exp(log_delta));
}

double rdp_to_epsilon_estimate(double r, double a, double delta) {
  const double classic = r - portable::binary64::log(delta) / (a - 1);
  const double improved = r + portable::binary64::log1p(-1 / a) - (portable::binary64::log(delta) + portable::binary64::log(a)) / (a - 1);
  return std::max(0.0, std::min(classic, improved));
}

double rdp_to_log_delta_estimate(double r, double a, double eps) {
  const double classic = (a - 1) * (r - eps);
  const double improved = (a - 1) * (r - eps + portable::binary64::log1p(-1 / a)) - portable::binary64::log(a);
  return std::min(0.0, std::min(classic, improved));
}

}  // namespace dpl
