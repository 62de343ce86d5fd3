// The PLD accountant's dominating pairs of the mechanisms of accounting/mechanisms/extended_mechanisms.h (and rr in
// dp_accounting's (p, k) form); docs/mechanisms.md lists which apply.
#pragma once

#include "accounting/pld/loss_pair.h"

namespace dpl {

// Whether loss_pair dispatches the entry here.
bool has_extended_pair(const LedgerEntry& e);
// The pair of one step; throws NotApplicable (naming why and what applies instead) where the PLD has none.
LossPair extended_loss_pair(const LedgerEntry& e, PairDirection d);
// Whether the pair is the same in both neighbouring directions.
bool extended_symmetric_pair(const LedgerEntry& e);

}  // namespace dpl
