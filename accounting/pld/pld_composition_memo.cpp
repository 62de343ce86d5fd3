// SPDX-License-Identifier: Apache-2.0
#include "accounting/pld/pld_composition_memo.h"

#include "accounting/mechanisms/same_step.h"

namespace dpl {

namespace {

// The same ledger entry by entry: the same step (same_step.h) repeated the same number of times.
bool same_ledger(const Ledger& a, const Ledger& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].steps != b[i].steps || !same_step(a[i], b[i])) return false;
  return true;
}

}  // namespace

std::vector<DiscretePld> PldCompositionMemo::get(const Ledger& ledger, PairDirection dir, bool pessimistic, double grid,
                                                 double tail, double tilt, int what,
                                                 const std::function<std::vector<DiscretePld>()>& compute) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& e : entries_)
      if (e.dir == dir && e.pessimistic == pessimistic && e.grid == grid && e.tail == tail && e.tilt == tilt &&
          e.what == what && same_ledger(e.ledger, ledger))
        return e.value;
  }
  std::vector<DiscretePld> value = compute();
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.push_back({ledger, dir, pessimistic, grid, tail, tilt, what, value});
  return value;
}

}  // namespace dpl
