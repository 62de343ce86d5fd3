// SPDX-License-Identifier: Apache-2.0
// Renyi-DP of a labelled mixture: with probability w_i the i-th of several pairs is run and its index is released.
// The pair (sum_i w_i P_i (x) e_i, sum_i w_i Q_i (x) e_i) dominates the unlabelled mixture (post-processing: forget
// the index), and e^{(a-1) D_a} = sum_i w_i e^{(a-1) D_a(P_i || Q_i)} exactly for it.
#pragma once

#include "accounting/rdp/rdp_curve.h"

#include <memory>
#include <utility>
#include <vector>

namespace dpl {

class LabeledMixtureRdp final : public RdpCurve {
 public:
  // Weights as enclosures (the bound is valid for every weight vector in them); they should sum to 1.
  explicit LabeledMixtureRdp(std::vector<std::pair<Interval, std::unique_ptr<RdpCurve>>> parts)
      : parts_(std::move(parts)) {}
  Interval at(const Real& alpha) const override;
  Interval at_infinity() const override;
  double estimate(double alpha) const override;

 private:
  std::vector<std::pair<Interval, std::unique_ptr<RdpCurve>>> parts_;
};

}  // namespace dpl
