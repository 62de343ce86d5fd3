// RDP of the Poisson-subsampled Gaussian mechanism (Mironov, Talwar and Zhang 2019), exact at integer orders,
// and at fractional orders by the two-sided series with a proven bound on its truncated tail.
#pragma once

#include "accounting/rdp/rdp_curve.h"

#include <cstdint>

namespace dpl {

class SubsampledGaussianRdp final : public RdpCurve {
 public:
  // q in (0, 1): sampling probability; z = sigma/sens: noise multiplier.
  SubsampledGaussianRdp(double q, double z) : q_(q), z_(z) {}
  Interval at(const Real& alpha) const override;
  Interval at_infinity() const override;
  double estimate(double alpha) const override;

  // MTZ 2019, Sec. 3.2: A_alpha = sum_k C(a,k) (1-q)^{a-k} q^k e^{(k^2-k)/(2z^2)}, integer a >= 2; exact.
  Interval integer_moment(std::int64_t alpha) const;
  // MTZ 2019, Sec. 3.3: A_alpha for real a > 1 as the two series with signs kept, plus/minus a proven bound on
  // the tail (Leibniz: alternating terms of non-increasing magnitude) after `terms_used` terms (see the derivation in docs/rdp_fractional_tail.md). Enclosure.
  Interval fractional_moment(const Real& alpha, std::int64_t* terms_used = nullptr) const;

 private:
  double q_, z_;
};

}  // namespace dpl
