// SPDX-License-Identifier: Apache-2.0
#include "accounting/composition/accounting_result.h"

#include "accounting/errors.h"

namespace dpl {

std::string to_string(AccountantKind k) {
  switch (k) {
    case AccountantKind::pure: return "pure";
    case AccountantKind::basic: return "basic";
    case AccountantKind::advanced: return "advanced";
    case AccountantKind::optimal: return "optimal";
    case AccountantKind::rdp: return "rdp";
    case AccountantKind::pld: return "pld";
    case AccountantKind::automatic: return "auto";
  }
  return "?";
}

const std::vector<AccountantKind>& all_accountant_kinds() {
  static const std::vector<AccountantKind> kinds = {AccountantKind::pure,    AccountantKind::basic,
                                                    AccountantKind::advanced, AccountantKind::optimal,
                                                    AccountantKind::rdp,     AccountantKind::pld,
                                                    AccountantKind::automatic};
  return kinds;
}

AccountantKind parse_accountant(const std::string& name) {
  std::string allowed;
  for (auto k : all_accountant_kinds()) {
    if (to_string(k) == name) return k;
    allowed += (allowed.empty() ? "" : ", ") + to_string(k);
  }
  throw InputError("--accountant " + name + ": unknown (allowed: " + allowed + ")");
}

}  // namespace dpl
