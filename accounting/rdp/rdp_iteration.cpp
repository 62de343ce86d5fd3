// SPDX-License-Identifier: Apache-2.0
#include "accounting/rdp/rdp_iteration.h"

namespace dpl {

// FMTT 2018 Thm 22 with contraction (see header): s^2 c^{2(m-1)} / (2 sigma^2 sum_{j<m} c^{2j}); the geometric
// sum is (1 - c^{2m})/(1 - c^2) for c < 1 and m for c = 1. Upper bound.
Interval IterationRdp::slope() const {
  const Interval s = exact(sens_), sg = exact(sigma_), m = exact_int(m_);
  if (c_ == 1.0) return s * s / (2 * sg * sg * m);
  const Interval c2 = exact(c_) * exact(c_);
  const Interval geometric = -expm1(m * log(c2)) / (1 - c2);
  return s * s * exp((m - 1) * log(c2)) / (2 * sg * sg * geometric);
}

Interval IterationRdp::at(const Real& alpha) const { return make_interval(alpha, alpha) * slope(); }
Interval IterationRdp::at_infinity() const { return positive_infinity(); }
double IterationRdp::estimate(double alpha) const { return alpha * mid_double(slope()); }

}  // namespace dpl

namespace dpl {
// Without contraction the bound a s^2/(2 sigma^2 m) is rational in the inputs: exact.
std::optional<Rational> IterationRdp::exact_at(double alpha) const {
  if (c_ != 1.0) return std::nullopt;
  const Rational s = exact_rational(sens_), sg = exact_rational(sigma_);
  return exact_rational(alpha) * s * s / (2 * sg * sg * Rational(m_));
}
}  // namespace dpl
