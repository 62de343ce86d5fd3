// SPDX-License-Identifier: Apache-2.0
#include "accounting/composition/pure_composition.h"

#include "accounting/composition/basic_composition.h"
#include "accounting/errors.h"

namespace dpl {

// Dwork and Roth 2014, Thm 3.14: k pure mechanisms compose to sum eps_i. Exact for the guarantee.
AccountingResult compose_pure(const Ledger& ledger, const Target& target) {
  const SummedGuarantee s = sum_guarantees(ledger, "pure");
  if (!(hi(s.delta) == 0))
    throw NotApplicable("accountant 'pure' needs pure eps-DP steps (every delta = 0); use basic, advanced or auto");
  AccountingResult r;
  r.accountant = "pure";
  r.note = "pure composition (Dwork and Roth 2014, Thm 3.14)";
  if (target.given == Target::Given::delta) {
    r.epsilon = s.eps;
    r.delta = exact(target.value);
  } else {
    r.epsilon = exact(target.value);
    r.delta = certainly_ge(exact(target.value), s.eps) ? exact(0.0) : exact(1.0);
  }
  return r;
}

}  // namespace dpl
