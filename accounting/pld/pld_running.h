// SPDX-License-Identifier: Apache-2.0
// The PLD's running epsilon of a ledger at many checkpoints by one running composition: the composed PLD after a
// checkpoint is the one after the previous checkpoint composed with the PLD of the steps between them (composition is
// associative; Koskela, Jalko and Honkela 2020), all on one loss grid (the whole ledger's fine grid, pld_fine_grid),
// so a per-step log of 10^5 lines costs about one convolution per evaluated checkpoint, not one composition of its
// prefix each. Each value is a certified upper bound (connect-the-dots pessimistic steps, round-off and tails
// bounded as in compose_pld), possibly slightly looser than compose_pld's own grid for that prefix.
#pragma once

#include "accounting/composition/running_budget.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace dpl {

// Certified upper bounds on epsilon at `delta` after the checkpoints: at most `max_evaluations` of them, evenly
// spread (all when there are no more), the last checkpoint excluded (the caller has the whole ledger's value);
// nullopt elsewhere. Throws NotApplicable when the PLD does not apply to the ledger, when its entries do not fit in
// kMaxPldDistinctEntries groups, for a delta below 1e-9 (where compose_pld tilts every PLD), and PldWorkLimit when
// the open work scopes run out.
std::vector<std::optional<double>> pld_running_epsilon(const Ledger& ledger,
                                                       const std::vector<RunningCheckpoint>& checkpoints,
                                                       double delta, std::size_t max_evaluations);

}  // namespace dpl
