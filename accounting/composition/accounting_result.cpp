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

AccountantKind parse_accountant(const std::string& name) {
  for (auto k : {AccountantKind::pure, AccountantKind::basic, AccountantKind::advanced, AccountantKind::optimal,
                 AccountantKind::rdp, AccountantKind::pld, AccountantKind::automatic})
    if (to_string(k) == name) return k;
  throw InputError("--accountant " + name + ": unknown (allowed: pure, basic, advanced, optimal, rdp, pld, auto)");
}

}  // namespace dpl
