// SPDX-License-Identifier: Apache-2.0
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

// Composition is commutative: identical entries (same mechanism, q and sampling) become one entry whose steps
// are the sum, so accountants see k-fold self-composition (one curve times k, one PLD raised to k) instead of
// k separate entries. Iteration mechanisms are kept as they are (their `steps` is the iteration's own length).
// Entries are found by their parameters in a map (a ledger of 10^4 distinct entries: linear, not quadratic).
Ledger merge_identical_entries(const Ledger& ledger) {
  using Key = std::tuple<int, double, double, double, double, double, std::int64_t, std::int64_t, double, double, int,
                         ExtendedParameters>;
  std::map<Key, std::size_t> index;
  Ledger out;
  for (const auto& e : ledger) {
    const Mechanism& m = e.mechanism;
    if (m.kind == MechanismKind::iteration) {
      out.push_back(e);
      continue;
    }
    const Key key{static_cast<int>(m.kind), m.sigma, m.sens, m.b, m.eps, m.delta, m.iterations, m.index, m.contraction,
                  e.q, static_cast<int>(e.sampling), m.x};
    const auto [it, fresh] = index.try_emplace(key, out.size());
    if (fresh) {
      out.push_back(e);
      continue;
    }
    LedgerEntry& merged = out[it->second];
    if (merged.steps > std::numeric_limits<std::int64_t>::max() / 2 - e.steps)
      throw InputError("-m: the identical entries add up to more than 4.6e18 steps");
    merged.steps += e.steps;
  }
  return out;
}

// The bounded quantity of a result: epsilon when delta was given, else delta.
const Interval& bounded(const AccountingResult& r, const Target& t) {
  return t.given == Target::Given::delta ? r.epsilon : r.delta;
}

// Appended to the note of a bound computed for the unsampled variant of the ledger.
constexpr const char* kUnsampledNote =
    "; computed for the ledger without its subsampling, a valid bound since sampling never increases the privacy "
    "loss (Balle, Barthe and Gaboardi 2018)";

// The ledger with every subsampled entry replaced by its mechanism applied to the whole data set (q = 1), or nullopt
// when nothing is subsampled. Its bounds are bounds for the ledger: for a fixed pair of neighbouring data sets a
// subsampled step's output distributions are mixtures, with data-independent weights (the coupled samples), of the
// unsampled mechanism's outputs on neighbouring (or identical) inputs, so the step's pair is a garbling of the
// unsampled mechanism's dominating pair (joint convexity; Balle, Barthe and Gaboardi 2018, Thm 2 and Sec. 5), and
// garblings compose. Poisson samples are compared under add/remove-one neighbours, samples without replacement under
// replace-one, each the relation the entry's sensitivity is stated for (neighbouring_relation.h).
std::optional<Ledger> unsampled_ledger(const Ledger& ledger) {
  bool any = false;
  Ledger out = ledger;
  for (auto& e : out) {
    if (!e.subsampled() || e.q == 1) continue;
    any = true;
    if (e.sampling == Sampling::poisson_replace_one) {
      // Unsampled, a replacement moves the sum by up to twice the per-record bound (exact doubling).
      e.mechanism.sens *= 2;
      if (e.optimistic) e.optimistic->mechanism.sens *= 2;
    }
    e.q = 1;
    e.sampling = Sampling::none;
  }
  if (!any) return std::nullopt;
  return merge_identical_entries(out);
}

// No accountant reports more than the trivial bound that applies: basic composition (sum of the per-step (eps,
// delta), Dwork and Roth 2014, Thm 3.16; pure steps sum their epsilons) caps any answer where it applies (a PLD of 5
// Laplace steps with b = 0.01 printed 500.0024 for the trivial 500). The accountant's name stays; the note says so.
void cap_at_basic_composition(AccountingResult& r, const Ledger& ledger, const Target& target) {
  if (r.accountant == "basic" || r.accountant == "pure") return;
  AccountingResult b;
  try {
    b = compose_basic(ledger, target);
  } catch (const NotApplicable&) {
    return;
  }
  Interval& mine = target.given == Target::Given::delta ? r.epsilon : r.delta;
  const Interval& trivial = target.given == Target::Given::delta ? b.epsilon : b.delta;
  if (!(hi(trivial) < hi(mine))) return;
  mine = trivial;
  r.note += "; capped at the basic composition bound (sum of per-step epsilons and deltas, Dwork and Roth 2014, "
            "Thm 3.16), which is smaller here";
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

// The accountant (or for auto the best of them) on `ledger`, each run with the PLD options `pld`; a single
// accountant's answer is capped at the trivial bound that applies.
AccountingResult tightest(const Ledger& ledger, const Target& target, AccountantKind kind, const PldOptions& pld) {
  if (kind != AccountantKind::automatic) {
    AccountingResult r = run(ledger, target, kind, pld);
    cap_at_basic_composition(r, ledger, target);
    return r;
  }
  // auto: every accountant that applies, to the ledger and to its unsampled variant (sampling never hurts); the
  // smallest certified upper bound wins (each is a valid bound). They run cheapest first (closed forms, then rdp,
  // then pld), and stop as soon as the best bound is within 1e-12 of a certified lower bound on the true value:
  // nothing can be tighter, so the slower ones are skipped. The unsampled variant's accountants are skipped likewise
  // once a certified lower bound on the variant's own value is above the best bound.
  const std::optional<Ledger> unsampled = unsampled_ledger(ledger);
  std::vector<AccountingResult> results;
  std::string reasons;
  std::optional<Real> truth_lower;    // the largest certified lower bound on the true value seen so far
  std::optional<Real> variant_lower;  // the same for the unsampled variant (not a bound on the ledger's value)
  auto best_index = [&] {
    // Ties keep the more specific accountant (earlier in `preference`), then the ledger itself.
    auto rank = [](const AccountingResult& r) {
      const auto& preference = automatic_accountants();
      std::size_t i = 0;
      while (i < preference.size() && r.accountant != to_string(preference[i])) ++i;
      return 2 * i + (r.note.find(kUnsampledNote) != std::string::npos ? 1 : 0);
    };
    std::size_t best = 0;
    for (std::size_t i = 1; i < results.size(); ++i) {
      const Real a = hi(bounded(results[i], target)), b = hi(bounded(results[best], target));
      if (a < b || (a == b && rank(results[i]) < rank(results[best]))) best = i;
    }
    return best;
  };
  auto best_bound = [&] { return hi(bounded(results[best_index()], target)); };
  for (auto k : {AccountantKind::optimal, AccountantKind::pure, AccountantKind::advanced, AccountantKind::basic,
                 AccountantKind::rdp, AccountantKind::pld}) {
    try {
      results.push_back(run(ledger, target, k, pld));
      const AccountingResult& r = results.back();
      if (r.lower && (!truth_lower || lo(*r.lower) > *truth_lower)) truth_lower = lo(*r.lower);
      const Real best = best_bound();
      if (truth_lower && best - *truth_lower <= Real(1e-12) * (1 + best)) break;
    } catch (const NotApplicable& e) {
      reasons += std::string(reasons.empty() ? "" : "; ") + e.what();
    }
    if (!unsampled || (variant_lower && !results.empty() && *variant_lower >= best_bound())) continue;
    try {
      AccountingResult r = run(*unsampled, target, k, pld);
      if (r.lower && (!variant_lower || lo(*r.lower) > *variant_lower)) variant_lower = lo(*r.lower);
      r.lower.reset();  // a lower bound on the variant's value, not on the ledger's
      r.note += kUnsampledNote;
      results.push_back(std::move(r));
    } catch (const NotApplicable&) {
      // The ledger's own reason is the one to report.
    }
  }
  if (results.empty()) {
    // No single accountant covers every entry: the Renyi and the other entries separately, added.
    // Each part gets its own lower-bound ledger (its optimistic ends), not the whole ledger's.
    PldOptions for_part = pld;
    for_part.lower_ledger = nullptr;
    auto part = [&](const Ledger& l, const Target& t) {
      return compose_with_pld_options(l, t, AccountantKind::automatic, for_part);
    };
    if (auto split = compose_split(ledger, target, part)) return *split;
    throw NotApplicable("no accountant applies to this ledger: " + reasons);
  }
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
  // An entry whose typed decimals are held by the ends that enlarge upper bounds only (the mechanisms beyond the
  // classic six): a lower bound computed there may exceed the value at the decimal typed, so none is given.
  for (const auto& e : given)
    if (e.typed_without_other_ends && r.lower) {
      r.lower.reset();
      r.note += "; no certified lower bound: a typed value of " + to_string(e.mechanism.kind) +
                " is not a binary64 double and only its bound-enlarging end is held";
      break;
    }
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
