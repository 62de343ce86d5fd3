// SPDX-License-Identifier: Apache-2.0
// Renyi-DP curves that are affine in the order: (xi, rho)-zCDP mechanisms (Bun and Steinke 2016), the discrete
// Gaussian (Canonne, Kamath and Steinke 2020) and single-epoch tree aggregation of Gaussian nodes (Kairouz et al.
// 2021).
#pragma once

#include "accounting/rdp/rdp_curve.h"

namespace dpl {

// Bun and Steinke 2016, Def. 1.1: (xi, rho)-zCDP is D_alpha <= xi + rho alpha for every alpha > 1. The curve
// xi + rho alpha is the guarantee itself (an upper bound, exact for the Gaussian with xi = 0).
class ZcdpRdp final : public RdpCurve {
 public:
  ZcdpRdp(const Interval& xi, const Interval& rho) : xi_(xi), rho_(rho) {}
  Interval at(const Real& alpha) const override;
  Interval at_infinity() const override;
  double estimate(double alpha) const override;

 private:
  Interval xi_, rho_;
};

// Canonne, Kamath and Steinke 2020, Prop. 5: the discrete Gaussian N_Z(0, sigma^2) shifted by an integer of
// absolute value <= sens has D_alpha <= alpha sens^2 / (2 sigma^2) (equality at integer orders); in dimension d with
// L2 sensitivity sens the divergence is the sum over the coordinates (Renyi divergence of product distributions),
// so the same bound holds for every dimension. Upper bound: rho = sens^2 / (2 sigma^2).
Interval discrete_gaussian_rho(double sigma, double sens);

// Kairouz, McMahan, Song, Thakkar, Thakurta and Xu 2021, Appendix D: a record used once in a tree of
// `leaves` steps (restarted trees, the record in one of them) enters at most depth = ceil(log2(leaves + 1)) nodes,
// each with L2 sensitivity sens and Gaussian noise sigma: a Gaussian mechanism of L2 sensitivity sens sqrt(depth),
// rho = depth sens^2 / (2 sigma^2). Exact (the tree's noise is independent across nodes).
std::int64_t tree_depth(std::int64_t leaves);
Interval tree_rho(double sigma, double sens, std::int64_t leaves);

}  // namespace dpl
