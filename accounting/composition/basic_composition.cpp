// SPDX-License-Identifier: Apache-2.0
#include "accounting/composition/basic_composition.h"

#include "accounting/errors.h"
#include "accounting/mechanisms/per_step_guarantee.h"
#include "accounting/numeric/decimal.h"

namespace dpl {

SummedGuarantee sum_guarantees(const Ledger& ledger, const std::string& accountant) {
  SummedGuarantee s{exact(0.0), exact(0.0)};
  for (const auto& e : ledger) {
    const DpGuarantee g = step_guarantee(e, accountant);
    s.eps += exact_int(e.steps) * g.eps;
    s.delta += exact_int(e.steps) * g.delta;
  }
  return s;
}

// Dwork and Roth 2014, Thm 3.16: the composition is (sum eps_i, sum delta_i)-DP. Upper bound.
AccountingResult compose_basic(const Ledger& ledger, const Target& target) {
  const SummedGuarantee s = sum_guarantees(ledger, "basic");
  AccountingResult r;
  r.accountant = "basic";
  r.note = "basic composition (Dwork and Roth 2014, Thm 3.16)";
  if (target.given == Target::Given::delta) {
    if (certainly_gt(s.delta, exact(target.value)))
      throw NotApplicable("basic composition: the summed delta " + format_upper(s.delta) +
                          " exceeds --delta " + format_target(target.value) + "; no epsilon meets it");
    r.epsilon = s.eps;
    r.delta = exact(target.value);
  } else {
    r.epsilon = exact(target.value);
    // At an epsilon below the summed epsilon this accountant only knows the trivial delta = 1.
    r.delta = certainly_ge(exact(target.value), s.eps) ? s.delta : exact(1.0);
  }
  return r;
}

}  // namespace dpl
