// SPDX-License-Identifier: Apache-2.0
// The composed Renyi-DP curve at a list of orders (the `rdp` command), each value certified, with the work bounded:
// a request is refused up front when it has too many orders or would take more than a few seconds.
#pragma once

#include "accounting/numeric/exact_rational.h"
#include "accounting/numeric/interval.h"
#include "accounting/rdp/rdp_accountant.h"

#include <optional>
#include <vector>

namespace dpl {

// At most this many orders per request.
inline constexpr std::size_t kMaxRdpOrders = 1000;
// At most this much work per request, in units of about 10 ns (RdpCurve::evaluation_work): about 3 s.
inline constexpr double kMaxRdpOrdersWork = 3e8;

struct RdpAtOrder {
  double order = 0;                  // > 1, or +inf
  std::optional<Rational> exact;     // the exact composed value where every curve is rational there (Gaussians)
  Interval bound;                    // otherwise: hi() is a certified upper bound (+inf allowed)
};

// Throws InputError naming --orders when there are more than kMaxRdpOrders orders or the work exceeds
// kMaxRdpOrdersWork. Integer orders up to 4096 of ledgers with at most 8 distinct curves (and little work) come from
// the 200-bit sums; other integer orders up to 1e4 from each curve's batched path (one enclosure of the ratios per
// curve, docs/rdp_double_precision.md, 4: within 1e-9 relative of the 200-bit values); the rest from the fast
// certified path (RdpCurve::certified_at).
std::vector<RdpAtOrder> composed_rdp_at_orders(const ComposedRdp& rdp, const std::vector<double>& orders);

}  // namespace dpl
