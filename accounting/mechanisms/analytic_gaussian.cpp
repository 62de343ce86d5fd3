// SPDX-License-Identifier: Apache-2.0
#include "accounting/mechanisms/analytic_gaussian.h"

#include "accounting/errors.h"
#include "accounting/numeric/certified_threshold.h"
#include "accounting/numeric/decimal.h"
#include "accounting/numeric/log_space.h"
#include "accounting/numeric/portable_math.h"
#include "accounting/rdp/rdp_zcdp.h"

#include <cmath>
#include <stdexcept>

namespace dpl {

// Balle and Wang 2018, Thm 8 (exact), evaluated in log space: delta = Phi(a) (1 - e^{eps + log Phi(b) - log Phi(a)})
// with a = mu/2 - eps/mu, b = a - mu, so that the difference of two nearly equal terms never cancels.
Interval analytic_gaussian_delta(const Interval& mu, const Interval& eps) {
  const Interval a = mu / 2 - eps / mu;
  const Interval b = a - mu;
  const Interval log_pa = log_normal_cdf(a);
  const Interval x = eps + log_normal_cdf(b) - log_pa;  // < 0 in exact arithmetic
  if (hi(x) >= 0) {
    // Too narrow to resolve the sign at this precision: enclose by [0, Phi(a)].
    return make_interval(Real(0), hi(exp(log_pa)));
  }
  return exp(log_pa + log1mexp(x));
}

namespace {

// log Phi(x) in long double by portable::erfc (the same bits on every CPU); -inf where Phi(x) underflows.
long double log_phi_ld(long double x) { return portable::log(0.5L * portable::erfc(-x / std::sqrt(2.0L))); }

// A starting point for the certified Newton iteration below: the crossing delta(eps) = delta found by safeguarded
// Newton in long double (Balle and Wang 2018, Thm 8 and its derivative -e^eps Phi(-mu/2 - eps/mu)), to about 1e-17
// relatively; nullopt where long double does not resolve it (tiny deltas, extreme mu). Not a bound: the MPFR
// iteration and the certified bracket decide.
std::optional<long double> newton_start(long double mu, long double delta, long double hi) {
  const long double log_target = portable::log(delta);
  long double a = 0, b = hi, e = hi;
  for (int it = 0; it < 100; ++it) {
    const long double pa = mu / 2 - e / mu, log_pa = log_phi_ld(pa), log_pb = log_phi_ld(pa - mu);
    const long double x = e + log_pb - log_pa;
    if (!std::isfinite(log_pa) || !std::isfinite(log_pb) || !(x < 0)) return std::nullopt;
    const long double log_d = log_pa + portable::log1p(-portable::exp(x));
    const long double g = log_d - log_target;
    if (g > 0) a = e; else b = e;
    const long double slope = -portable::exp(e + log_pb - log_d);  // d log delta / d eps
    long double next = e - g / slope;
    if (!(next > a && next < b)) next = (a + b) / 2;
    const long double step = std::fabs(next - e);
    e = next;
    if (step <= 1e-18L * (1 + e)) return e;
  }
  return std::nullopt;
}

// The Gaussian tail's epsilon, feasible in exact arithmetic: delta(eps) <= P(L > eps), L ~ N(mu^2/2, mu^2), and
// P(Z > t) <= e^{-t^2/2} = delta at t = sqrt(2 log(1/delta)) (upper bound).
double tail_epsilon(double mu, double delta) { return mu * mu / 2 + mu * std::sqrt(2 * std::log(1 / delta)) + 1e-3; }

}  // namespace

std::optional<double> analytic_gaussian_epsilon_estimate(double mu, double delta) {
  if (!(mu > 0) || !(delta > 0 && delta < 1)) return std::nullopt;
  // delta(0) = Phi(mu/2) - Phi(-mu/2) at most delta: the answer is 0.
  if (portable::erfc(-mu / (2 * std::sqrt(2.0L))) / 2 - portable::erfc(mu / (2 * std::sqrt(2.0L))) / 2 <= delta) return 0.0;
  const auto e = newton_start(mu, delta, tail_epsilon(mu, delta));
  if (!e) return std::nullopt;
  return static_cast<double>(*e);
}

EpsilonSearch analytic_gaussian_epsilon(const Interval& mu, double delta) {
  auto profile = [&](const Real& eps) { return analytic_gaussian_delta(mu, make_interval(eps, eps)); };
  const Real target(delta);
  if (certainly_at_most(profile(Real(0)), target) == Verdict::yes) return {exact(0.0), exact(0.0)};
  // A feasible start from the Gaussian tail: delta(eps) <= P(L > eps), L ~ N(mu^2/2, mu^2) (upper bound).
  const double m = mid_double(mu);
  const Real tail(tail_epsilon(m, delta));
  // A certified feasible end, found only when the fast path below does not certify (it costs evaluations).
  auto feasible = [&] {
    Real b = tail;
    for (int i = 0; certainly_at_most(profile(b), target) != Verdict::yes; ++i) {
      if (i > 2000) throw NotApplicable("analytic Gaussian: no certified epsilon for mu = " + format_upper(mu));
      b *= 2;
    }
    return b;  // certified: delta(b) <= target
  };
  // Safeguarded Newton on g(eps) = log delta(eps) - log delta_target, with d delta/d eps = -e^eps Phi(b(eps))
  // (Balle and Wang 2018, Thm 8 differentiated); the bracket [a, b] keeps g(a) > 0 >= g(b) (b = the tail bound,
  // feasible in exact arithmetic). It starts from the long-double crossing, where one or two steps reach 1e-30.
  const Real log_target = log(target);
  const auto start = newton_start(m, delta, static_cast<long double>(tail));
  Real a(0), b = tail, e = start ? Real(*start) : tail;
  for (int it = 0; it < 200; ++it) {
    const Interval ei = make_interval(e, e);
    const Real d = mid(analytic_gaussian_delta(mu, ei));
    if (!(d > 0)) { e = (a + b) / 2; continue; }
    const Real g = log(d) - log_target;
    if (g > 0) a = e; else b = e;
    const Real slope = -mid(exp(ei + log_normal_cdf(-mu / 2 - ei / mu))) / d;
    Real next = e - g / slope;
    if (!(next > a && next < b)) next = (a + b) / 2;
    const Real step = abs(next - e);
    e = next;
    if (step <= Real("1e-30") * (1 + e) || b - a <= Real("1e-30") * (1 + b)) break;
  }
  // Certify a narrow bracket around the Newton point (widened until certified); fall back to certified bisection
  // if it does not hold.
  try {
    const EpsilonSearch r = bracket_epsilon(profile, target, e, e);
    if (r.lower) return r;
  } catch (const std::runtime_error&) {
  }
  return smallest_epsilon(profile, target, feasible(), Real("1e-25"));
}

std::optional<Interval> composed_gaussian_mu(const Ledger& ledger) {
  Interval mu2 = exact(0.0);
  for (const auto& e : ledger) {
    if (e.mechanism.kind == MechanismKind::tree) {  // a Gaussian of sensitivity sens sqrt(depth) (rdp_zcdp.h)
      mu2 += exact_int(e.steps) * 2 * tree_rho(e.mechanism.sigma, e.mechanism.sens, e.mechanism.x.leaves);
      continue;
    }
    if (e.mechanism.kind != MechanismKind::gaussian || e.q != 1.0) return std::nullopt;
    const Interval r = exact(e.mechanism.sens) / exact(e.mechanism.sigma);
    mu2 += exact_int(e.steps) * r * r;
  }
  return sqrt(mu2);
}

}  // namespace dpl
