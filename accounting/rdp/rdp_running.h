// The running RDP epsilon of a ledger at many checkpoints for about the cost of one final budget: RDP composes
// additively (Mironov 2017, Prop. 1), so each distinct entry's curve is evaluated once per order of a fixed grid
// (certified upper bounds, converted to double rounding up), the prefix sums are accumulated rounding up, and at
// each checkpoint the conversion (Mironov 2017 Prop. 3 / Balle et al. 2020 Thm 21, the smaller) is certified at
// the grid order whose float64 estimate is smallest. Upper bounds; the grid makes them at most slightly looser than
// compose()'s continuously optimised order.
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
