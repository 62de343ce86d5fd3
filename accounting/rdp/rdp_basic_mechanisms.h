// SPDX-License-Identifier: Apache-2.0
// RDP curves of the unsampled mechanisms: Gaussian, Laplace, randomized response (= worst case of pure eps-DP).
#pragma once

#include "accounting/rdp/rdp_curve.h"

namespace dpl {

// Mironov 2017, Prop. 7: alpha mu^2 / 2 with mu = sens/sigma. Exact.
class GaussianRdp final : public RdpCurve {
 public:
  GaussianRdp(double sigma, double sens) : sigma_(sigma), sens_(sens), mu_(exact(sens) / exact(sigma)) {}
  Interval at(const Real& alpha) const override;
  Interval at_infinity() const override;
  double estimate(double alpha) const override;
  std::optional<Rational> exact_at(double alpha) const override;

 private:
  double sigma_, sens_;
  Interval mu_;
};

// Mironov 2017, Prop. 6 (lambda = b/sens): 1/(a-1) log(a/(2a-1) e^{(a-1)/lambda} + (a-1)/(2a-1) e^{-a/lambda}). Exact.
class LaplaceRdp final : public RdpCurve {
 public:
  explicit LaplaceRdp(const Interval& lambda) : lambda_(lambda) {}
  Interval at(const Real& alpha) const override;
  Interval at_infinity() const override;
  double estimate(double alpha) const override;

 private:
  Interval lambda_;
};

// Randomized response with p = e^eps/(1+e^eps): 1/(a-1) log(p^a (1-p)^{1-a} + (1-p)^a p^{1-a}) (Mironov 2017,
// Prop. 5 proof). Exact for rr; for any eps-DP mechanism an upper bound, since randomized response dominates
// every eps-DP pair (Kairouz-Oh-Viswanath 2015, Thm 2.4; Zhu, Dong and Wang 2022, dominating pairs).
class RandomizedResponseRdp final : public RdpCurve {
 public:
  explicit RandomizedResponseRdp(const Interval& eps) : eps_(eps) {}
  Interval at(const Real& alpha) const override;
  Interval at_infinity() const override;
  double estimate(double alpha) const override;

 private:
  Interval eps_;
};

}  // namespace dpl
