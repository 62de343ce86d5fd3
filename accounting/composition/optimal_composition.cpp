// SPDX-License-Identifier: Apache-2.0
#include "accounting/composition/optimal_composition.h"

#include "accounting/composition/advanced_composition.h"
#include "accounting/errors.h"
#include "accounting/mechanisms/analytic_gaussian.h"
#include "accounting/numeric/certified_threshold.h"
#include "accounting/numeric/decimal.h"
#include "accounting/numeric/log_space.h"
#include "accounting/numeric/portable_distributions.h"
#include "accounting/numeric/portable_math.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace dpl {

namespace {

// The terms of KOV 2015 Thm 3.3 are binomial probabilities a_l = P(Bin(k, r) = l), r = 1/(1 + e^eps0), so only
// a window of l around k r matters; the rest is bounded by Chernoff tails. At most this many terms are summed
// per evaluation (k up to about 1.5e7 at the usual depths); beyond, `optimal` is not applicable.
constexpr std::int64_t kMaxWindow = 50'000;


// Chernoff-Hoeffding bound on a binomial tail (Hoeffding 1963, Thm 1, relative-entropy form):
// P(Bin(k, r) <= m) <= exp(-k D(m/k || r)) for m <= k r, and P(Bin(k, r) >= m) for m >= k r, with
// D(x || r) = x log(x/r) + (1 - x) log((1 - x)/(1 - r)). Upper bound, certified.
Interval binomial_tail_bound(std::int64_t k, std::int64_t m, const Interval& log_r, const Interval& log_1mr) {
  const Interval x = exact_int(m) / exact_int(k);
  Interval d = exact(0.0);
  if (m > 0) d += x * (log(x) - log_r);
  if (m < k) d += (1 - x) * (log1p(-x) - log_1mr);
  return imin(exact(1.0), exp(-exact_int(k) * clamp_nonnegative(d)));
}

// Double-precision Chernoff exponent k D(m/k || r) (only to choose the window; the bound itself is certified).
double chernoff_exponent(double k, double m, double r) {
  const double x = m / k;
  double d = 0;
  if (x > 0) d += x * portable::binary64::log(x / r);
  if (x < 1) d += (1 - x) * portable::binary64::log1p(-x) - (1 - x) * portable::binary64::log1p(-r);
  return k * std::max(0.0, d);
}

// The window [lo, hi] of l outside which each binomial tail is below e^{-depth} (by the Chernoff exponent).
std::pair<std::int64_t, std::int64_t> binomial_window(std::int64_t k, double r, double depth) {
  const double kd = static_cast<double>(k), mean = kd * r;
  // The exponent decreases towards the mean on each side: bisect for the cut.
  auto cut = [&](double from, double to) {
    if (chernoff_exponent(kd, from, r) < depth) return from;  // even the end is not deep: take everything
    double deep = from, shallow = to;
    for (int i = 0; i < 100 && std::abs(deep - shallow) > 0.5; ++i) {
      const double m = 0.5 * (deep + shallow);
      (chernoff_exponent(kd, m, r) >= depth ? deep : shallow) = m;
    }
    return deep;
  };
  const auto lo = static_cast<std::int64_t>(std::floor(cut(0.0, mean)));
  const auto hi = static_cast<std::int64_t>(std::ceil(cut(kd, mean)));
  return {std::max<std::int64_t>(0, lo), std::min(k, hi)};
}

// The parameters of one binomial (k, r = 1/(1 + e^eps0)) in intervals and double.
struct Binomial {
  Binomial(const Interval& epsilon0, std::int64_t steps)
      : k(steps), eps0(epsilon0), log_p(-log1p(exp(-epsilon0))), log_r(-epsilon0 - log1p(exp(-epsilon0))),
        r(mid_double(exp(log_r))) {}
  std::int64_t k;
  Interval eps0, log_p, log_r;
  double r;
  // log a_l = log C(k, l) + (k - l) log p + l log r, certified.
  Interval log_a(std::int64_t l) const {
    return log_binomial(k, l) + exact_int(k - l) * log_p + exact_int(l) * log_r;
  }
};

// Sums over the window l in [lo, min(last, hi)] of a_l and of c_l = a_l e^{shift - (k - 2l) eps0}, and upper
// bounds on the terms outside the window with l <= last: tail for the a_l, c_tail for the c_l (c_l / a_l is
// increasing in l, so below the window it is at most its value at lo, above at most its value at last).
struct WindowSums {
  Interval a = exact(0.0), c = exact(0.0), tail = exact(0.0), c_tail = exact(0.0);
};

WindowSums window_sums(const Binomial& bin, std::int64_t last, const Interval& shift, double depth) {
  WindowSums w;
  if (last < 0) return w;
  auto [lo, hi] = binomial_window(bin.k, bin.r, depth);
  const std::int64_t end = std::min(last, hi);
  auto ratio_at = [&](std::int64_t l) { return exp(shift - exact_int(bin.k - 2 * l) * bin.eps0); };
  if (lo > 0) {
    const Interval t = binomial_tail_bound(bin.k, lo - 1, bin.log_r, bin.log_p);
    w.tail += t;
    w.c_tail += t * ratio_at(std::min(lo, last));
  }
  if (last > hi) {
    const Interval t = binomial_tail_bound(bin.k, hi + 1, bin.log_r, bin.log_p);
    w.tail += t;
    w.c_tail += t * ratio_at(last);
  }
  if (lo > end) return w;
  if (end - lo > kMaxWindow)
    throw NotApplicable("accountant 'optimal': " + std::to_string(bin.k) + " composed steps need more than " +
                        std::to_string(kMaxWindow) + " binomial terms; use pld, rdp or advanced");
  Interval a = exp(bin.log_a(lo));
  Interval c = a * exp(shift - exact_int(bin.k - 2 * lo) * bin.eps0);
  const Interval down = exp(-bin.eps0), up = exp(bin.eps0);
  for (std::int64_t l = lo;; ++l) {
    w.a += a;
    w.c += c;
    if (l == end) break;
    const Interval ratio = exact_int(bin.k - l) / exact_int(l + 1);
    a *= ratio * down;  // a_{l+1} = a_l (k - l)/(l + 1) e^{-eps0}
    c *= ratio * up;    // c_{l+1} = c_l (k - l)/(l + 1) e^{eps0}
  }
  return w;
}

// The largest l whose KOV summand is certainly active ((k - 2l) eps0 > eps), and whether the next one is
// undecided (its summand is then in [0, a_l - c_l]).
std::int64_t last_active(const Binomial& bin, const Interval& eps, bool* undecided) {
  // (k - 2l) eps0 > eps  <=>  l < (k - eps/eps0)/2.
  const Interval bound = (exact_int(bin.k) - eps / bin.eps0) / 2;
  const double b_lo = lo_down(bound), b_hi = hi_up(bound);
  std::int64_t l = static_cast<std::int64_t>(std::ceil(b_lo)) - 1;  // l < b_lo certainly
  l = std::min(l, bin.k);
  *undecided = l + 1 >= 0 && l + 1 <= bin.k && static_cast<double>(l + 1) < b_hi;
  return l;
}

// delta_pure(eps) of KOV 2015 Thm 3.3 summed over the window at Chernoff depth `depth`. Enclosure.
Interval windowed_pure_delta(const Binomial& bin, const Interval& eps, double depth) {
  bool undecided = false;
  const std::int64_t last = last_active(bin, eps, &undecided);
  Interval sum = exact(0.0);
  if (last >= 0) {
    const WindowSums w = window_sums(bin, last, eps, depth);
    sum = clamp_nonnegative(w.a - w.c) + make_interval(Real(0), hi(w.tail));
  }
  if (undecided) {
    // The boundary term: a_l (1 - e^{eps - (k-2l) eps0}) is in [0, a_l] when the sign is not resolved.
    const Interval a = exp(bin.log_a(last + 1));
    const Interval term = a * -expm1(eps - exact_int(bin.k - 2 * (last + 1)) * bin.eps0);
    sum += hull(exact(0.0), clamp_nonnegative(term));
  }
  return imin(sum, exact(1.0));
}

// Chernoff depth for a relative accuracy of about 1e-25 at a value of size `value` (natural log units).
double depth_for(double log_value) { return std::max(80.0, 60.0 - log_value); }

}  // namespace

// KOV 2015 Thm 3.3, the sum over the active l (those with (k - 2l) eps0 > eps): the window of binomial terms
// that matters plus a Chernoff bound on the rest, deepened until the tail is below 1e-25 of the sum. Enclosure.
Interval kov_optimal_pure_delta(const Interval& eps0, std::int64_t k, const Interval& eps) {
  const Binomial bin(eps0, k);
  double depth = 80;
  Interval v = windowed_pure_delta(bin, eps, depth);
  for (int pass = 0; pass < 4 && lo(v) > 0 && width(v) > Real("1e-25") * lo(v); ++pass) {
    const double next = depth_for(portable::binary64::log(lo_down(v) > 0 ? lo_down(v) : 1e-300));
    if (next <= depth) break;
    depth = next;
    v = windowed_pure_delta(bin, eps, depth);
  }
  return v;
}

// KOV 2015 Thm 3.3 with delta0 > 0: 1 - (1 - delta0)^k (1 - delta_pure). Exact enclosure.
Interval kov_optimal_delta(const Interval& eps0, const Interval& delta0, std::int64_t k, const Interval& eps) {
  const Interval pure = kov_optimal_pure_delta(eps0, k, eps);
  if (hi(delta0) == 0) return pure;
  return -expm1(exact_int(k) * log1p(-delta0) + log1p(-pure));
}

namespace {

// log delta_pure(eps) in double (log-sum-exp over the window; only to locate the answer, never reported).
double log_pure_delta_double(std::int64_t k, double e0, double eps, std::int64_t lo, std::int64_t hi) {
  const double kd = static_cast<double>(k);
  const double bound = (kd - eps / e0) / 2;  // active: l < bound
  const std::int64_t last = std::min<std::int64_t>(hi, static_cast<std::int64_t>(std::ceil(bound)) - 1);
  double acc = -std::numeric_limits<double>::infinity();
  if (last < lo) return acc;
  const double log_p = -portable::binary64::log1p(portable::binary64::exp(-e0)), log_r = -e0 + log_p;
  double log_a = portable::log_gamma(kd + 1) - portable::log_gamma(static_cast<double>(lo) + 1) -
                 portable::log_gamma(kd - static_cast<double>(lo) + 1) + (kd - static_cast<double>(lo)) * log_p +
                 static_cast<double>(lo) * log_r;
  for (std::int64_t l = lo; l <= last; ++l) {
    const double gap = eps - (kd - 2 * static_cast<double>(l)) * e0;  // < 0 on the active range
    if (gap < 0) {
      const double t = log_a + portable::binary64::log(-portable::binary64::expm1(gap));
      acc = log_add_exp(acc, t);
    }
    log_a += portable::binary64::log((kd - static_cast<double>(l)) / static_cast<double>(l + 1)) - e0;
  }
  return acc;
}

}  // namespace

EpsilonSearch kov_optimal_epsilon(const Interval& eps0, const Interval& delta0, std::int64_t k, double delta) {
  // Target of the pure part: delta_pure <= 1 - (1 - delta)/(1 - delta0)^k, taken at its lower end (safe).
  const Interval target_iv = -expm1(log1p(-exact(delta)) - exact_int(k) * log1p(-delta0));
  if (!certainly_ge(target_iv, exact(0.0)))
    throw NotApplicable("optimal composition: the composed per-step delta 1-(1-delta0)^k exceeds --delta " +
                        format_target(delta) + "; no epsilon meets it");
  const Real target = lo(target_iv);
  // delta = 0 (and delta0 = 0): the pure part must vanish, i.e. eps >= k eps0 exactly (KOV 2015, Thm 3.3, l = 0).
  if (target <= 0) {
    const Interval e = exact_int(k) * eps0;
    return {e, e};
  }
  const Binomial bin(eps0, k);
  const double depth = depth_for(portable::binary64::log(std::max(target.convert_to<double>(), 1e-300)));
  // The pure part's profile is compared with the pure part's target.
  auto profile = [&](const Real& eps) { return windowed_pure_delta(bin, exact_real(eps), depth); };
  if (certainly_at_most(profile(Real(0)), target) == Verdict::yes) return {exact(0.0), exact(0.0)};

  // 1. Locate the answer in double: bisection of log delta_pure(eps) = log target over [0, k eps0].
  const double e0 = mid_double(eps0), log_t = portable::binary64::log(target.convert_to<double>());
  const auto [wlo, whi] = binomial_window(k, bin.r, depth);
  double e_lo = 0, e_hi = static_cast<double>(k) * e0;
  for (int i = 0; i < 200 && e_hi - e_lo > 1e-15 * e_hi; ++i) {
    const double m = 0.5 * (e_lo + e_hi);
    (log_pure_delta_double(k, e0, m, wlo, whi) > log_t ? e_lo : e_hi) = m;
  }
  const double e_star = 0.5 * (e_lo + e_hi);

  // 2. Closed form on the piece of e_star and its neighbours: for eps in [(k - 2L - 2) eps0, (k - 2L) eps0],
  //    delta_pure(eps) = A_L - e^eps B_L, A_L = sum_{l<=L} a_l, B_L = sum_{l<=L} a_l e^{-(k-2l) eps0}, so
  //    eps = log((A_L - target)/B_L); certify both ends of the result directly.
  const auto piece = static_cast<std::int64_t>(std::ceil((static_cast<double>(k) - e_star / e0) / 2)) - 1;
  for (std::int64_t L : {piece, piece - 1, piece + 1}) {
    if (L < 0 || 2 * L >= k) continue;
    const WindowSums w = window_sums(bin, L, exact(0.0), depth);
    const Interval A = w.a + make_interval(Real(0), hi(w.tail));
    const Interval B = w.c + make_interval(Real(0), hi(w.c_tail));
    const Interval num = A - exact_real(target);
    if (!certainly_gt(num, exact(0.0)) || !certainly_gt(B, exact(0.0))) continue;
    const Interval eps = log(num / B);
    const Real up = hi(eps), down = lo(eps) > 0 ? lo(eps) : Real(0);
    if (!(up > 0)) continue;
    try {
      return bracket_epsilon(profile, target, down, up);
    } catch (const std::runtime_error&) {
      // not this piece
    }
  }
  // 3. Fallback: certified bisection on the windowed sum, started at the double answer.
  return smallest_epsilon(profile, target, Real(e_star * (1 + 1e-9) + 1e-300), Real("1e-25"));
}

namespace {

bool worst_case_of_class(const Ledger& ledger) {
  for (const auto& e : ledger) {
    const auto kind = e.mechanism.kind;
    // rr in dp_accounting's (p, k) form is not the worst case of its eps (and that eps is rounded up).
    if (e.subsampled() || !(kind == MechanismKind::rr || kind == MechanismKind::pure || kind == MechanismKind::approx) ||
        e.mechanism.x.k > 0)
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
    if (p.steps > std::numeric_limits<std::int64_t>::max() / 4 - k)
      throw NotApplicable("accountant 'optimal': too many composed steps; use pld, rdp or advanced");
    k += p.steps;
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
