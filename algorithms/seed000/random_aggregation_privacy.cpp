#include "algorithms/seed000/random_aggregation_privacy.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>

#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/gamma/average_case_gamma.h"
#include "accounting/numeric/interval.h"

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
// (notes/000 sec. 3.5, beta = 1): gamma = (1 - e^{-u})/u + (2/e) int_0^{u/2} q Theta, q = J/(2u).
// On [0, e]: Theta <= e (Thm 2.2.1), so that part is <= e int_0^e J/(2u) = e [2e - (1 - e^{-e}) - e^{-u}
// expm1(e)]/(2u). On [e, u/2]: Theta = log1p(N/J(y-e)) <= N/J(y-e) with N = e^{-y} expm1(e) + e^{-(u-y)} expm1(-e) >=
// 0, and J(y)/J(y-e) <= e^e (Thm 2.2.1), so q Theta <= e^e N/(2u), whose integral is e^e [expm1(e)(e^{-e} - e^{-u/2}) +
// expm1(-e)(e^{-u/2} - e^{-(u-e)})]/(2u). Upper bound; tends to gamma_0 = 2(1 - e^{-u/2})/u as e -> 0 (slack O(e)).
// Interval arithmetic, rounded up.
double gamma_closed_form_bound(double u, double e) {
  if (!(u >= 2 * e) || !(e > 0)) return 1.0;
  const Interval U = exact(u), E = exact(e), one = exact(1.0), two = exact(2.0);
  const Interval part1 = E * (two * E - (one - exp(-E)) - exp(-U) * expm1(E)) / (two * U);
  const Interval part2 =
      exp(E) * (expm1(E) * (exp(-E) - exp(-U / two)) + expm1(-E) * (exp(-U / two) - exp(E - U))) / (two * U);
  const Interval b = (one - exp(-U)) / U + two / E * (part1 + part2);
  return std::min(1.0, hi_up(b));
}

namespace {

// Below this normalised interval length the quadrature of average_case_gamma does not terminate (measured:
// beta omega = 1.5e-10 hangs); there gamma <= 1 (Thm 2.2.1: Theta <= beta s pointwise) is used, an upper bound
// loose by O(beta omega).
constexpr double kSmallestGammaU = 1e-8;
// automatic: the closed-form bound where its relative slack is below ~1% (measured: 0.4 e relative), else exact.
constexpr double kClosedFormMaxShift = 0.02;

struct GammaPair {
  double exact_upper = 1;    // certified-direction upper value of the exact gamma (quadrature error added)
  bool closed_form = false;  // exact_upper is gamma_closed_form_bound
};

// Exact gamma (Xiao 2019 Def. 2 / Thm 2.2.2 setting; notes/000 sec. 3.5) rounded up with its quadrature error,
// capped at 1 (Thm 2.2.1), or the closed-form bound (see GammaMethod).
GammaPair gamma_of(double omega, double beta, double shift, GammaMethod method) {
  GammaPair g;
  if (!(beta * omega >= kSmallestGammaU)) return g;
  const double u = beta * omega, e = beta * shift;
  const bool closed =
      u >= 2 * e && (method == GammaMethod::bound || (method == GammaMethod::automatic && e <= kClosedFormMaxShift));
  if (closed) {
    g.exact_upper = gamma_closed_form_bound(u, e);
    g.closed_form = true;
    return g;
  }
  const GammaResult r = average_case_gamma(omega, beta, shift);
  const Interval up = exact(0.0) + Interval(r.gamma) + Interval(abs(r.quadrature_error));
  g.exact_upper = std::min(1.0, hi_up(up));
  return g;
}

// Thesis eq. (2.6) as printed (Thm 2.2.2; closed form of its double integral, notes/000 sec. 3.5, the same
// formula as accounting/gamma's thesis_bound, in double): with a = (u - e)/2, m1, m2 as in accounting/gamma,
// log(e^e (1 - 2 m1) + 2 m2)/e. The printed value, not a bound (notes/000 E1).
double thesis_eq_2_6(double u, double e) {
  const double a = (u - e) / 2;
  const double m1 = (2 * a - (1 - std::exp(-a)) - std::exp(-u) * (std::exp(a) - 1)) / (2 * u);
  const double m2 =
      (2 * a - (std::exp(-e) - std::exp(-(a + e))) - std::exp(-u) * (std::exp(a + e) - std::exp(e))) / (2 * u);
  return std::log(std::exp(e) * (1 - 2 * m1) + 2 * m2) / e;
}

Json number_or_inf(double x) { return std::isfinite(x) ? Json(x) : Json("inf"); }

}  // namespace

AggregationLedger account_random_aggregation(const std::vector<AggregatedRelease>& releases, bool expected,
                                             GammaMethod method) {
  AggregationLedger out;
  // Ledger for the worst case: one Laplace entry per run of equal (beta, shift): eps = sens / b = beta s.
  Ledger ledger;
  double claimed_worst = 0, claimed_average = 0, realised = 0;
  Interval expected_sum = exact(0.0);
  std::map<std::tuple<double, double, double>, GammaPair> cache;  // exact reuse only (identical arguments)
  std::vector<double> curve_worst, curve_thesis, curve_expected, curve_realised;
  int current_step = -1;
  long closed_form_count = 0;
  for (const AggregatedRelease& r : releases) {
    // The sensitivity B_inf/D (or eta B_inf) was computed in double: two ulps up cover its roundings.
    const double sens_up = std::nextafter(std::nextafter(r.shift, HUGE_VAL), HUGE_VAL);
    const bool same =
        !ledger.empty() && ledger.back().mechanism.b == 1.0 / r.beta && ledger.back().mechanism.sens == sens_up;
    if (same) {
      ++ledger.back().steps;
    } else {
      LedgerEntry e;
      e.mechanism.kind = MechanismKind::laplace;
      e.mechanism.b = 1.0 / r.beta;  // the sampler draws Laplace with scale 1/beta (Rng::laplace_rate)
      e.mechanism.sens = sens_up;
      e.steps = 1;
      ledger.push_back(e);
    }
    const double e_worst = r.beta * r.shift;
    const double omega = r.hi - r.lo;
    claimed_worst += e_worst;
    GammaPair g;
    if (expected) {
      const auto key = std::make_tuple(omega, r.beta, sens_up);
      auto it = cache.find(key);
      if (it == cache.end()) it = cache.emplace(key, gamma_of(omega, r.beta, sens_up, method)).first;
      g = it->second;
      if (g.closed_form) ++closed_form_count;
    }
    // The thesis's average (Thm 2.2.2) where its hypothesis omega > s holds, else gamma = 1.
    claimed_average += e_worst * (omega > r.shift ? thesis_eq_2_6(r.beta * omega, r.beta * r.shift) : 1.0);
    // The per-release worst case as the ledger has it (Laplace: sens / b, b = 1/beta as sampled) times gamma.
    if (expected) expected_sum += exact(sens_up) / exact(1.0 / r.beta) * exact(g.exact_upper);
    realised += realised_coordinate_loss(r.released, r.lo, r.hi, r.beta, r.shift);
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
       "it is NOT a valid upper bound (notes/000 E1)"},
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
        "sum beta s gamma(beta omega, beta s) along this run's trajectory, exact gamma (accounting/gamma quadrature, "
        "quadrature error added, capped at 1 by Thm 2.2.1; gamma = 1 for beta omega < 1e-8); upper bound on the "
        "expected loss given this trajectory's intervals (trajectory-dependent, notes/000 E16)";
    out.accounted["gamma"] = worst_up > 0 ? exp_up / worst_up : 1.0;
    out.accounted["gamma_method"] = to_string(method);
    out.accounted["gamma_closed_form_releases"] = closed_form_count;
    out.accounted["gamma_closed_form_note"] =
        "closed-form releases use a proven upper bound on the exact gamma (random_aggregation_privacy.cpp; slack O(e), "
        "measured <= 0.5 e relative) instead of the quadrature; 'auto' uses it where e = beta s <= 0.02 and u >= 2e";
  } else {
    out.accounted["expected_epsilon"] = "not computed (average_case=off)";
  }
  out.accounted["realised_epsilon"] = realised;
  out.accounted["realised_method"] =
      "output-specific loss of this transcript: sum of Theta(x) (Lemma 2.2.1 / Thm 2.2.1, accounting/gamma "
      "realised_coordinate_loss), at most the worst case";
  out.curves = {{"worst", curve_worst}, {"thesis_average", curve_thesis}, {"realised", curve_realised}};
  if (expected) out.curves["expected"] = curve_expected;
  return out;
}

AggregationPrivacyKeys read_aggregation_privacy_keys(RunParameters& params) {
  AggregationPrivacyKeys keys;
  keys.noise = params.flag("noise", true);
  keys.target = static_cast<int>(params.integer("target", 0, 0, 100000));
  keys.b_inf = params.real("b_inf", 0, 0, 1e12);
  keys.average_case = params.flag("average_case", true);
  keys.gamma = parse_gamma_method("gamma", params.choice("gamma", "auto", {"auto", "exact", "bound"}));
  return keys;
}

double target_b_inf(const AggregationPrivacyKeys& keys, const std::vector<LocalObjective>& locals) {
  const auto n = static_cast<int>(locals.size());
  if (keys.target >= n)
    throw InputError("target=" + std::to_string(keys.target) +
                     " is out of range: allowed [0, agents-1=" + std::to_string(n - 1) + "]");
  if (keys.b_inf > 0) return keys.b_inf;
  const LocalObjective& f = locals[static_cast<std::size_t>(keys.target)];
  const double s = f.sensitivity_inf();
  if (keys.noise && !std::isfinite(s))
    throw NotApplicable("loss=" + to_string(f.loss()) +
                        ": the gradient's sensitivity to one replaced row is unbounded, so no privacy bound exists; "
                        "use loss=logistic, hinge or huber, or give b_inf=B (a bound you enforce)");
  return s;
}

void record_aggregation_ledger(RunResult& result, const std::vector<AggregatedRelease>& releases,
                               const AggregationPrivacyKeys& keys) {
  const AggregationLedger ledger = account_random_aggregation(releases, keys.average_case, keys.gamma);
  result.claimed = ledger.claimed;
  result.accounted = ledger.accounted;
  result.extra["privacy_curves"] = ledger.curves;
}

void record_no_ledger(RunResult& result, const std::string& source, const std::string& method) {
  result.claimed = {{"epsilon", "inf"}, {"delta", 0.0}, {"source", source}};
  result.accounted = {{"epsilon", "inf"}, {"delta", 0.0}, {"method", method}};
}

void record_ledger_unless_diverged(RunResult& result, const std::vector<AggregatedRelease>& releases,
                                   const AggregationPrivacyKeys& keys, bool diverged) {
  if (keys.noise && !diverged) {
    record_aggregation_ledger(result, releases, keys);
  } else {
    const std::string why =
        keys.noise ? "the run diverged: no accounting" : "noise=off: the plain algorithm, no privacy";
    record_no_ledger(result, why, why);
  }
}

void add_to_both_ledgers(RunResult& result, const Json& fields) {
  for (Json* j : {&result.claimed, &result.accounted})
    for (auto it = fields.begin(); it != fields.end(); ++it) (*j)[it.key()] = it.value();
}

}  // namespace dpl::algorithms
