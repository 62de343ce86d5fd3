#include "accounting/composition/compose.h"

#include "accounting/composition/advanced_composition.h"
#include "accounting/composition/basic_composition.h"
#include "accounting/composition/optimal_composition.h"
#include "accounting/composition/pure_composition.h"
#include "accounting/errors.h"
#include "accounting/pld/pld_accountant.h"
#include "accounting/rdp/rdp_accountant.h"

#include <vector>

namespace dpl {

namespace {

AccountingResult run(const Ledger& ledger, const Target& target, AccountantKind kind) {
  switch (kind) {
    case AccountantKind::pure: return compose_pure(ledger, target);
    case AccountantKind::basic: return compose_basic(ledger, target);
    case AccountantKind::advanced: return compose_advanced(ledger, target);
    case AccountantKind::optimal: return compose_optimal(ledger, target);
    case AccountantKind::rdp: return compose_rdp(ledger, target);
    case AccountantKind::pld: return compose_pld(ledger, target);
    case AccountantKind::automatic: break;
  }
  throw std::logic_error("internal: run(automatic)");
}

// The bounded quantity of a result: epsilon when delta was given, else delta.
const Interval& bounded(const AccountingResult& r, const Target& t) {
  return t.given == Target::Given::delta ? r.epsilon : r.delta;
}

}  // namespace

AccountingResult compose(const Ledger& ledger, const Target& target, AccountantKind kind) {
  if (ledger.empty()) throw InputError("-m: at least one mechanism is required");
  for (const auto& e : ledger) validate_entry(e);  // entries built in code bypass the spec parser's checks
  if (kind != AccountantKind::automatic) return run(ledger, target, kind);
  // auto: every accountant that applies; the smallest certified upper bound wins (each is a valid bound).
  std::vector<AccountingResult> results;
  std::string reasons;
  // Ties keep the earlier (more specific) accountant.
  for (auto k : {AccountantKind::optimal, AccountantKind::pld, AccountantKind::rdp, AccountantKind::pure,
                 AccountantKind::advanced, AccountantKind::basic}) {
    try {
      results.push_back(run(ledger, target, k));
      // A result bracketed by a certified lower bound within 1e-12 is the truth: nothing can be tighter, so
      // the slower accountants are skipped.
      const AccountingResult& r = results.back();
      if (r.lower && hi(bounded(r, target)) - lo(*r.lower) <= Real(1e-12) * (1 + hi(bounded(r, target)))) return r;
    } catch (const NotApplicable& e) {
      reasons += std::string(reasons.empty() ? "" : "; ") + e.what();
    }
  }
  if (results.empty()) throw NotApplicable("no accountant applies to this ledger: " + reasons);
  std::size_t best = 0;
  for (std::size_t i = 1; i < results.size(); ++i)
    if (hi(bounded(results[i], target)) < hi(bounded(results[best], target))) best = i;
  return results[best];
}

}  // namespace dpl
