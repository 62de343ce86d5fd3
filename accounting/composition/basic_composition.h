// SPDX-License-Identifier: Apache-2.0
// Basic composition of (eps, delta)-DP guarantees: eps and delta add up.
#pragma once

#include "accounting/composition/accounting_result.h"

namespace dpl {

// (sum steps_i eps_i, sum steps_i delta_i) (Dwork, Kenthapadi, McSherry, Mironov, Naor 2006; Dwork and Roth 2014,
// Thm 3.16). Upper bound.
AccountingResult compose_basic(const Ledger& ledger, const Target& target);

// The summed guarantee itself (sum of eps, sum of delta) over the ledger.
struct SummedGuarantee {
  Interval eps;
  Interval delta;
};
SummedGuarantee sum_guarantees(const Ledger& ledger, const std::string& accountant);

}  // namespace dpl
