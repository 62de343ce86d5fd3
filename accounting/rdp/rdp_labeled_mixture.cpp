// SPDX-License-Identifier: Apache-2.0
#include "accounting/rdp/rdp_labeled_mixture.h"

#include "accounting/numeric/log_space.h"
#include "accounting/numeric/portable_math.h"

#include <cmath>
#include <limits>

namespace dpl {

// (1/(a-1)) log sum_i w_i e^{(a-1) D_i(a)}: exact for the labelled mixture (header); upper bound from upper bounds.
Interval LabeledMixtureRdp::at(const Real& alpha) const {
  const Interval am1 = make_interval(alpha, alpha) - 1;
  Interval s = negative_infinity();
  for (const auto& [w, curve] : parts_) {
    if (hi(w) <= 0) continue;
    const Interval d = curve->at(alpha);
    if (!is_finite(d)) return positive_infinity();
    s = log_add_exp(s, log(w) + am1 * d);
  }
  return s / am1;
}

Interval LabeledMixtureRdp::at_infinity() const {
  Interval m = exact(0.0);
  for (const auto& [w, curve] : parts_)
    if (hi(w) > 0) m = imax(m, curve->at_infinity());
  return m;
}

double LabeledMixtureRdp::estimate(double alpha) const {
  double mx = -std::numeric_limits<double>::infinity();
  std::vector<double> t;
  for (const auto& [w, curve] : parts_) {
    const double wd = mid_double(w);
    if (wd <= 0) continue;
    t.push_back(portable::binary64::log(wd) + (alpha - 1) * curve->estimate(alpha));
    mx = std::max(mx, t.back());
  }
  if (!std::isfinite(mx)) return mx;
  double s = 0;
  for (double v : t) s += portable::binary64::exp(v - mx);
  return (mx + portable::binary64::log(s)) / (alpha - 1);
}

}  // namespace dpl
