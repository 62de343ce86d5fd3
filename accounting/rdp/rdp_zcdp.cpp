// SPDX-License-Identifier: Apache-2.0
#include "accounting/rdp/rdp_zcdp.h"

#include <bit>

namespace dpl {

// Bun and Steinke 2016, Def. 1.1 (upper bound).
Interval ZcdpRdp::at(const Real& alpha) const { return xi_ + rho_ * make_interval(alpha, alpha); }
Interval ZcdpRdp::at_infinity() const { return positive_infinity(); }
double ZcdpRdp::estimate(double alpha) const { return mid_double(xi_) + mid_double(rho_) * alpha; }

// Canonne, Kamath and Steinke 2020, Prop. 5: rho = sens^2 / (2 sigma^2). Upper bound.
Interval discrete_gaussian_rho(double sigma, double sens) {
  const Interval r = exact(sens) / exact(sigma);
  return r * r / 2;
}

// ceil(log2(leaves + 1)) = the bit length of leaves (exact integer arithmetic).
std::int64_t tree_depth(std::int64_t leaves) {
  return leaves <= 0 ? 0 : static_cast<std::int64_t>(std::bit_width(static_cast<std::uint64_t>(leaves)));
}

// Kairouz et al. 2021, Appendix D: rho = depth sens^2 / (2 sigma^2). Exact.
Interval tree_rho(double sigma, double sens, std::int64_t leaves) {
  const Interval r = exact(sens) / exact(sigma);
  return exact_int(tree_depth(leaves)) * r * r / 2;
}

}  // namespace dpl
