// The composition entry point: runs the chosen accountant, or for `auto` every applicable one, and returns the
// tightest certified bound.
#pragma once

#include "accounting/composition/accounting_result.h"

namespace dpl {

// Throws NotApplicable when the accountant cannot handle the ledger, InputError for bad targets.
AccountingResult compose(const Ledger& ledger, const Target& target, AccountantKind kind);

}  // namespace dpl
