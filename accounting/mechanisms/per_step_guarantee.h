// SPDX-License-Identifier: Apache-2.0
// The (eps, delta)-DP guarantee of one step of a ledger entry, for the classic accountants (pure, basic,
// advanced, optimal), including amplification by subsampling.
#pragma once

#include "accounting/mechanisms/mechanism_spec.h"
#include "accounting/numeric/interval.h"

namespace dpl {

struct DpGuarantee {
  Interval eps;
  Interval delta;
};

// The per-step guarantee of the unsampled mechanism: Laplace sens/b (Dwork et al. 2006), rr and pure eps,
// approx (eps, delta). Throws NotApplicable for mechanisms without a finite (eps, delta) guarantee of their own
// (gaussian, iteration): those need rdp/pld/auto.
DpGuarantee base_guarantee(const Mechanism& m, const std::string& accountant);
// The guarantee of one step of the entry, amplified by its subsampling.
DpGuarantee step_guarantee(const LedgerEntry& e, const std::string& accountant);

}  // namespace dpl
