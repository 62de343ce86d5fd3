// SPDX-License-Identifier: Apache-2.0
// RDP amplification by subsampling for any mechanism with an RDP curve: Poisson (Zhu and Wang 2019) and sampling
// without replacement (Wang, Balle and Kasiviswanathan 2019). Integer orders by the theorems; fractional orders
// by the convexity of (a-1) eps(a) between the neighbouring integers; always capped by the unsampled curve.
#pragma once

#include "accounting/rdp/rdp_curve.h"

#include <memory>

namespace dpl {

class SubsampledGeneralRdp final : public RdpCurve {
 public:
  enum class Scheme { poisson, without_replacement };
  SubsampledGeneralRdp(std::unique_ptr<RdpCurve> base, double q, Scheme scheme)
      : base_(std::move(base)), q_(q), scheme_(scheme) {}
  Interval at(const Real& alpha) const override;
  Interval at_infinity() const override;
  double estimate(double alpha) const override;
  // O(alpha) 200-bit terms (~3 us each) up to order 2048 (two orders at fractional alpha), then the base curve's.
  double evaluation_work(double alpha) const override;

  // Zhu and Wang 2019, Thm 6 (Poisson, upper bound), integer a >= 2.
  Interval poisson_integer(std::int64_t a) const;
  // Wang, Balle and Kasiviswanathan 2019, Thm 9 (without replacement, replace-one, upper bound), integer a >= 2.
  Interval wor_integer(std::int64_t a) const;

 private:
  Interval integer_bound(std::int64_t a) const;
  double integer_estimate(std::int64_t a) const;
  std::unique_ptr<RdpCurve> base_;
  double q_;
  Scheme scheme_;
};

}  // namespace dpl
