// SPDX-License-Identifier: Apache-2.0
// Composed PLDs kept across calls of the PLD accountant, so that delta(eps) at many eps of one ledger composes once:
// at an epsilon target the grids, tails and tilt do not depend on eps (only the final read-out does), so every
// composed distribution of the second call equals the first's, bit for bit. Entries are keyed by the ledger
// composed (compared field by field), the direction, the end (pessimistic or optimistic), grid, tail and tilt.
// Thread-safe (the lower pass runs on the helper thread).
#pragma once

#include "accounting/mechanisms/mechanism_spec.h"
#include "accounting/pld/discrete_pld.h"

#include <functional>
#include <mutex>
#include <vector>

namespace dpl {

class PldCompositionMemo {
 public:
  // The memoised value of `compute()` for this key (what = what was computed: the composed PLD, or the one-step
  // PLDs of every entry); computed outside the lock.
  std::vector<DiscretePld> get(const Ledger& ledger, PairDirection dir, bool pessimistic, double grid, double tail,
                               double tilt, int what, const std::function<std::vector<DiscretePld>()>& compute);

 private:
  struct Entry {
    Ledger ledger;
    PairDirection dir;
    bool pessimistic;
    double grid, tail, tilt;
    int what;
    std::vector<DiscretePld> value;
  };
  std::mutex mutex_;
  std::vector<Entry> entries_;
};

}  // namespace dpl
