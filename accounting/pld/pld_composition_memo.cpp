// SPDX-License-Identifier: Apache-2.0
#include "accounting/pld/pld_composition_memo.h"

namespace dpl {

namespace {

bool same_mechanism(const Mechanism& a, const Mechanism& b) {
  return a.kind == b.kind && a.sigma == b.sigma && a.sens == b.sens && a.b == b.b && a.eps == b.eps &&
         a.delta == b.delta && a.iterations == b.iterations && a.index == b.index && a.contraction == b.contraction &&
         a.x == b.x;
}

bool same_ledger(const Ledger& a, const Ledger& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const LedgerEntry &x = a[i], &y = b[i];
    if (!same_mechanism(x.mechanism, y.mechanism) || x.steps != y.steps || x.q != y.q || x.sampling != y.sampling ||
        x.typed_without_other_ends != y.typed_without_other_ends || x.optimistic.has_value() != y.optimistic.has_value())
      return false;
    if (x.optimistic && (!same_mechanism(x.optimistic->mechanism, y.optimistic->mechanism) || x.optimistic->q != y.optimistic->q))
      return false;
  }
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
