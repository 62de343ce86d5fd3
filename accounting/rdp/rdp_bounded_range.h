// SPDX-License-Identifier: Apache-2.0
// Renyi-DP of eps-bounded-range mechanisms, the exponential mechanism among them (Durfee and Rogers 2019; Cesar
// and Rogers 2021).
#pragma once

#include "accounting/rdp/rdp_curve.h"

namespace dpl {

// An eps-bounded-range mechanism has, for every neighbouring pair, a privacy loss L in some [t, t + eps] with
// E_P[e^{-L}] = 1. Its KL divergence is at most c - 1 - log c, c = eps/(e^eps - 1) (Cesar and Rogers 2021, Sec. 3:
// the two-point loss at the ends of the range maximises E_P[L]), and by Hoeffding's lemma
// log E_P[e^{(a-1)(L - E L)}] <= (a-1)^2 eps^2/8, so D_a <= KL + (a-1) eps^2/8. It is also eps-DP, so the randomized
// response curve bounds it too (Mironov 2017, Prop. 5 proof). Upper bound: the smaller of the two.
class BoundedRangeRdp final : public RdpCurve {
 public:
  explicit BoundedRangeRdp(const Interval& eps);
  Interval at(const Real& alpha) const override;
  Interval at_infinity() const override;
  double estimate(double alpha) const override;

  // c - 1 - log c, c = eps/(e^eps - 1), computed without cancellation (series for small eps). Upper bound in hi().
  static Interval kl_bound(const Interval& eps);

 private:
  Interval eps_, kl_;
  std::unique_ptr<RdpCurve> rr_;
};

}  // namespace dpl
