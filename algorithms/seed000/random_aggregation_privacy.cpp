// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed000/random_aggregation_privacy.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>

#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/gamma/average_case_gamma.h"
#include "accounting/gamma/certified_gamma.h"
#include "accounting/numeric/interval.h"
#include "algorithms/run/domain_bounds.h"

namespace dpl::algorithms {

// Xiao 2019, Thm 2.2.1 (corollary for fixed parameters; the worst case of every randomized aggregation):
// sum_k d beta_k s. Upper bound as claimed by the thesis (pure composition over steps and coordinates).
double claimed_worst_case_total(int dim, const std::vector<double>& betas, double shift) {
  double total = 0;
  for (double b : betas) total += b;
  return static_cast<double>(dim) * total * shift;
}

GammaMethod parse_gamma_method(const std::string& key, const std::string& value) {
  if (value == "auto") return GammaMethod::automatic;
  if (value == "exact") return GammaMethod::exact;
  if (value == "bound") return GammaMethod::bound;
  throw InputError(key + "=" + value + " is not allowed: allowed auto, exact, bound");
}

std::string to_string(GammaMethod m) {
  return m == GammaMethod::exact ? "exact" : m == GammaMethod::bound ? "bound" : "auto";
}

// Closed-form upper bound on the exact gamma for u >= 2e, derived from the formula accounting/gamma integrates
// (docs/xiao2019.md, beta = 1): gamma = (1 - e^{-u})/u + (2/e) int_0^{u/2} q Theta, q = J/(2u).
// On [0, e]: Theta <= e (Thm 2.2.1), so that part is <= e int_0^e J/(2u) = e [2e - (1 - e^{-e}) - e^{-u}
// expm1(e)]/(2u). On [e, u/2]: Theta = log1p(N/J(y-e)) <= N/J(y-e) with N = e^{-y} expm1(e) + e^{-(u-y)} expm1(-e) >=
// 0, and J(y)/J(y-e) <= e^e (Thm 2.2.1), so q Theta <= e^e N/(2u), whose integral is e^e [expm1(e)(e^{-e} - e^{-u/2}) +
// expm1(-e)(e^{-u/2} - e^{-(u-e)})]/(2u). Upper bound; tends to gamma_0 = 2(1 - e^{-u/2})/u as e -> 0 (slack O(e)).
// Interval arithmetic, rounded up.
double gamma_closed_form_bound(double u, double e) {
  if (!(u >= 2 * e) || !(e > 0)) return 1.0;
  return gamma_closed_form_bound(exact(u), exact(e));
}

double gamma_closed_form_bound(const Interval& U, const Interval& E) {
  const Interval one = exact(1.0), two = exact(2.0);
  if (!certainly_ge(U, two * E) || !certainly_gt(E, exact(0.0))) return 1.0;
  const Interval part1 = E * (two * E - (one - exp(-E)) - exp(-U) * expm1(E)) / (two * U);
  const Interval part2 =
      exp(E) * (expm1(E) * (exp(-E) - exp(-U / two)) + expm1(-E) * (exp(-U / two) - exp(E - U))) / (two * U);
  const Interval b = (one - exp(-U)) / U + two / E * (part1 + part2);
  return std::min(1.0, hi_up(b));
}

namespace {

// Below this normalised interval length gamma = 1 - O(u) and gamma <= 1 (Thm 2.2.1: Theta <= beta s pointwise) is
// used, an upper bound loose by O(beta omega), instead of the quadrature.
constexpr double kSmallestGammaU = 1e-8;
// automatic: the closed-form bound where its relative slack is below ~1% (measured: 0.4 e relative), else exact.
constexpr double kClosedFormMaxShift = 0.02;
// At most this many midpoint panels of certified quadrature per ledger (~0.12 ms each, about 3 s in all; a
// quadrature takes 25 to 1000 panels: 2000 quadratures of 90 panels took 18 s when eta does not decay): beyond,
// the closed form where it applies, else gamma <= 1 (both upper bounds).
constexpr long kMaxCertifiedPanels = 25000;

struct GammaPair {
  double exact_upper = 1;    // upper end of the certified enclosure of the exact gamma
  bool closed_form = false;  // exact_upper is gamma_closed_form_bound
  bool quadrature = false;   // exact_upper is from certified_gamma
};

// Exact gamma (Xiao 2019 Def. 2 / Thm 2.2.2 setting) as the upper end of a certified enclosure (certified_gamma),
// capped at 1 (Thm 2.2.1), or the closed-form bound (see GammaMethod). Upper bound either way.
// omega = hi - lo is enclosed exactly (no rounding of the interval length); u = beta omega and e = beta s are
// exact products, so no derived parameter is rounded before the bound. With quadrature_allowed false (the run's
// budget of certified quadratures is spent) the closed form is used where it applies, else gamma <= 1.
GammaPair gamma_of(double lo, double hi, double beta, double shift, GammaMethod method, long& panels_left) {
  const bool quadrature_allowed = panels_left >= 2;
  GammaPair g;
  const Interval omega = exact(hi) - exact(lo);
  const Interval U = exact(beta) * omega, E = exact(beta) * exact(shift);
  if (!certainly_ge(U, exact(kSmallestGammaU))) return g;
  const bool closed_applies = certainly_ge(U, exact(2.0) * E);
  const bool closed = closed_applies && (method == GammaMethod::bound || !quadrature_allowed ||
                                         (method == GammaMethod::automatic && hi_up(E) <= kClosedFormMaxShift));
  if (closed) {
    g.exact_upper = gamma_closed_form_bound(U, E);
    g.closed_form = true;
    return g;
  }
  if (!quadrature_allowed) return g;  // gamma <= 1 (Thm 2.2.1)
  g.quadrature = true;
  // Certified enclosure (midpoint rule with its rigorous remainder), not the Gauss-Kronrod estimate.
  // Relative width 1e-4 (the enclosure's upper end is then within 1e-4 of gamma; the closed form's slack is ~0.4 e).
  try {
    const GammaEnclosure r = certified_gamma(U, E, 1e-4, static_cast<int>(std::min(1000L, panels_left)));
    panels_left -= r.panels;
    g.exact_upper = std::min(1.0, hi_up(r.gamma));
  } catch (const NotApplicable&) {
    g.exact_upper = 1;  // e = u/2 not decidable at 200 bits: gamma <= 1 (Thm 2.2.1)
  }
  return g;
}

Json number_or_inf(double x) { return std::isfinite(x) ? Json(x) : Json("inf"); }

// The worst case's ledger entry of one release: a Laplace mechanism of scale 1/beta (the sampler draws Laplace with
// rate beta, Rng::laplace_rate) and sensitivity s; s = B_inf/D (or eta B_inf) was computed in double: two ulps up
// cover its roundings.
LedgerEntry aggregation_release_entry(const AggregatedRelease& r) {
  LedgerEntry e;
  e.mechanism.kind = MechanismKind::laplace;
  e.mechanism.b = 1.0 / r.beta;
  e.mechanism.sens = std::nextafter(std::nextafter(r.shift, HUGE_VAL), HUGE_VAL);
  e.steps = 1;
  return e;
}

// Appends a release to the worst case's ledger: one entry per run of equal (beta, shift), eps = sens / b = beta s.
void append_aggregation_release(Ledger& ledger, const AggregatedRelease& r) {
  const LedgerEntry e = aggregation_release_entry(r);
  if (!ledger.empty() && ledger.back().mechanism.b == e.mechanism.b && ledger.back().mechanism.sens == e.mechanism.sens)
    ++ledger.back().steps;
  else
    ledger.push_back(e);
}

}  // namespace

double aggregation_worst_epsilon(const std::vector<AggregatedRelease>& releases) {
  Ledger ledger;
  for (const AggregatedRelease& r : releases) append_aggregation_release(ledger, r);
  if (ledger.empty()) return 0;
  return hi_up(compose(ledger, Target::for_delta(0.0), AccountantKind::pure).epsilon);
}

int accounted_agent(const std::vector<std::vector<AggregatedRelease>>& releases, const AggregationPrivacyKeys& keys) {
  if (!keys.worst_agent) return keys.target;
  int best = 0;
  double best_eps = -1;
  for (std::size_t i = 0; i < releases.size(); ++i) {
    const double e = aggregation_worst_epsilon(releases[i]);
    if (e > best_eps) best = static_cast<int>(i), best_eps = e;
  }
  return best;
}

bool ledger_keeps_agent(const AggregationPrivacyKeys& keys, int agent) { return keys.worst_agent || agent == keys.target; }

AggregationLedger account_random_aggregation(const std::vector<AggregatedRelease>& releases, bool expected,
                                             GammaMethod method, bool binary64, const ProgressCallback& progress) {
  AggregationLedger out;
  // Ledger for the worst case: one Laplace entry per run of equal (beta, shift): eps = sens / b = beta s.
  Ledger ledger;
  double claimed_worst = 0, claimed_average = 0, realised = 0;
  Interval expected_sum = exact(0.0);
  std::map<std::tuple<double, double, double>, GammaPair> cache;  // exact reuse only (identical arguments)
  std::map<std::tuple<double, double, double>, double> thesis_cache;
  std::vector<double> curve_worst, curve_thesis, curve_expected, curve_realised;
  int current_step = -1;
  long closed_form_count = 0, quadrature_count = 0, budget_fallback_count = 0, panels_left = kMaxCertifiedPanels;
  const std::size_t stride = std::max<std::size_t>(1, releases.size() / 100);  // progress about every percent
  std::size_t done = 0;
  for (const AggregatedRelease& r : releases) {
    if (progress && done % stride == 0)
      progress(static_cast<double>(done) / static_cast<double>(releases.size()),
               "release " + std::to_string(done) + "/" + std::to_string(releases.size()));
    ++done;
    append_aggregation_release(ledger, r);
    const double sens_up = ledger.back().mechanism.sens;
    const double e_worst = r.beta * r.shift;
    const double omega = r.hi - r.lo;
    claimed_worst += e_worst;
    GammaPair g;
    if (expected) {
      const auto key = std::make_tuple(r.hi - r.lo, r.beta, sens_up);
      auto it = cache.find(key);
      if (it == cache.end()) {
        const bool allowed = panels_left >= 2;
        it = cache.emplace(key, gamma_of(r.lo, r.hi, r.beta, sens_up, method, panels_left)).first;
        quadrature_count += it->second.quadrature;
        budget_fallback_count += !allowed;
      }
      g = it->second;
      if (g.closed_form) ++closed_form_count;
    }
    // The thesis's average (Thm 2.2.2) where its hypothesis omega > s holds, else gamma = 1.
    // (accounting/gamma's thesis_eq_2_6 in MPFR: overflow-free at any beta s; cached like gamma.)
    if (omega > r.shift) {
      const auto key = std::make_tuple(omega, r.beta, r.shift);
      auto it = thesis_cache.find(key);
      if (it == thesis_cache.end())
        it = thesis_cache.emplace(key, binary64 ? thesis_eq_2_6_estimate(r.beta * omega, r.beta * r.shift)
                                                : thesis_eq_2_6(Real(r.beta) * Real(omega), Real(r.beta) * Real(r.shift))
                                                      .convert_to<double>()).first;
      claimed_average += e_worst * it->second;
    } else {
      claimed_average += e_worst;
    }
    // The per-release worst case as the ledger has it (Laplace: sens / b, b = 1/beta as sampled) times gamma.
    if (expected) expected_sum += exact(sens_up) / exact(1.0 / r.beta) * exact(g.exact_upper);
    realised += binary64 ? realised_coordinate_loss_estimate(r.released, r.lo, r.hi, r.beta, r.shift)
                         : realised_coordinate_loss(r.released, r.lo, r.hi, r.beta, r.shift);
    if (r.step != current_step) {
      current_step = r.step;
      curve_worst.push_back(0);
      curve_thesis.push_back(0);
      curve_expected.push_back(0);
      curve_realised.push_back(0);
    }
    curve_worst.back() = claimed_worst;
    curve_thesis.back() = claimed_average;
    curve_expected.back() = expected ? mid_double(expected_sum) : 0;
    curve_realised.back() = realised;
  }
  const AccountingResult worst = compose(ledger, Target::for_delta(0.0), AccountantKind::pure);
  for (const LedgerEntry& e : ledger)
    out.mechanisms.push_back(
        Json{{"mechanism", "laplace"}, {"b", e.mechanism.b}, {"sens", e.mechanism.sens}, {"steps", e.steps}});
  const double worst_up = hi_up(worst.epsilon);

  out.claimed = {
      {"epsilon", claimed_worst},
      {"delta", 0.0},
      {"source",
       "Xiao 2019 Lemma 2.2.1 + Thm 2.2.1: worst case sum_k sum_l beta_{k+1} s (pure, upper bound as claimed)"},
      {"average_epsilon", claimed_average},
      {"average_source",
       "Xiao 2019 Thm 2.2.2 eq. (2.6) per step and coordinate where omega > s (its hypothesis), else gamma = 1; as "
       "printed "
       "it is NOT a valid upper bound (docs/xiao2019.md E1)"},
      {"gamma", claimed_worst > 0 ? claimed_average / claimed_worst : 1.0},
      {"releases", releases.size()}};
  out.accounted = {
      {"epsilon", number_or_inf(worst_up)},
      {"delta", 0.0},
      {"method", "certified pure composition (dpl::compose, accountant '" + worst.accountant +
                     "') of the released coordinates as Laplace mechanisms (rate beta_{k+1}, sensitivity s); "
                     "upper bound, exact for the guarantee"}};
  if (expected) {
    const double exp_up = std::min(hi_up(expected_sum), worst_up);  // E[loss] <= worst case (Thm 2.2.1)
    out.accounted["expected_epsilon"] = exp_up;
    out.accounted["expected_method"] =
        "sum beta s gamma(beta omega, beta s) along this run's trajectory, gamma by its certified enclosure (composite "
        "midpoint rule with the rigorous h^3 f''/24 remainder in interval arithmetic, upper end; capped at 1 by Thm "
        "2.2.1; gamma = 1 for beta omega < 1e-8); upper bound on the "
        "expected loss given this trajectory's intervals (trajectory-dependent, docs/xiao2019.md E16)";
    out.accounted["gamma"] = worst_up > 0 ? exp_up / worst_up : 1.0;
    out.accounted["gamma_method"] = to_string(method);
    out.accounted["gamma_closed_form_releases"] = closed_form_count;
    out.accounted["gamma_quadratures"] = quadrature_count;
    if (budget_fallback_count > 0)
      out.accounted["gamma_budget_note"] =
          std::to_string(budget_fallback_count) + " releases after the first " + std::to_string(quadrature_count) +
          " certified quadratures (" + std::to_string(kMaxCertifiedPanels) +
          " midpoint panels in all) used the closed-form bound or gamma <= 1 (bounded work; still upper bounds)";
    out.accounted["gamma_closed_form_note"] =
        "closed-form releases use a proven upper bound on the exact gamma (random_aggregation_privacy.cpp; slack O(e), "
        "measured <= 0.5 e relative) instead of the quadrature; 'auto' uses it where e = beta s <= 0.02 and u >= 2e";
  } else {
    out.accounted["expected_epsilon"] = "not computed (average_case=off)";
  }
  out.accounted["realised_epsilon"] = realised;
  out.accounted["realised_method"] =
      std::string("output-specific loss of this transcript: sum of Theta(x) (Lemma 2.2.1 / Thm 2.2.1, accounting/gamma "
                  "realised_coordinate_loss), at most the worst case") +
      (binary64 ? "; loss_precision=double: evaluated in binary64 (an estimate, not certified)" : "; 200-bit MPFR");
  out.curves = {{"worst", curve_worst}, {"thesis_average", curve_thesis}, {"realised", curve_realised}};
  if (expected) out.curves["expected"] = curve_expected;
  return out;
}

AggregationPrivacyKeys read_aggregation_privacy_keys(RunParameters& params) {
  AggregationPrivacyKeys keys;
  keys.noise = params.flag("noise", true);
  // An audit watches one agent's releases (its probe's unit): agent 0 unless a target is given, as its claim.
  const std::string target = params.text("target", params.audit_probe() ? "0" : "worst");
  if (target != "worst") {
    const bool digits = !target.empty() && target.size() <= 6 &&
                        target.find_first_not_of("0123456789") == std::string::npos;
    if (!digits || std::stoi(target) > 100000)
      throw InputError("target=" + target + " is not allowed: worst (every agent accounted, the largest epsilon) or "
                       "an agent, integers [0, 100000]");
    keys.target = std::stoi(target);
    keys.worst_agent = false;
  }
  keys.domain = read_data_domain(params);
  keys.b_inf = params.real("b_inf", 0, 0, 1e12);
  keys.average_case = params.flag("average_case", true);
  // bound by default: at the default rates most releases have e = beta s > 0.02, where `auto` integrates (about
  // 5 ms per release: 14 s of Algorithm 2*'s 3000 releases); the closed-form bound is an upper bound too.
  keys.gamma = parse_gamma_method("gamma", params.choice("gamma", "bound", {"auto", "exact", "bound"}));
  keys.binary64_losses = params.choice("loss_precision", "certified", {"certified", "double"}) == "double";
  return keys;
}

double target_b_inf(const AggregationPrivacyKeys& keys, const DistributedProblem& problem) {
  return agent_b_inf(keys, problem, keys.target);
}

double agent_b_inf(const AggregationPrivacyKeys& keys, const DistributedProblem& problem, int agent) {
  const LossBounds bounds = agent_loss_bounds(problem, keys.domain, agent);
  const double s = bounds.sensitivity_linf;
  if (!std::isfinite(s))
    throw NotApplicable("loss=" + to_string(problem.locals.front().loss()) +
                        ": the gradient's sensitivity to one replaced row is unbounded on the declared domain, so no "
                        "privacy bound exists; use loss=logistic, hinge or huber (or noise=off)");
  if (keys.b_inf > 0 && keys.b_inf < s)
    throw InputError("b_inf=" + std::to_string(keys.b_inf) + " is below the sensitivity " + std::to_string(s) +
                     " that domain=" + to_string(keys.domain) + " implies for agent " + std::to_string(agent) +
                     ": allowed 0 (the domain's bound) or reals [" + std::to_string(s) + ", 1e12]");
  return keys.b_inf > 0 ? keys.b_inf : s;
}

void record_aggregation_ledger(RunResult& result, const std::vector<AggregatedRelease>& releases,
                               const AggregationPrivacyKeys& keys, const ProgressCallback& progress) {
  const AggregationLedger ledger =
      account_random_aggregation(releases, keys.average_case, keys.gamma, keys.binary64_losses, progress);
  result.claimed = ledger.claimed;
  result.accounted = ledger.accounted;
  result.extra["privacy_curves"] = ledger.curves;
  result.mechanisms = ledger.mechanisms;
  // Each release is one ledger step (append_aggregation_release), in the order of its step: the prefix used by
  // traced iteration t is the releases of steps <= t (the running epsilon of the accounted agent), and the claim
  // at t is Lemma 2.2.1 + Thm 2.2.1's sum of beta_{k+1} s over those releases, summed as the claimed total is.
  std::size_t used = 0;
  double claimed_so_far = 0;
  for (TraceStep& t : result.trace) {
    for (; used < releases.size() && releases[used].step <= t.iteration; ++used)
      claimed_so_far += releases[used].beta * releases[used].shift;
    t.ledger_steps = static_cast<std::int64_t>(used);
    t.claimed_epsilon = claimed_so_far;
  }
}

void record_no_ledger(RunResult& result, const std::string& source, const std::string& method) {
  result.claimed = {{"epsilon", "inf"}, {"delta", 0.0}, {"source", source}};
  result.accounted = {{"epsilon", "inf"}, {"delta", 0.0}, {"method", method}};
}

void record_ledger_unless_diverged(RunResult& result, const std::vector<AggregatedRelease>& releases,
                                   const AggregationPrivacyKeys& keys, bool diverged,
                                   const ProgressCallback& progress) {
  if (keys.noise && !diverged) {
    record_aggregation_ledger(result, releases, keys, progress);
  } else {
    const std::string why =
        keys.noise ? "the run diverged: no accounting" : "noise=off: the plain algorithm, no privacy";
    record_no_ledger(result, why, why);
  }
}

Json sensitivity_fields(const AggregationPrivacyKeys& keys, int agent, int agents, double b_inf, const Json& more) {
  Json j = {{"agent", agent},
            {"agent_selection", keys.worst_agent ? "the worst of the " + std::to_string(agents) +
                                                       " agents (largest accounted epsilon; --set target=t for agent t's)"
                                                 : std::string("target=") + std::to_string(agent)},
            {"domain", describe(keys.domain)},
            {"b_inf", b_inf},
            {"b_inf_source", keys.b_inf > 0 ? "parameter b_inf (a declared bound, checked >= the domain's)"
                                            : "the domain: 2 sup|loss'| sup|z_l| / b (replace-one, rows not read)"}};
  for (auto it = more.begin(); it != more.end(); ++it) j[it.key()] = it.value();
  return j;
}

void add_to_both_ledgers(RunResult& result, const Json& fields) {
  for (Json* j : {&result.claimed, &result.accounted})
    for (auto it = fields.begin(); it != fields.end(); ++it) (*j)[it.key()] = it.value();
}

}  // namespace dpl::algorithms
