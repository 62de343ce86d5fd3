// SPDX-License-Identifier: Apache-2.0
// The neighbouring relation a ledger's guarantees are stated for, and the check that a ledger does not mix two.
#pragma once

#include "accounting/mechanisms/mechanism_spec.h"

namespace dpl {

// Poisson subsampling is analysed for add/remove-one neighbours, sampling without replacement (wor) for
// replace-one neighbours (Balle, Barthe and Gaboardi 2018, Thms 8 and 9), sampling=poisson_replace_one for
// replace-one neighbours (Lebeda, Regehr, Kamath and Steinke 2025, Prop. 13). Unsampled entries hold for whatever
// relation their sensitivity was stated for, so they mix with either.
enum class NeighbouringRelation { any, add_remove, replace_one };

NeighbouringRelation relation_of(const LedgerEntry& e);

// Throws InputError when the ledger has both Poisson (add/remove) and wor (replace-one) subsampled entries:
// composing their guarantees as if they were about the same neighbours is unsound. The message says how to make
// the ledger consistent (an add/remove guarantee (eps, delta) implies a replace-one guarantee
// (2 eps, (1 + e^eps) delta) by group privacy of size 2, Dwork and Roth 2014, Thm 2.2 and its (eps, delta) form).
void require_single_relation(const Ledger& ledger);

}  // namespace dpl
