// SPDX-License-Identifier: Apache-2.0
// A ledger that no single accountant covers (a zCDP or hyper-parameter-tuning entry, which only the RDP accountant
// accounts, beside a mixture of Gaussians, shuffling or an (eps, delta) entry, which it cannot): the entries with a
// Renyi-DP curve and the others are accounted separately and the two bounds added by basic composition.
#pragma once

#include "accounting/composition/accounting_result.h"

#include <functional>
#include <optional>

namespace dpl {

// The ledger's dominating pair is the product of the two parts' (adaptive composition is bounded by the tensor
// product of the steps' trade-off functions, which commutes: Dong, Roth and Su 2022, "Gaussian differential
// privacy", Thm 3.2), and a product pair is (eps_A + eps_B, delta_A + delta_B)-DP when its factors are
// (eps_A, delta_A)- and (eps_B, delta_B)-DP (Dwork and Roth 2014, Thm 3.16). Given delta, each part gets delta/2;
// given epsilon, each part gets epsilon/2. `part` composes one part with the automatic accountant. nullopt when one
// of the parts is empty. Upper bound.
std::optional<AccountingResult> compose_split(const Ledger& ledger, const Target& target,
                                              const std::function<AccountingResult(const Ledger&, const Target&)>& part);

}  // namespace dpl
