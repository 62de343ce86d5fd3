// SPDX-License-Identifier: Apache-2.0
// Renyi-DP of the Gaussian mechanism on a batch sampled with replacement (dp_accounting's
// SampledWithReplacementDpEvent of a Gaussian), replace-one neighbours.
#pragma once

#include "accounting/rdp/rdp_curve.h"

#include <cstdint>
#include <vector>

namespace dpl {

// A batch of m draws with replacement from n records holds the changed record K ~ Bin(m, 1/n) times, and given K
// (and the other draws, common to both datasets) the two outputs are Gaussians whose means differ by at most
// K sens. Releasing K as well gives the labelled mixture over k of the Gaussian pairs of shift k sens (joint
// convexity; a looser analysis than the tight ones that keep K hidden), whose divergence is exactly
// (1/(a-1)) log sum_k P[K = k] e^{(a-1) a k^2 mu^2 / 2}, mu = sens/sigma. Upper bound.
class WrGaussianRdp final : public RdpCurve {
 public:
  WrGaussianRdp(double sigma, double sens, std::int64_t m, std::int64_t n);
  Interval at(const Real& alpha) const override;
  Interval at_infinity() const override;
  double estimate(double alpha) const override;

 private:
  double sigma_, sens_;
  std::int64_t m_, n_;
  std::vector<double> log_pmf_;  // log P[K = k] in double, for the choice of the terms (not for the bound)
};

}  // namespace dpl
