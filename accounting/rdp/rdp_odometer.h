// SPDX-License-Identifier: Apache-2.0
// The RDP privacy odometer of a ledger that grows while it is read (a training loop asking for its epsilon after
// every step): each distinct entry's per-step RDP curve is bounded once at every order of a fixed grid (certified
// upper bounds in binary64), steps add (Mironov 2017, Prop. 1) with the sums rounded up, and epsilon at a delta is
// the smallest conversion over the grid (Mironov 2017 Prop. 3 / Balle et al. 2020 Thm 21, the smaller: both add a
// constant c(alpha, delta) to the RDP value, enclosed once per order and delta). A step costs O(1), an epsilon
// O(grid). Upper bounds; on rdp_running_orders() the readings are rdp_running_epsilon's, bit for bit.
#pragma once

#include "accounting/mechanisms/mechanism_spec.h"
#include "accounting/numeric/interval.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace dpl {

class RdpOdometer {
 public:
  // Orders: each finite and > 1 (InputError otherwise). Integer orders are bounded by the curves' batch path
  // (RdpCurve::upper_at_integer_orders), the others one by one (RdpCurve::certified_at, milliseconds each).
  explicit RdpOdometer(std::vector<double> orders);

  // Starts a new segment: `steps` steps of the per-step mechanism of `entry` (entry.steps is ignored). Throws
  // NotApplicable if the entry has no RDP curve, InputError for steps < 0.
  void add(const LedgerEntry& entry, std::int64_t steps);
  // `steps` more steps of the last segment (InputError if there is none or the count overflows).
  void extend(std::int64_t steps);
  // Forgets every segment (the per-step bounds of the entries seen stay cached).
  void clear();

  struct Reading {
    Interval epsilon;  // upper bound (0 before any step; +inf when no order of the grid gives a finite value)
    double order;      // the grid order of the bound (NaN when none)
  };
  // The bound at delta in (0, 1), the double at or below the target.
  Reading epsilon(double delta) const;

  const std::vector<double>& orders() const { return orders_; }
  std::int64_t total_steps() const { return total_steps_; }

 private:
  const std::vector<double>& per_step(const LedgerEntry& entry);

  std::vector<double> orders_;
  std::map<std::string, std::vector<double>> per_step_;  // to_spec(one step) -> upper bounds at orders_
  std::vector<double> before_;                           // the segments before the last, composed, rounded up
  const std::vector<double>* last_ = nullptr;            // the last segment's per-step bounds
  std::int64_t last_steps_ = 0, total_steps_ = 0;
  mutable std::map<double, std::vector<double>> shift_;  // delta -> c(alpha, delta) rounded up, per order
};

}  // namespace dpl
