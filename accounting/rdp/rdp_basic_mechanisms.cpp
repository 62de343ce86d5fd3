// SPDX-License-Identifier: Apache-2.0
#include "accounting/rdp/rdp_basic_mechanisms.h"

#include "accounting/numeric/log_space.h"
#include "accounting/numeric/portable_math.h"

#include <cmath>

namespace dpl {

namespace {
}  // namespace

// Mironov 2017, Prop. 7 (exact).
Interval GaussianRdp::at(const Real& alpha) const { return exact_real(alpha) * mu_ * mu_ / 2; }
std::optional<Rational> GaussianRdp::exact_at(double alpha) const {
  const Rational s = exact_rational(sens_), sg = exact_rational(sigma_);
  return exact_rational(alpha) * s * s / (2 * sg * sg);
}
Interval GaussianRdp::at_infinity() const { return positive_infinity(); }
double GaussianRdp::estimate(double alpha) const {
  const double m = mid_double(mu_);
  return alpha * m * m / 2;
}

// Mironov 2017, Prop. 6 (exact), in log space.
Interval LaplaceRdp::at(const Real& alpha) const {
  const Interval a = exact_real(alpha);
  const Interval l = lambda_;
  const Interval t1 = log(a / (2 * a - 1)) + (a - 1) / l;
  const Interval t2 = log((a - 1) / (2 * a - 1)) - a / l;
  return log_add_exp(t1, t2) / (a - 1);
}
Interval LaplaceRdp::at_infinity() const { return exact(1.0) / lambda_; }
double LaplaceRdp::estimate(double a) const {
  const double l = mid_double(lambda_);
  return log_add_exp(portable::binary64::log(a / (2 * a - 1)) + (a - 1) / l, portable::binary64::log((a - 1) / (2 * a - 1)) - a / l) / (a - 1);
}

// Randomized response (exact), log p = -log1p(e^-eps), log(1-p) = -log1p(e^eps).
Interval RandomizedResponseRdp::at(const Real& alpha) const {
  const Interval a = exact_real(alpha);
  const Interval lp = -log1p(exp(-eps_)), lq = -log1p(exp(eps_));
  return log_add_exp(a * lp + (1 - a) * lq, a * lq + (1 - a) * lp) / (a - 1);
}
Interval RandomizedResponseRdp::at_infinity() const { return eps_; }
double RandomizedResponseRdp::estimate(double a) const {
  const double e = mid_double(eps_);
  const double lp = -portable::binary64::log1p(portable::binary64::exp(-e)), lq = -portable::binary64::log1p(portable::binary64::exp(e));
  return log_add_exp(a * lp + (1 - a) * lq, a * lq + (1 - a) * lp) / (a - 1);
}

}  // namespace dpl
