// SPDX-License-Identifier: Apache-2.0
// Pure eps-DP composition (heterogeneous): eps adds up.
#pragma once

#include "accounting/composition/accounting_result.h"

namespace dpl {

// sum_i steps_i eps_i (Dwork, McSherry, Nissim, Smith 2006; Dwork and Roth 2014, Thm 3.14). Exact for the
// guarantee; requires every step to be pure (delta = 0), else NotApplicable.
AccountingResult compose_pure(const Ledger& ledger, const Target& target);

}  // namespace dpl
