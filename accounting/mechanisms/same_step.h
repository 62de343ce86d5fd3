// SPDX-License-Identifier: Apache-2.0
// Whether two ledger entries are steps of the same mechanism (their step counts aside): for the running budgets,
// which walk a per-step log of 10^6 lines and reuse the previous line's per-step bounds instead of keying each line.
#pragma once

#include "accounting/mechanisms/mechanism_spec.h"

namespace dpl {

bool same_step(const LedgerEntry& a, const LedgerEntry& b);

}  // namespace dpl
