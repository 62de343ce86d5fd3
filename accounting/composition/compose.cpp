#include "accounting/composition/compose.h"

#include "accounting/composition/advanced_composition.h"
#include "accounting/composition/basic_composition.h"
#include "accounting/composition/optimal_composition.h"
#include "accounting/composition/pure_composition.h"
#include "accounting/composition/split_composition.h"
#include "accounting/errors.h"
#include "accounting/mechanisms/neighbouring_relation.h"
#include "accounting/pld/pld_accountant.h"
#include "accounting/pld/pld_work_budget.h"
#include "accounting/rdp/rdp_accountant.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace dpl {

namespace {

AccountingResult run(const Ledger& ledger, const Target& target, AccountantKind kind, const PldOptions& pld) {
  switch (kind) {
    case AccountantKind::pure: return compose_pure(ledger, target);
    case AccountantKind::basic: return compose_basic(ledger, target);
    case AccountantKind::advanced: return compose_advanced(ledger, target);
    case AccountantKind::optimal: return compose_optimal(ledger, target);
    case AccountantKind::rdp: return compose_rdp(ledger, target);
    case AccountantKind::pld: return compose_pld(ledger, target, pld);
    case AccountantKind::automatic: break;
  }
  throw std::logic_error("internal: run(automatic)");
}

bool same_mechanism(const Mechanism& a, const Mechanism& b) {
  return a.kind == b.kind && a.sigma == b.sigma && a.sens == b.sens && a.b == b.b && a.eps == b.eps &&
         a.delta == b.delta && a.iterations == b.iterations && a.index == b.index && a.contraction == b.contraction &&
         a.x == b.x;
}

// Composition is commutative: identical entries (same mechanism, q and sampling) become one entry whose steps
// are the sum, so accountants see k-fold self-composition (one curve times k, one PLD raised to k) instead of
// k separate entries. Iteration mechanisms are kept as they are (their `steps` is the iteration's own length).
Ledger merge_identical_entries(const Ledger& ledger) {
  Ledger out;
  for (const auto& e : ledger) {
    bool merged = false;
    if (e.mechanism.kind != MechanismKind::iteration) {
      for (auto& m : out) {
        if (m.mechanism.kind != MechanismKind::iteration && same_mechanism(m.mechanism, e.mechanism) &&
            m.q == e.q && m.sampling == e.sampling) {
          if (m.steps > std::numeric_limits<std::int64_t>::max() / 2 - e.steps)
            throw InputError("-m: the identical entries add up to more than 4.6e18 steps");
          m.steps += e.steps;
          merged = true;
          break;
        }
      }
    }
    if (!merged) out.push_back(e);
  }
  return out;
}

// The bounded quantity of a result: epsilon when delta was given, else delta.
const Interval& bounded(const AccountingResult& r, const Target& t) {
  return t.given == Target::Given::delta ? r.epsilon : r.delta;
}

}  // namespace

const std::vector<AccountantKind>& automatic_accountants() {
  static const std::vector<AccountantKind> k = {AccountantKind::optimal, AccountantKind::pld, AccountantKind::rdp,
                                                AccountantKind::pure, AccountantKind::advanced, AccountantKind::basic};
  return k;
}

AccountingResult compose(const Ledger& given, const Target& target, AccountantKind kind,
                         const ProgressCallback& progress) {
  PldOptions pld;
  pld.progress = progress;
  return compose_with_pld_options(given, target, kind, pld);
}

AccountingResult compose_with_pld_options(const Ledger& given, const Target& target, AccountantKind kind,
                                          const PldOptions& pld) {
  if (given.empty()) throw InputError("-m: at least one mechanism is required");
  for (const auto& e : given) validate_entry(e);  // entries built in code bypass the spec parser's checks
  require_single_relation(given);
  const Ledger ledger = merge_identical_entries(given);
  if (kind != AccountantKind::automatic) return run(ledger, target, kind, pld);
  // auto: every accountant that applies; the smallest certified upper bound wins (each is a valid bound).
  // They run cheapest first (closed forms, then rdp, then pld), and stop as soon as the best bound is within
  // 1e-12 of a certified lower bound on the true value: nothing can be tighter, so the slower ones are skipped.
  std::vector<AccountingResult> results;
  std::string reasons;
  std::optional<Real> truth_lower;  // the largest certified lower bound on the true value seen so far
  auto best_index = [&] {
    // Ties keep the more specific accountant (earlier in `preference`).
    auto rank = [](const std::string& name) {
      const auto& preference = automatic_accountants();
      for (std::size_t i = 0; i < preference.size(); ++i) if (name == to_string(preference[i])) return i;
      return preference.size();
    };
    std::size_t best = 0;
    for (std::size_t i = 1; i < results.size(); ++i) {
      const Real a = hi(bounded(results[i], target)), b = hi(bounded(results[best], target));
      if (a < b || (a == b && rank(results[i].accountant) < rank(results[best].accountant))) best = i;
    }
    return best;
  };
  for (auto k : {AccountantKind::optimal, AccountantKind::pure, AccountantKind::advanced, AccountantKind::basic,
                 AccountantKind::rdp, AccountantKind::pld}) {
    try {
      results.push_back(run(ledger, target, k, pld));
      const AccountingResult& r = results.back();
      if (r.lower && (!truth_lower || lo(*r.lower) > *truth_lower)) truth_lower = lo(*r.lower);
      const Real best = hi(bounded(results[best_index()], target));
      if (truth_lower && best - *truth_lower <= Real(1e-12) * (1 + best)) break;
    } catch (const NotApplicable& e) {
      reasons += std::string(reasons.empty() ? "" : "; ") + e.what();
    }
  }
  if (results.empty()) {
    // No single accountant covers every entry: the Renyi and the other entries separately, added.
    auto part = [&](const Ledger& l, const Target& t) { return compose_with_pld_options(l, t, AccountantKind::automatic, pld); };
    if (auto split = compose_split(ledger, target, part)) return *split;
    throw NotApplicable("no accountant applies to this ledger: " + reasons);
  }
  return results[best_index()];
}

AccountingResult compose(const Ledger& ledger, const DecimalTarget& target, AccountantKind kind,
                         const ProgressCallback& progress) {
  // When the decimal is not a double, the lower bound is read at `up`: the PLD computes it in the same run (at
  // once with its upper passes); another accountant is run a second time there.
  PldOptions pld;
  pld.progress = progress;
  pld.lower_target = target.up;
  AccountingResult r = compose_with_pld_options(ledger, Target{target.given, target.down}, kind, pld);
  if (target.up != target.down && r.lower && r.accountant != "pld") try {
    const AccountingResult at_up =
        compose(ledger, Target{target.given, target.up}, parse_accountant(r.accountant), progress);
    r.lower = at_up.lower;
  } catch (const NotApplicable&) {
    r.lower.reset();  // the upper bound stands; no certified lower bound
  }
  return r;
}

}  // namespace dpl
