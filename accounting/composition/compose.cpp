#include "accounting/composition/compose.h"

#include "accounting/composition/advanced_composition.h"
#include "accounting/composition/basic_composition.h"
#include "accounting/composition/optimal_composition.h"
#include "accounting/composition/pure_composition.h"
#include "accounting/errors.h"
#include "accounting/mechanisms/neighbouring_relation.h"
#include "accounting/pld/pld_accountant.h"
#include "accounting/pld/pld_work_budget.h"
#include "accounting/rdp/rdp_accountant.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <tuple>
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

// Everything that makes two entries the same mechanism (kind, parameters, q and sampling), as an ordered key.
auto mechanism_key(const LedgerEntry& e) {
  const Mechanism& m = e.mechanism;
  return std::make_tuple(static_cast<int>(m.kind), m.sigma, m.sens, m.b, m.eps, m.delta, m.iterations, m.index,
                         m.contraction, e.q, static_cast<int>(e.sampling));
}

// Composition is commutative: identical entries (same mechanism, q and sampling) become one entry whose steps
// are the sum, so accountants see k-fold self-composition (one curve times k, one PLD raised to k) instead of
// k separate entries. Iteration mechanisms are kept as they are (their `steps` is the iteration's own length).
// A map finds the entry to merge into, so a ledger of n distinct entries merges in O(n log n), not O(n^2).
Ledger merge_identical_entries(const Ledger& ledger) {
  Ledger out;
  std::map<decltype(mechanism_key(ledger.front())), std::size_t> first;
  for (const auto& e : ledger) {
    if (e.mechanism.kind != MechanismKind::iteration) {
      const auto [it, inserted] = first.emplace(mechanism_key(e), out.size());
      if (!inserted) {
        LedgerEntry& m = out[it->second];
        if (m.steps > std::numeric_limits<std::int64_t>::max() / 2 - e.steps)
          throw InputError("-m: the identical entries add up to more than 4.6e18 steps");
        m.steps += e.steps;
        continue;
      }
    }
    out.push_back(e);
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

namespace {

// The accountant (or for auto the best of them) on `ledger`, each run with the PLD options `pld`.
AccountingResult tightest(const Ledger& ledger, const Target& target, AccountantKind kind, const PldOptions& pld) {
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
  if (results.empty()) throw NotApplicable("no accountant applies to this ledger: " + reasons);
  return results[best_index()];
}

}  // namespace

AccountingResult compose_with_pld_options(const Ledger& given, const Target& target, AccountantKind kind,
                                          const PldOptions& pld) {
  if (given.empty()) throw InputError("-m: at least one mechanism is required");
  for (const auto& e : given) validate_entry(e);  // entries built in code bypass the spec parser's checks
  require_single_relation(given);
  // Upper bounds from the entries' fields (the pessimistic ends of typed decimals, mechanism_spec.h); lower bounds
  // from the optimistic ends, at pld.lower_target: the PLD computes its lower bound from them in the same run (at
  // once with its upper passes), another accountant is run a second time there.
  const Ledger ledger = merge_identical_entries(given);
  const bool enclosed = has_typed_enclosures(given);
  const Ledger optimistic = enclosed ? merge_identical_entries(optimistic_ledger(given)) : Ledger{};
  PldOptions o = pld;
  if (enclosed) o.lower_ledger = &optimistic;
  AccountingResult r = tightest(ledger, target, kind, o);
  const double lower_at = std::isnan(pld.lower_target) ? target.value : pld.lower_target;
  if (r.lower && r.accountant != "pld" && (enclosed || lower_at != target.value)) {
    if (!pld.lower) {
      r.lower.reset();  // not asked for (a calibration's search): not computed again at the other ends
    } else {
      try {
        const AccountingResult at_lower =
            run(enclosed ? optimistic : ledger, Target{target.given, lower_at}, parse_accountant(r.accountant), o);
        r.lower = at_lower.lower;
      } catch (const NotApplicable&) {
        r.lower.reset();  // the upper bound stands; no certified lower bound
      }
    }
  }
  return r;
}

AccountingResult compose(const Ledger& ledger, const DecimalTarget& target, AccountantKind kind,
                         const ProgressCallback& progress) {
  // When the decimal is not a double, the upper bound is computed at `down` and the lower bound at `up`.
  PldOptions pld;
  pld.progress = progress;
  pld.lower_target = target.up;
  return compose_with_pld_options(ledger, Target{target.given, target.down}, kind, pld);
}

}  // namespace dpl
