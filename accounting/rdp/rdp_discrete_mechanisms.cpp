// SPDX-License-Identifier: Apache-2.0
#include "accounting/rdp/rdp_discrete_mechanisms.h"

#include "accounting/numeric/log_space.h"
#include "accounting/numeric/portable_math.h"

#include <cmath>

namespace dpl {

namespace {

}  // namespace

// Discrete Laplace: the three geometric sums of the header, in log space. Exact.
Interval DiscreteLaplaceRdp::at(const Real& alpha) const {
  const Interval al = exact_real(alpha), a = exact(a_), s = exact_int(s_);
  const Interval log_norm = log1mexp(-a) - log1p(exp(-a));  // log tanh(a/2)
  const Interval log_geo = -log1mexp(-a);  // -log(1 - e^{-a})
  const Interval t1 = a * (al - 1) * s + log_geo;
  const Interval t3 = -a * al * s + log_geo;
  Interval sum = log_add_exp(t1, t3);
  if (s_ > 1) {
    // sum_{x=1}^{s-1} r^x = r (1 - r^{s-1})/(1 - r), r = e^{-a(2 alpha - 1)} < 1.
    const Interval lr = -a * (2 * al - 1);
    const Interval t2 = a * (al - 1) * s + lr + log1mexp(lr * (s - 1)) - log1mexp(lr);
    sum = log_add_exp(sum, t2);
  }
  return (log_norm + sum) / (al - 1);
}

Interval DiscreteLaplaceRdp::at_infinity() const { return exact(a_) * exact_int(s_); }

double DiscreteLaplaceRdp::estimate(double alpha) const {
  const double a = a_, s = static_cast<double>(s_);
  const double log_geo = -portable::binary64::log(-portable::binary64::expm1(-a));
  double sum = log_add_exp(a * (alpha - 1) * s + log_geo, -a * alpha * s + log_geo);
  if (s_ > 1) {
    const double lr = -a * (2 * alpha - 1);
    sum = log_add_exp(sum, a * (alpha - 1) * s + lr + portable::binary64::log(-portable::binary64::expm1(lr * (s - 1))) - portable::binary64::log(-portable::binary64::expm1(lr)));
  }
  return (portable::binary64::log(portable::tanh(a / 2)) + sum) / (alpha - 1);
}

// k-ary randomized response (header). Exact.
Interval KaryRandomizedResponseRdp::at(const Real& alpha) const {
  const Interval al = exact_real(alpha), p = exact(p_), k = exact_int(k_);
  const Interval lb = log(p / k), la = log1p(-p + p / k);
  Interval sum = log_add_exp(al * la + (1 - al) * lb, al * lb + (1 - al) * la);
  if (k_ > 2) sum = log_add_exp(sum, log((k - 2) * p / k));
  return sum / (al - 1);
}

// log(A/B) = log(1 + k (1 - p)/p).
Interval KaryRandomizedResponseRdp::at_infinity() const {
  const Interval p = exact(p_);
  return log1p(exact_int(k_) * (1 - p) / p);
}

double KaryRandomizedResponseRdp::estimate(double alpha) const {
  const double p = p_, k = static_cast<double>(k_);
  const double lb = portable::binary64::log(p / k), la = portable::binary64::log1p(-p + p / k);
  double sum = log_add_exp(alpha * la + (1 - alpha) * lb, alpha * lb + (1 - alpha) * la);
  if (k_ > 2) sum = log_add_exp(sum, portable::binary64::log((k - 2) * p / k));
  return sum / (alpha - 1);
}

}  // namespace dpl
