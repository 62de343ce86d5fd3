// SPDX-License-Identifier: Apache-2.0
// The composition entry point: runs the chosen accountant, or for `auto` every applicable one, and returns the
// tightest certified bound.
#pragma once

#include "accounting/composition/accounting_result.h"
#include "accounting/pld/pld_accountant.h"
#include "accounting/progress_callback.h"

#include <vector>

namespace dpl {

// The accountants `auto` runs, most specific first: on equal bounds `auto` reports the earlier one, and
// per-accountant outputs (running budget, privacy curve) list them in this order.
const std::vector<AccountantKind>& automatic_accountants();

// Throws NotApplicable when the accountant cannot handle the ledger, InputError for bad targets. `progress`
// reports the PLD accountant's passes (the only one that may take seconds).
AccountingResult compose(const Ledger& ledger, const Target& target, AccountantKind kind,
                         const ProgressCallback& progress = {});

// The same with the PLD accountant's options (its grid, passes, progress), e.g. a calibration search on one
// fixed grid without the lower-bound pass. The other accountants ignore them, but for the lower bound: it is computed
// from the optimistic ends of the ledger's typed decimals (optimistic_ledger, mechanism_spec.h) at pld.lower_target,
// by a second run of the winning accountant where those differ from the ends used for the upper bound, and not at all
// (not reported) when pld.lower is false.
AccountingResult compose_with_pld_options(const Ledger& ledger, const Target& target, AccountantKind kind,
                                          const PldOptions& pld);

// A target typed as a decimal (--delta 1e-5 is not a double): `down` and `up` are the doubles just below and
// just above it (equal when it is a double).
struct DecimalTarget {
  Target::Given given;
  double down, up;
};
// The bound at the decimal itself. epsilon(delta) and delta(epsilon) are non-increasing, so the upper bound is
// computed at `down` (it bounds the value at the decimal from above); the lower bound, if any, at `up` (the
// winning accountant is run a second time only when down != up).
AccountingResult compose(const Ledger& ledger, const DecimalTarget& target, AccountantKind kind,
                         const ProgressCallback& progress = {});

}  // namespace dpl
