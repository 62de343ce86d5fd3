#include "accounting/composition/optimal_composition.h"

#include "accounting/composition/advanced_composition.h"
#include "accounting/errors.h"
#include "accounting/mechanisms/analytic_gaussian.h"
#include "accounting/numeric/certified_threshold.h"
#include "accounting/numeric/decimal.h"
#include "accounting/numeric/log_space.h"

#include <cmath>
#include <limits>

namespace dpl {

namespace {

// Beyond this many steps the O(k) certified sums get slow (about a second per evaluation at 10^6).
constexpr std::int64_t kMaxSteps = 1'000'000;

Interval point(const Real& x) { return make_interval(x, x); }

// Iterates l = 0, 1, ... over the binomial terms a_l = C(k,l) p^{k-l} (1-p)^l, p = e^eps0/(1+e^eps0), and
// c_l = a_l e^{eps - (k-2l) eps0}, so that the KOV summand is a_l - c_l (Kairouz-Oh-Viswanath 2015, Thm 3.3).
struct KovTerms {
  KovTerms(const Interval& eps0, std::int64_t k, const Interval& eps)
      : k_(k), down_(exp(-eps0)), up_(exp(eps0)),
        a_(exp(-exact_int(k) * log1p(exp(-eps0)))),
        c_(a_ * exp(eps - exact_int(k) * eps0)) {}
  void next() {
    const Interval ratio = exact_int(k_ - l_) / exact_int(l_ + 1);
    a_ *= ratio * down_;
    c_ *= ratio * up_;
    ++l_;
  }
  std::int64_t k_, l_ = 0;
  Interval down_, up_, a_, c_;
};

}  // namespace

// KOV 2015 Thm 3.3, the sum over the active l (those with (k - 2l) eps0 > eps), exact enclosure.
Interval kov_optimal_pure_delta(const Interval& eps0, std::int64_t k, const Interval& eps) {
  KovTerms t(eps0, k, eps);
  Interval sum = exact(0.0);
  for (; t.l_ <= k; t.next()) {
    const Interval gap = exact_int(k - 2 * t.l_) * eps0 - eps;  // the summand is positive iff gap > 0
    if (certainly_le(gap, exact(0.0))) break;
    const Interval term = t.a_ - t.c_;
    sum += certainly_gt(gap, exact(0.0)) ? clamp_nonnegative(term) : hull(exact(0.0), clamp_nonnegative(term));
  }
  return imin(sum, exact(1.0));
}

// KOV 2015 Thm 3.3 with delta0 > 0: 1 - (1 - delta0)^k (1 - delta_pure). Exact enclosure.
Interval kov_optimal_delta(const Interval& eps0, const Interval& delta0, std::int64_t k, const Interval& eps) {
  const Interval pure = kov_optimal_pure_delta(eps0, k, eps);
  if (hi(delta0) == 0) return pure;
  return -expm1(exact_int(k) * log1p(-delta0) + log1p(-pure));
}

EpsilonSearch kov_optimal_epsilon(const Interval& eps0, const Interval& delta0, std::int64_t k, double delta) {
  // Target of the pure part: delta_pure <= 1 - (1 - delta)/(1 - delta0)^k, taken at its lower end (safe).
  const Interval target_iv = -expm1(log1p(-exact(delta)) - exact_int(k) * log1p(-delta0));
  if (!certainly_ge(target_iv, exact(0.0)))
    throw NotApplicable("optimal composition: the composed per-step delta 1-(1-delta0)^k exceeds --delta " +
                        format_input(delta) + "; no epsilon meets it");
  const Real target = lo(target_iv);
  // delta = 0 (and delta0 = 0): the pure part must vanish, i.e. eps >= k eps0 exactly (KOV 2015, Thm 3.3, l = 0).
  if (target <= 0) {
    const Interval e = exact_int(k) * eps0;
    return {e, e};
  }
  // The pure part's profile is compared with the pure part's target.
  auto profile = [&](const Real& eps) { return kov_optimal_pure_delta(eps0, k, point(eps)); };
  if (certainly_at_most(profile(Real(0)), target) == Verdict::yes) return {exact(0.0), exact(0.0)};

  // 1. Locate the piece in double (log space): on piece L, delta_pure(eps) = A_L - e^eps B_L for
  //    eps in [(k - 2L - 2) eps0, (k - 2L) eps0], A_L = sum_{l<=L} a_l, B_L = sum_{l<=L} a_l e^{-(k-2l) eps0}.
  const double e0 = hi_up(eps0), t = target.convert_to<double>();
  double log_a = -static_cast<double>(k) * std::log1p(std::exp(-e0));
  double log_A = -std::numeric_limits<double>::infinity(), log_B = log_A;
  auto lae = [](double x, double y) {
    if (x < y) std::swap(x, y);
    return y == -std::numeric_limits<double>::infinity() ? x : x + std::log1p(std::exp(y - x));
  };
  std::int64_t piece = -1;
  for (std::int64_t L = 0; 2 * L < k; ++L) {
    log_A = lae(log_A, log_a);
    log_B = lae(log_B, log_a - static_cast<double>(k - 2 * L) * e0);
    const double left = std::max(0.0, static_cast<double>(k - 2 * L - 2) * e0);
    const double d_left = std::exp(log_A) * -std::expm1(left + log_B - log_A);
    if (d_left >= t) { piece = L; break; }
    if (left == 0.0) break;  // eps = 0 was handled above
    log_a += std::log(static_cast<double>(k - L) / static_cast<double>(L + 1)) - e0;
  }

  // 2. Closed form on that piece, in intervals: eps = log((A_L - target)/B_L); then certify both ends directly.
  if (piece >= 0) {
    KovTerms terms(eps0, k, exact(0.0));  // c_l = a_l e^{-(k-2l) eps0} when eps = 0
    Interval A = exact(0.0), B = exact(0.0);
    for (; terms.l_ <= piece; terms.next()) {
      A += terms.a_;
      B += terms.c_;
    }
    const Interval num = A - point(target);
    if (certainly_gt(num, exact(0.0))) {
      const Interval eps = log(num / B);
      const Real up = hi(eps), down = lo(eps) > 0 ? lo(eps) : Real(0);
      if (up > 0 && certainly_at_most(profile(up), target) == Verdict::yes) {
        EpsilonSearch r{make_interval(down, up), std::nullopt};
        if (certainly_at_most(profile(down), target) == Verdict::no) r.lower = point(down);
        return r;
      }
    }
  }
  // 3. Fallback (the double pass missed the piece near a breakpoint): certified bisection on the direct sum.
  return smallest_epsilon(profile, target, Real(static_cast<double>(k) * e0), Real("1e-25"));
}

namespace {

bool worst_case_of_class(const Ledger& ledger) {
  for (const auto& e : ledger) {
    const auto kind = e.mechanism.kind;
    if (e.subsampled() || !(kind == MechanismKind::rr || kind == MechanismKind::pure || kind == MechanismKind::approx))
      return false;
  }
  return true;
}

AccountingResult gaussian_result(const Interval& mu, const Target& target) {
  AccountingResult r;
  r.accountant = "optimal";
  r.note = "exact analytic Gaussian (Balle and Wang 2018, Thm 8) of the composed Gaussian, mu = " +
           format_upper(mu) + " (Dong, Roth and Su 2019, Cor. 2.1)";
  if (target.given == Target::Given::delta) {
    if (target.value == 0) throw NotApplicable("optimal: a Gaussian mechanism has no finite epsilon at --delta 0");
    const EpsilonSearch s = analytic_gaussian_epsilon(mu, target.value);
    r.epsilon = s.epsilon;
    r.lower = s.lower;
    r.delta = exact(target.value);
  } else {
    r.epsilon = exact(target.value);
    r.delta = analytic_gaussian_delta(mu, r.epsilon);
    r.lower = make_interval(lo(r.delta), lo(r.delta));
  }
  return r;
}

}  // namespace

AccountingResult compose_optimal(const Ledger& ledger, const Target& target) {
  if (ledger.empty()) throw InputError("-m: at least one mechanism is required");
  if (auto mu = composed_gaussian_mu(ledger)) return gaussian_result(*mu, target);
  for (const auto& e : ledger) {
    if (e.mechanism.kind == MechanismKind::gaussian)
      throw NotApplicable("accountant 'optimal' applies to unsampled Gaussian ledgers (exact analytic curve) or "
                          "homogeneous pure/approx ledgers; this ledger mixes or subsamples Gaussians: use pld, rdp "
                          "or auto");
  }
  const std::vector<StepProfile> profiles = step_profiles(ledger, "optimal");
  std::int64_t k = 0;
  for (const auto& p : profiles) {
    if (hi(p.eps) != hi(profiles[0].eps) || hi(p.delta) != hi(profiles[0].delta))
      throw NotApplicable("accountant 'optimal' needs identical per-step (eps, delta) guarantees (homogeneous); "
                          "exact heterogeneous composition is #P-hard (Murtagh and Vadhan 2016): use pld, "
                          "advanced or auto");
    k += p.steps;
    if (k > kMaxSteps)
      throw NotApplicable("accountant 'optimal' is limited to " + std::to_string(kMaxSteps) +
                          " composed steps; use pld or advanced");
  }
  const Interval eps0 = profiles[0].eps, delta0 = profiles[0].delta;
  const bool exact_for_class = worst_case_of_class(ledger);
  AccountingResult r;
  r.accountant = "optimal";
  r.note = "exact optimal homogeneous composition of " + std::to_string(k) +
           " steps (Kairouz, Oh and Viswanath 2015, Thm 3.3, solved for every epsilon)";
  if (target.given == Target::Given::delta) {
    const EpsilonSearch s = kov_optimal_epsilon(eps0, delta0, k, target.value);
    r.epsilon = s.epsilon;
    if (exact_for_class) r.lower = s.lower;
    r.delta = exact(target.value);
  } else {
    r.epsilon = exact(target.value);
    r.delta = kov_optimal_delta(eps0, delta0, k, r.epsilon);
    if (exact_for_class) r.lower = make_interval(lo(r.delta), lo(r.delta));
  }
  return r;
}

}  // namespace dpl
