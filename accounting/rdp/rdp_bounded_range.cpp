// SPDX-License-Identifier: Apache-2.0
#include "accounting/rdp/rdp_bounded_range.h"

#include "accounting/rdp/rdp_basic_mechanisms.h"

#include <algorithm>
#include <cmath>

namespace dpl {

BoundedRangeRdp::BoundedRangeRdp(const Interval& eps)
    : eps_(eps), kl_(kl_bound(eps)), rr_(std::make_unique<RandomizedResponseRdp>(eps)) {}

// Cesar and Rogers 2021, Sec. 3: KL <= c - 1 - log c with c = eps/(e^eps - 1). For eps >= 1e-12 directly (c - 1 and
// log c, both about -eps/2, cancel to eps^2/8: MPFI's 200 bits keep more than 30 significant digits of it); below,
// with g = 1 - c = eps/2 - eps^2/12 + eps^4/720 - ..., the value is -g - log(1 - g) = g^2/2 + g^3/3 + g^4/4 + ...
// <= g^2/2 + g^3/3 + g^4/(4 (1 - g)); g is enclosed between partial sums of its alternating series (Bernoulli
// numbers: 1 - c = eps/2 - sum B_2k eps^2k/(2k)!, terms decreasing for eps < 2 pi). Upper bound.
Interval BoundedRangeRdp::kl_bound(const Interval& eps) {
  if (certainly_ge(eps, exact(1e-12))) {
    const Interval c = eps / expm1(eps);
    return c - 1 - log(c);
  }
  const Interval e2 = eps * eps;
  // g = eps/2 - eps^2/12 + eps^4/720 - eps^6/30240 + ...: between the sums to eps^4 and to eps^6.
  const Interval g_hi = eps / 2 - e2 / 12 + e2 * e2 / 720;
  const Interval g_lo = g_hi - e2 * e2 * e2 / 30240;
  const Interval g = hull(g_lo, g_hi), g2 = g * g;
  return g2 / 2 + g2 * g / 3 + g2 * g2 / (4 * (1 - g));
}

// min(KL + (a-1) eps^2/8, randomized response at a). Upper bound.
Interval BoundedRangeRdp::at(const Real& alpha) const {
  const Interval a = make_interval(alpha, alpha);
  const Interval hoeffding = kl_ + (a - 1) * eps_ * eps_ / 8;
  const Interval rr = rr_->at(alpha);
  return hi(hoeffding) <= hi(rr) ? hoeffding : rr;
}

Interval BoundedRangeRdp::at_infinity() const { return eps_; }

double BoundedRangeRdp::estimate(double alpha) const {
  const double e = mid_double(eps_);
  return std::min(mid_double(kl_) + (alpha - 1) * e * e / 8, rr_->estimate(alpha));
}

}  // namespace dpl
