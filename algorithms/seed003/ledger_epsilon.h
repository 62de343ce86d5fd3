// SPDX-License-Identifier: Apache-2.0
// dpledger's accounting of a seed-003 run: ledgers written as mechanism specs (the exact text `dpledger compose
// -m` takes, so the numbers can be reproduced), run through dpl::compose for one accountant, and the best
// certified bound over several ledgers/accountants.
#pragma once

#include "accounting/composition/accounting_result.h"
#include "algorithms/run/run_parameters.h"

#include <string>
#include <vector>

namespace dpl::algorithms::seed003 {

// A double as the shortest decimal that reads back exactly (for specs).
std::string spec_number(double v);

// Composes the specs for `delta` with `kind`: {"epsilon" (certified upper bound, the value `dpledger compose`
// prints), "accountant", "order"?, "method", "ledger": [specs]}, or {"epsilon": "not applicable", "reason"} when
// the accountant refuses (NotApplicable).
Json ledger_epsilon(const std::vector<std::string>& specs, double delta, AccountantKind kind);

// The entry with the smallest numeric "epsilon" among `candidates` (each tagged with its "name"); a copy of it
// with "from" = its name, or {"epsilon": "inf"} when none is finite.
Json best_certified(const Json& candidates);

}  // namespace dpl::algorithms::seed003
