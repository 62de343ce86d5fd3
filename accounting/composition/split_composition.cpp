// SPDX-License-Identifier: Apache-2.0
#include "accounting/composition/split_composition.h"

#include "accounting/errors.h"
#include "accounting/rdp/rdp_curve.h"

#include <string>

namespace dpl {

std::optional<AccountingResult> compose_split(const Ledger& ledger, const Target& target,
                                              const std::function<AccountingResult(const Ledger&, const Target&)>& part) {
  Ledger renyi, other;
  for (const auto& e : ledger) {
    bool has_curve = true;
    try {
      (void)make_rdp_curve(e);
    } catch (const NotApplicable&) {
      has_curve = false;
    }
    (has_curve ? renyi : other).push_back(e);
  }
  if (renyi.empty() || other.empty()) return std::nullopt;
  // Halving is exact in binary64 (barring underflow, which only makes each part's target smaller: still valid).
  const Target half = target.given == Target::Given::delta ? Target::for_delta(target.value / 2)
                                                           : Target::for_epsilon(target.value / 2);
  const AccountingResult a = part(renyi, half), b = part(other, half);
  AccountingResult r;
  r.accountant = a.accountant + "+" + b.accountant;
  if (target.given == Target::Given::delta) {
    r.epsilon = a.epsilon + b.epsilon;
    r.delta = exact(target.value);
  } else {
    r.epsilon = exact(target.value);
    r.delta = imin(exact(1.0), a.delta + b.delta);
  }
  r.note = "no single accountant covers the ledger: the " + std::to_string(renyi.size()) + " entries with a Renyi-DP "
           "curve by " + a.accountant + " and the other " + std::to_string(other.size()) + " by " + b.accountant +
           ", at half the target each, added by basic composition of the two parts (Dwork and Roth 2014, Thm 3.16)";
  return r;
}

}  // namespace dpl
