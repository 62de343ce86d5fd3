// SPDX-License-Identifier: Apache-2.0
#include "accounting/rdp/rdp_running.h"

#include "accounting/errors.h"
#include "accounting/mechanisms/ledger_file.h"
#include "accounting/mechanisms/same_step.h"
#include "accounting/numeric/directed_double.h"
#include "accounting/rdp/rdp_conversion.h"
#include "accounting/rdp/rdp_curve.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace dpl {
const std::vector<double>& rdp_running_orders() {
  // Integer orders only: their certified values are binomial sums (microseconds for many orders at once);
  // fractional ones need the two-sided series (milliseconds each), which 10^4 distinct entries cannot afford.
  // Every integer to 12, then ~20% apart to 48, then doubling: the cost of a curve grows with the sum of the
  // orders (861 here).
  static const std::vector<double> orders = {2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,  14,
                                             16, 18, 20, 24, 28, 32, 40, 48, 64, 96, 128, 256};
  return orders;
}

std::vector<Interval> rdp_running_epsilon(const Ledger& ledger, const std::vector<RunningCheckpoint>& checkpoints,
                                          double delta) {
  const auto& G = rdp_running_orders();
  std::vector<std::int64_t> orders(G.begin(), G.end());
  // The conversion at order a is r + c(a) (both theorems add a constant to r): c(a) rounded up once per order.
  std::vector<double> shift(G.size());
  for (std::size_t g = 0; g < G.size(); ++g)
    shift[g] = std::min(hi_up(rdp_epsilon_classic(exact(0.0), Real(G[g]), delta)),
                        hi_up(rdp_epsilon_improved(exact(0.0), Real(G[g]), delta)));
  // Per-step certified upper bounds of each distinct entry at each grid order.
  std::map<std::string, std::vector<double>> per_step;
  std::vector<const std::vector<double>*> entry_curve(ledger.size());
  for (std::size_t i = 0; i < ledger.size(); ++i) {
    if (i > 0 && same_step(ledger[i], ledger[i - 1])) {  // a per-step log: the line before's curve
      entry_curve[i] = entry_curve[i - 1];
      continue;
    }
    LedgerEntry one = ledger[i];
    one.steps = 1;
    const std::string key = to_spec(one);
    auto it = per_step.find(key);
    if (it == per_step.end()) it = per_step.emplace(key, make_rdp_curve(one)->upper_at_integer_orders(orders)).first;
    entry_curve[i] = &it->second;
  }
  std::vector<Interval> out;
  out.reserve(checkpoints.size());
  std::vector<double> before(G.size(), 0.0);  // composed curve of the entries before the current one, rounded up
  std::size_t current = 0;
  for (const auto& c : checkpoints) {
    while (current < c.entry) {
      for (std::size_t g = 0; g < G.size(); ++g)
        before[g] = add_up(before[g], times_up(ledger[current].steps, (*entry_curve[current])[g]));
      ++current;
    }
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t g = 0; g < G.size(); ++g) {
      const double r = add_up(before[g], times_up(c.steps_in_entry, (*entry_curve[c.entry])[g]));
      if (!std::isfinite(r)) continue;
      best = std::min(best, std::max(0.0, add_up(r, shift[g])));
    }
    out.push_back(std::isfinite(best) ? exact(best) : positive_infinity());
  }
  return out;
}

}  // namespace dpl
