// SPDX-License-Identifier: Apache-2.0
// The PLD accountant's dominating pairs of the mechanisms of accounting/mechanisms/extended_mechanisms.h (and rr in
// dp_accounting's (p, k) form); docs/mechanisms.md lists which apply.
#pragma once

#include "accounting/pld/loss_pair.h"

#include <optional>
#include <string>

namespace dpl {

// Whether loss_pair dispatches the entry here.
bool has_extended_pair(const LedgerEntry& e);
// The pair of one step; throws NotApplicable (naming why and what applies instead) where the PLD has none.
LossPair extended_loss_pair(const LedgerEntry& e, PairDirection d);
// Whether the pair is the same in both neighbouring directions.
bool extended_symmetric_pair(const LedgerEntry& e);
// Why no neighbouring datasets D, D' attain the pair the PLD's lower-bound pass uses for this entry (loss_pair's
// `optimistic` variant when set, else the pair itself), for any entry: a pair that only dominates the mechanism (a
// labelled mixture, a clone pair) bounds the mechanism from above, and its optimistic PLD bounds the cover, not the
// mechanism, so the PLD then gives no certified lower bound. nullopt when that pair is attained by some D, D' (every
// classic pair: the (subsampled) Gaussian and the Laplace by a record whose contribution moves by sens, rr by its two
// inputs, pure and approx by randomized response, the worst case of their class).
std::optional<std::string> unattained_lower_pair(const LedgerEntry& e);

}  // namespace dpl
