// SPDX-License-Identifier: Apache-2.0
#include "accounting/mechanisms/analytic_gaussian.h"

#include "accounting/errors.h"
#include "accounting/mechanisms/analytic_gaussian_long_double.h"
#include "accounting/numeric/certified_threshold.h"
#include "accounting/numeric/decimal.h"
#include "accounting/numeric/log_space.h"
#include "accounting/numeric/portable_math.h"
#include "accounting/rdp/rdp_zcdp.h"

#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace dpl {

namespace {

// The last few MPFR evaluations of this thread (a pure function of its arguments): a calibration certifies its
// answer at the target epsilon its search has just decided there.
struct RecentProfile {
  Interval mu, eps, delta;
};
thread_local std::array<std::optional<RecentProfile>, 8> recent_profiles;
thread_local std::size_t next_recent = 0;

bool same_interval(const Interval& a, const Interval& b) { return lo(a) == lo(b) && hi(a) == hi(b); }

}  // namespace

// Balle and Wang 2018, Thm 8 (exact), evaluated in log space: delta = Phi(a) (1 - e^{eps + log Phi(b) - log Phi(a)})
// with a = mu/2 - eps/mu, b = a - mu, so that the difference of two nearly equal terms never cancels.
Interval analytic_gaussian_delta(const Interval& mu, const Interval& eps) {
  for (const auto& r : recent_profiles)
    if (r && same_interval(r->mu, mu) && same_interval(r->eps, eps)) return r->delta;
  auto remember = [&](const Interval& delta) {
    recent_profiles[next_recent] = RecentProfile{mu, eps, delta};
    next_recent = (next_recent + 1) % recent_profiles.size();
    return delta;
  };
  const Interval a = mu / 2 - eps / mu;
  const Interval b = a - mu;
  const Interval log_pa = log_normal_cdf(a);
  const Interval x = eps + log_normal_cdf(b) - log_pa;  // < 0 in exact arithmetic
  if (hi(x) >= 0) {
    // Too narrow to resolve the sign at this precision: enclose by [0, Phi(a)].
    return remember(make_interval(Real(0), hi(exp(log_pa))));
  }
  return remember(exp(log_pa + log1mexp(x)));
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

// An endpoint of an MPFR number as a long double, rounded outwards (down, or up).
long double to_long_double(const Real& x, bool up) {
  return mpfr_get_ld(x.backend().data(), up ? MPFR_RNDU : MPFR_RNDD);
}

// An enclosure (down, up] of the answer (delta(down) > delta >= delta(up)) narrowed until no point of the output
// grids lies strictly inside it: the decimals of 15 significant digits (what is printed) and the binary64 values
// (what the Python module returns). Then every rounding of the answer that is printed or returned is the
// same at both ends, so the outputs are those of any narrower enclosure (the MPFR path's included), whichever path
// ran. Each grid point inside is decided by one MPFR evaluation of the profile there (Balle and Wang 2018, Thm 8);
// nullopt when one does not decide or more than two would be needed.
std::optional<EpsilonSearch> settle_printed_digits(const Interval& mu, double delta, Real down, Real up) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const Real target(delta);
  // The smallest binary64 value strictly above x.
  auto binary64_above = [](const Real& x) {
    const double b = mpfr_get_d(x.backend().data(), MPFR_RNDU);
    return Real(b) > x ? b : std::nextafter(b, inf);
  };
  // Two binary64 values or more inside: the MPFR search costs no more than deciding them one by one.
  if (Real(std::nextafter(binary64_above(down), inf)) < up) return std::nullopt;
  for (int it = 0; it < 6; ++it) {
    // The smallest grid point above down: the 15-digit decimal (as an interval: it is rarely a binary number) and
    // the binary64 value.
    Interval g = from_decimal(format_up(down));
    if (!(lo(g) > down)) g = from_decimal(format_up(hi(g)));  // down is that decimal: the next one up
    const double b = binary64_above(down);
    if (Real(b) < lo(g)) g = exact(b);
    if (!(hi(g) < up)) {
      if (lo(g) < up) return std::nullopt;  // the decimal's enclosure straddles up: not decidable here
      return EpsilonSearch{make_interval(down, up), make_interval(down, down)};
    }
    const Interval d = analytic_gaussian_delta(mu, g);
    if (hi(d) <= target) up = lo(g);
    else if (lo(d) > target) down = hi(g);
    else return std::nullopt;
  }
  return std::nullopt;
}

// The certified answer from long-double enclosures alone (analytic_gaussian_long_double.h): the long-double
// crossings at mu's two ends, moved outwards by relative steps 2^-63 .. 2^-42 until the enclosure decides.
// nullopt when it does not (the MPFR search then decides).
std::optional<EpsilonSearch> epsilon_long_double(const Interval& mu, double delta, long double tail) {
  const long double m_lo = to_long_double(lo(mu), false), m_hi = to_long_double(hi(mu), true);
  const long double target = delta;
  auto at = [&](long double e) { return analytic_gaussian_delta_long_double(m_lo, m_hi, e); };
  const auto zero = at(0);
  if (!zero) return std::nullopt;
  if (zero->hi <= target) return EpsilonSearch{exact(0.0), exact(0.0)};
  if (!(zero->lo > target)) return std::nullopt;
  const auto up_start = newton_start(m_hi, target, tail), down_start = newton_start(m_lo, target, tail);
  if (!up_start || !down_start) return std::nullopt;
  // From `start`, relative steps doubling from 2^-63 outwards (`sign`: +1 up, -1 down; the enclosure's width is a
  // few 1e-18 where eps is near 1) until `decided` holds for the enclosure there.
  auto outwards = [&](long double start, int sign, auto decided) -> std::optional<long double> {
    for (long double step = 0; step <= 0x1p-42L; step = step == 0 ? 0x1p-63L : 2 * step) {
      const long double e = start * (1 + sign * step);
      const auto d = at(e);
      if (!d) return std::nullopt;
      if (decided(*d)) return e;
    }
    return std::nullopt;
  };
  const auto up = outwards(*up_start, 1, [&](const LongDoubleEnclosure& d) { return d.hi <= target; });
  const auto down = outwards(*down_start, -1, [&](const LongDoubleEnclosure& d) { return d.lo > target; });
  if (!up || !down) return std::nullopt;
  // delta(mu_lo, down) > target >= delta(mu_hi, up) and delta is non-increasing in eps: the answer is in (down, up].
  return settle_printed_digits(mu, delta, Real(*down), Real(*up));
}

// The Gaussian tail's epsilon, feasible in exact arithmetic: delta(eps) <= P(L > eps), L ~ N(mu^2/2, mu^2), and
// P(Z > t) <= e^{-t^2/2} = delta at t = sqrt(2 log(1/delta)) (upper bound).
double tail_epsilon(double mu, double delta) { return mu * mu / 2 + mu * std::sqrt(2 * portable::binary64::log(1 / delta)) + 1e-3; }

}  // namespace

std::optional<double> analytic_gaussian_epsilon_estimate(double mu, double delta) {
  if (!(mu > 0) || !(delta > 0 && delta < 1)) return std::nullopt;
  // delta(0) = Phi(mu/2) - Phi(-mu/2) at most delta: the answer is 0.
  if (portable::erfc(-mu / (2 * std::sqrt(2.0L))) / 2 - portable::erfc(mu / (2 * std::sqrt(2.0L))) / 2 <= delta) return 0.0;
  const auto e = newton_start(mu, delta, tail_epsilon(mu, delta));
  if (!e) return std::nullopt;
  return static_cast<double>(*e);
}

Verdict analytic_gaussian_delta_at_most(const Interval& mu, const Real& eps, double delta) {
  const long double e_lo = to_long_double(eps, false), e_hi = to_long_double(eps, true);
  const long double m_lo = to_long_double(lo(mu), false), m_hi = to_long_double(hi(mu), true);
  // delta is non-increasing in eps: at most delta at e_lo <= eps means at most delta at eps; above at e_hi, above.
  if (const auto d = analytic_gaussian_delta_long_double(m_lo, m_hi, e_lo); d && d->hi <= delta) return Verdict::yes;
  if (const auto d = analytic_gaussian_delta_long_double(m_lo, m_hi, e_hi); d && d->lo > delta) return Verdict::no;
  return certainly_at_most(analytic_gaussian_delta(mu, make_interval(eps, eps)), Real(delta));
}

EpsilonSearch analytic_gaussian_epsilon(const Interval& mu, double delta) {
  const double m = mid_double(mu);
  if (m > 0 && delta > 0 && delta < 1)
    if (auto r = epsilon_long_double(mu, delta, static_cast<long double>(tail_epsilon(m, delta)))) return *r;
  auto profile = [&](const Real& eps) { return analytic_gaussian_delta(mu, make_interval(eps, eps)); };
  const Real target(delta);
  if (certainly_at_most(profile(Real(0)), target) == Verdict::yes) return {exact(0.0), exact(0.0)};
  // A feasible start from the Gaussian tail: delta(eps) <= P(L > eps), L ~ N(mu^2/2, mu^2) (upper bound).
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
