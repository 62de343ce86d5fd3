// SPDX-License-Identifier: Apache-2.0
// The running RDP epsilon of a ledger at many checkpoints for about the cost of one final budget: RDP composes
// additively (Mironov 2017, Prop. 1), so each distinct entry's per-step curve is bounded once at each order of a
// fixed grid of integer orders (certified upper bounds in binary64, RdpCurve::upper_at_integer_orders), the
// prefix sums are accumulated rounding up, and at each checkpoint the conversion (Mironov 2017 Prop. 3 /
// Balle et al. 2020 Thm 21, the smaller) is r + c(alpha) with c(alpha) enclosed once per order, so every grid
// order is converted certified and the smallest is kept. Upper bounds; the grid makes them at most slightly
// looser than compose()'s optimised order (running_budget ends the column at compose()'s value).
#pragma once

#include "accounting/composition/running_budget.h"

#include <vector>

namespace dpl {

// The grid of orders used (also in the JSON of `compose --running`).
const std::vector<double>& rdp_running_orders();

// Certified epsilon upper bounds at each checkpoint for the target delta `delta` (the safe-side double).
// Throws NotApplicable if an entry has no RDP curve.
std::vector<Interval> rdp_running_epsilon(const Ledger& ledger, const std::vector<RunningCheckpoint>& checkpoints,
                                          double delta);

}  // namespace dpl
