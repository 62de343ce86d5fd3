// SPDX-License-Identifier: Apache-2.0
#include "accounting/rdp/rdp_odometer.h"

#include "accounting/errors.h"
#include "accounting/mechanisms/ledger_file.h"
#include "accounting/numeric/decimal.h"
#include "accounting/numeric/directed_double.h"
#include "accounting/rdp/rdp_conversion.h"
#include "accounting/rdp/rdp_curve.h"

#include <cmath>
#include <limits>

namespace dpl {

RdpOdometer::RdpOdometer(std::vector<double> orders) : orders_(std::move(orders)) {
  if (orders_.empty()) throw InputError("orders: at least one Renyi order is required");
  if (orders_.size() > 100000) throw InputError("orders: at most 100000 Renyi orders");
  for (double a : orders_)
    if (!(a > 1) || !std::isfinite(a) || a > 1e7)
      throw InputError("orders: " + format_input(a) + " is out of range: allowed (1, 1e7]");
  before_.assign(orders_.size(), 0.0);
}

const std::vector<double>& RdpOdometer::per_step(const LedgerEntry& entry) {
  LedgerEntry one = entry;
  one.steps = 1;
  const std::string key = to_spec(one);
  if (const auto it = per_step_.find(key); it != per_step_.end()) return it->second;
  const auto curve = make_rdp_curve(one);
  std::vector<double> bound(orders_.size());
  std::vector<std::int64_t> integer_orders;
  std::vector<std::size_t> integer_at;
  for (std::size_t g = 0; g < orders_.size(); ++g) {
    if (orders_[g] == std::floor(orders_[g])) {
      integer_orders.push_back(static_cast<std::int64_t>(orders_[g]));
      integer_at.push_back(g);
    } else {
      const Interval v = curve->certified_at(orders_[g]);
      bound[g] = is_finite(v) ? hi_up(v) : std::numeric_limits<double>::infinity();
    }
  }
  if (!integer_orders.empty()) {
    const std::vector<double> v = curve->upper_at_integer_orders(integer_orders);
    for (std::size_t i = 0; i < v.size(); ++i) bound[integer_at[i]] = v[i];
  }
  return per_step_.emplace(key, std::move(bound)).first->second;
}

void RdpOdometer::add(const LedgerEntry& entry, std::int64_t steps) {
  if (steps < 0) throw InputError("steps: " + std::to_string(steps) + " is out of range: allowed >= 0");
  const std::vector<double>& next = per_step(entry);
  if (last_)
    for (std::size_t g = 0; g < orders_.size(); ++g) before_[g] = add_up(before_[g], times_up(last_steps_, (*last_)[g]));
  last_ = &next;
  last_steps_ = 0;
  extend(steps);
}

void RdpOdometer::extend(std::int64_t steps) {
  if (!last_) throw InputError("steps: no mechanism to extend (add one first)");
  if (steps < 0) throw InputError("steps: " + std::to_string(steps) + " is out of range: allowed >= 0");
  if (__builtin_add_overflow(last_steps_, steps, &last_steps_) || __builtin_add_overflow(total_steps_, steps, &total_steps_))
    throw InputError("steps: the odometer's step count overflows (more than 9.2e18 steps)");
}

void RdpOdometer::clear() {
  before_.assign(orders_.size(), 0.0);
  last_ = nullptr;
  last_steps_ = total_steps_ = 0;
}

RdpOdometer::Reading RdpOdometer::epsilon(double delta) const {
  if (!(delta > 0 && delta < 1)) throw InputError("delta: " + format_input(delta) + " is out of range: allowed (0, 1)");
  if (total_steps_ == 0) return {exact(0.0), std::numeric_limits<double>::quiet_NaN()};
  auto it = shift_.find(delta);
  if (it == shift_.end()) {
    // The conversion at order a is r + c(a) (both theorems add a constant to r): c(a) rounded up once per order.
    std::vector<double> shift(orders_.size());
    for (std::size_t g = 0; g < orders_.size(); ++g)
      shift[g] = std::min(hi_up(rdp_epsilon_classic(exact(0.0), Real(orders_[g]), delta)),
                          hi_up(rdp_epsilon_improved(exact(0.0), Real(orders_[g]), delta)));
    if (shift_.size() >= 64) shift_.clear();
    it = shift_.emplace(delta, std::move(shift)).first;
  }
  const std::vector<double>& shift = it->second;
  double best = std::numeric_limits<double>::infinity(), order = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t g = 0; g < orders_.size(); ++g) {
    const double r = add_up(before_[g], times_up(last_steps_, (*last_)[g]));
    if (!std::isfinite(r)) continue;
    const double e = std::max(0.0, add_up(r, shift[g]));
    if (e < best) best = e, order = orders_[g];
  }
  return {std::isfinite(best) ? exact(best) : positive_infinity(), order};
}

}  // namespace dpl
