// SPDX-License-Identifier: Apache-2.0
#include "accounting/pld/loss_pair.h"

#include "accounting/numeric/portable_math.h"
#include "accounting/errors.h"
#include "accounting/numeric/decimal.h"
#include "accounting/numeric/infinity.h"
#include "accounting/numeric/interval.h"
#include "accounting/pld/loss_pair_extended.h"
#include "accounting/pld/normal_tails.h"

#include <cmath>
#include <limits>

namespace dpl {

namespace {

// The point x where the Poisson-subsampled Gaussian's loss log(1 - q + q e^{(2x-1)/(2z^2)}) equals l (> log(1-q)):
// x = z^2 log1p(expm1(l)/q) + 1/2. Beyond l = 64, expm1(l)/q overflows long double for l > ~10600 (z < ~0.007:
// losses of 1/(2z^2) per sampled step), which made the survival 0 there and moved those losses down to ~11356 (an
// unsound discretisation); there log1p(expm1(l)/q) = l - log q + log1p(-(1 - q) e^{-l}) exactly, each term
// accurate (no cancellation: (1 - q) e^{-l} < e^{-64}). Exact in real arithmetic; long double, a few u_ld.
long double subsampled_gaussian_inverse(long double l, double q, double z) {
  const long double zz = static_cast<long double>(z) * z;
  if (l <= 64) return zz * portable::log1p(portable::expm1(l) / q) + 0.5L;
  return zz * (l - portable::log(static_cast<long double>(q)) + portable::log1p(-(1 - static_cast<long double>(q)) * portable::exp(-l))) +
         0.5L;
}

// Gaussian pair N(0,1) vs N(mu,1) (sensitivity/noise = mu): L ~ N(mu^2/2, mu^2) under P, N(-mu^2/2, mu^2)
// under Q (Balle and Wang 2018, Lemma 3; Dong, Roth and Su 2019). Exact.
LossPair gaussian_pair(double mu) {
  LossPair p;
  const long double m = mu;
  p.survival_p = [m](double l) { return static_cast<double>(normal_upper_tail((l - m * m / 2) / m)); };
  p.survival_q = [m](double l) { return static_cast<double>(normal_upper_tail((l + m * m / 2) / m)); };
  p.support_lo = -kInf;
  p.support_hi = kInf;
  return p;
}

// Poisson-subsampled Gaussian, remove direction: P = (1-q) N(0,z^2) + q N(1,z^2), Q = N(0,z^2); the loss
// L(x) = log(1 - q + q e^{(2x-1)/(2z^2)}) is increasing in x, with inverse x(l) = z^2 log1p(expm1(l)/q) + 1/2
// for l > log(1-q) (Mironov, Talwar and Zhang 2019; Zhu, Dong and Wang 2022, Thm 11). Exact.
LossPair subsampled_gaussian_remove(double q, double z) {
  LossPair p;
  const double lo = portable::log1p(-q);
  auto x_of = [q, z](double l) { return subsampled_gaussian_inverse(l, q, z); };
  p.survival_p = [=](double l) {
    if (l <= lo) return 1.0;
    const long double x = x_of(l);
    return static_cast<double>((1 - static_cast<long double>(q)) * normal_upper_tail(x / z) + q * normal_upper_tail((x - 1) / z));
  };
  p.survival_q = [=](double l) { return l <= lo ? 1.0 : static_cast<double>(normal_upper_tail(x_of(l) / z)); };
  p.survival_both = [=](double l, double& sp, double& sq) {
    if (l <= lo) {
      sp = sq = 1.0;
      return;
    }
    const long double x = x_of(l), at_x = normal_upper_tail(x / z);
    sp = static_cast<double>((1 - static_cast<long double>(q)) * at_x + q * normal_upper_tail((x - 1) / z));
    sq = static_cast<double>(at_x);
  };
  p.support_lo = lo;
  p.support_hi = kInf;
  return p;
}

// Poisson-subsampled Gaussian, add direction: P = N(0,z^2), Q = (1-q) N(0,z^2) + q N(1,z^2); L(x) =
// -log(1 - q + q e^{(2x-1)/(2z^2)}) is decreasing in x: L > l iff x < z^2 log1p(expm1(-l)/q) + 1/2, for
// l < -log(1-q) (ibid.). Exact. The support's end -log(1-q), beyond which the survival functions are 0, is rounded up
// when `pessimistic`, down otherwise (with little noise much of the mass lies just below it).
LossPair subsampled_gaussian_add(double q, double z, bool pessimistic) {
  LossPair p;
  const Interval top = -log1p(-exact(q));
  const double hi = pessimistic ? hi_up(top) : lo_down(top);
  auto x_of = [q, z](double l) { return subsampled_gaussian_inverse(-static_cast<long double>(l), q, z); };
  p.survival_p = [=](double l) { return l >= hi ? 0.0 : static_cast<double>(normal_lower_tail(x_of(l) / z)); };
  p.survival_q = [=](double l) {
    if (l >= hi) return 0.0;
    const long double x = x_of(l);
    return static_cast<double>((1 - static_cast<long double>(q)) * normal_lower_tail(x / z) + q * normal_lower_tail((x - 1) / z));
  };
  p.survival_both = [=](double l, double& sp, double& sq) {
    if (l >= hi) {
      sp = sq = 0.0;
      return;
    }
    const long double x = x_of(l), at_x = normal_lower_tail(x / z);
    sp = static_cast<double>(at_x);
    sq = static_cast<double>((1 - static_cast<long double>(q)) * at_x + q * normal_lower_tail((x - 1) / z));
  };
  p.support_lo = -kInf;
  p.support_hi = hi;
  return p;
}

// log sinh(s) for s > 0, without overflow (s up to ~5e7 here): s - log 2 + log1p(-e^{-2s}) beyond s = 20, else
// log of sinh(s) = (e + e/(e + 1))/2 with e = expm1(s) (no cancellation). A few u_ld.
long double log_sinh(long double s) {
  if (s > 20) return s - portable::log(2.0L) + portable::log1p(-portable::exp(-2 * s));
  const long double e = portable::expm1(s);
  return portable::log((e + e / (e + 1)) / 2);
}

// asinh(e^{ly}) for a logarithm ly: log(2y) + log1p(1/(4 y^2))-sized correction beyond ly = 20 (the correction
// e^{-2 ly}/4 below 1e-18), else log1p(y + y^2/(1 + sqrt(1 + y^2))) (no cancellation). A few u_ld.
long double asinh_of_exp(long double ly) {
  if (ly > 20) return ly + portable::log(2.0L) + portable::exp(-2 * ly) / 4;
  const long double y = portable::exp(ly);
  return portable::log1p(y + y * y / (1 + std::sqrt(1 + y * y)));
}

// Poisson-subsampled Gaussian under replace-one neighbours: P = (1-q) N(0,z^2) + q N(1,z^2) against
// Q = (1-q) N(0,z^2) + q N(-1,z^2), a worst-case pair (Lebeda, Regehr, Kamath and Steinke 2025, Prop. 13; the mirror
// x -> -x swaps P and Q, so one direction serves both). L(x) = log(1-q + q e^{(2x-1)/(2z^2)}) - log(1-q +
// q e^{(-2x-1)/(2z^2)}) is odd and increasing; L(x) = l at x = z^2 (l/2 + asinh(A sinh(l/2))) with
// A = (1-q)/q e^{1/(2z^2)} (the root of u^2 - A (e^l - 1) u - e^l = 0, u = e^{x/z^2}). Exact; long double.
LossPair subsampled_gaussian_replace_one(double q, double z) {
  LossPair p;
  const long double zz = static_cast<long double>(z) * z;
  const long double log_a = portable::log1p(-static_cast<long double>(q)) - portable::log(static_cast<long double>(q)) + 1 / (2 * zz);
  auto x_of = [=](double l) -> long double {
    if (l == 0) return 0;
    const long double a = std::fabs(static_cast<long double>(l));
    const long double x = zz * (a / 2 + asinh_of_exp(log_a + log_sinh(a / 2)));
    return l > 0 ? x : -x;
  };
  p.survival_both = [=](double l, double& sp, double& sq) {
    const long double x = x_of(l), at_x = (1 - static_cast<long double>(q)) * normal_upper_tail(x / z);
    sp = static_cast<double>(at_x + q * normal_upper_tail((x - 1) / z));
    sq = static_cast<double>(at_x + q * normal_upper_tail((x + 1) / z));
  };
  survivals_from_both(p);
  p.support_lo = -kInf;
  p.support_hi = kInf;
  return p;
}

double directed_ratio(double a, double b, bool up);

// Laplace pair Lap(0, lambda) vs Lap(1, lambda), lambda = b/sens: L(x) = (|x-1| - |x|)/lambda in [-1/lambda,
// 1/lambda], L > l iff x < (1 - lambda l)/2 for |l| < 1/lambda (Dwork and Roth 2014; Koskela et al. 2020). Exact.
// The support's end 1/lambda (an atom of mass 1/2 under P) is rounded up when `pessimistic`, down otherwise.
LossPair laplace_pair(double lambda, bool pessimistic) {
  LossPair p;
  const double e = directed_ratio(1.0, lambda, pessimistic);
  // In long double, rounded once (the exponent reaches ~700: a double chain would lose ~1e-13 relatively).
  const long double lam = lambda;
  // exp of an argument below -11400 is 0 in long double (its smallest subnormal is 2^-16445 = e^-11398.8, and
  // e^-11400 is below half of it): returned directly, the same value without glibc's slow underflow path (with
  // a tiny b that path was most of a run's time).
  auto exp_or_zero = [](long double a) { return a < -11400.0L ? 0.0L : portable::exp(a); };
  auto cdf = [lam, exp_or_zero](long double x) {
    return static_cast<double>(x < 0 ? 0.5L * exp_or_zero(x / lam) : 1 - 0.5L * exp_or_zero(-x / lam));
  };
  p.survival_p = [=](double l) {
    if (l < -e) return 1.0;
    if (l >= e) return 0.0;
    return cdf((1 - lam * l) / 2);
  };
  p.survival_q = [=](double l) {
    if (l < -e) return 1.0;
    if (l >= e) return 0.0;
    return cdf((1 - lam * l) / 2 - 1);
  };
  p.support_lo = -e;
  p.support_hi = e;
  return p;
}

// Randomized response / the worst case of (eps, delta)-DP (Kairouz, Oh and Viswanath 2015, Thm 2.4): with
// probability delta the loss is +inf, else +-eps with P-probabilities e^eps/(1+e^eps) and 1/(1+e^eps). Exact.
LossPair randomized_response_pair(double eps, double delta) {
  LossPair p;
  const double hi_p = (1 - delta) * portable::exp(eps) / (1 + portable::exp(eps)), lo_p = (1 - delta) / (1 + portable::exp(eps));
  const double hi_q = lo_p, lo_q = hi_p;  // Q swaps the two outcomes; Q(L = +inf) = 0, Q has mass delta at -inf
  p.survival_p = [=](double l) { return l < -eps ? hi_p + lo_p : (l < eps ? hi_p : 0.0); };
  p.survival_q = [=](double l) { return l < -eps ? hi_q + lo_q : (l < eps ? hi_q : 0.0); };
  p.p_inf = delta;
  p.support_lo = -eps;
  p.support_hi = eps;
  return p;
}

// a/b rounded up or down (never to nearest: a nearest ratio may belong to a more private mechanism than the one
// typed); NotApplicable when it leaves the positive doubles.
double directed_ratio(double a, double b, bool up) {
  const Interval r = exact(a) / exact(b);
  const double v = up ? hi_up(r) : lo_down(r);
  if (!(v > 0) || !std::isfinite(v))
    throw NotApplicable("accountant 'pld': the ratio " + format_upper(r, 6) + " of the mechanism's parameters is "
                        "outside the range of doubles; use rdp or auto");
  return v;
}

// noise/sens (a noise multiplier, or a Laplace scale per unit of sensitivity): rounded down when `pessimistic`
// (less noise, more privacy loss), up otherwise.
double noise_ratio(double noise, double sens, bool pessimistic) { return directed_ratio(noise, sens, !pessimistic); }
// sens/noise (the Gaussian's mu): rounded up when `pessimistic`, down otherwise.
double sensitivity_ratio(double sens, double noise, bool pessimistic) { return directed_ratio(sens, noise, pessimistic); }

}  // namespace

void survivals_from_both(LossPair& p) {
  p.survival_p = [both = p.survival_both](double l) {
    double sp = 0, sq = 0;
    both(l, sp, sq);
    return sp;
  };
  p.survival_q = [both = p.survival_both](double l) {
    double sp = 0, sq = 0;
    both(l, sp, sq);
    return sq;
  };
}

bool symmetric_pair(const LedgerEntry& e) {
  if (has_extended_pair(e)) return extended_symmetric_pair(e);
  return !(e.subsampled() && e.q < 1) || e.sampling == Sampling::poisson_replace_one;
}

LossPair loss_pair(const LedgerEntry& e, PairDirection d, bool pessimistic) {
  if (has_extended_pair(e)) return extended_loss_pair(e, d);
  const Mechanism& m = e.mechanism;
  const bool sampled = e.subsampled() && e.q < 1;
  if (m.kind == MechanismKind::iteration)
    throw NotApplicable("accountant 'pld' does not apply to the iteration mechanism (only its last iterate is "
                        "released); use rdp or auto");
  if (sampled) {
    if (e.sampling == Sampling::wor)
      throw NotApplicable("accountant 'pld': sampling=wor is not supported yet; use rdp or auto");
    if (m.kind != MechanismKind::gaussian)
      throw NotApplicable("accountant 'pld': Poisson subsampling of " + to_string(m.kind) +
                          " is not supported yet (only of gaussian); use rdp, advanced or auto");
    // The noise multiplier: less noise is more loss.
    const double z = noise_ratio(m.sigma, m.sens, pessimistic);
    if (e.sampling == Sampling::poisson_replace_one) return subsampled_gaussian_replace_one(e.q, z);
    return d == PairDirection::remove ? subsampled_gaussian_remove(e.q, z) : subsampled_gaussian_add(e.q, z, pessimistic);
  }
  switch (m.kind) {
    case MechanismKind::gaussian: return gaussian_pair(sensitivity_ratio(m.sens, m.sigma, pessimistic));
    case MechanismKind::laplace: return laplace_pair(noise_ratio(m.b, m.sens, pessimistic), pessimistic);
    case MechanismKind::rr:
    case MechanismKind::pure: return randomized_response_pair(m.eps, 0.0);
    case MechanismKind::approx: return randomized_response_pair(m.eps, m.delta);
    default: break;
  }
  throw std::logic_error("internal: loss_pair");
}

}  // namespace dpl
