#include "accounting/mechanisms/analytic_gaussian.h"

#include "accounting/numeric/log_space.h"

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

EpsilonSearch analytic_gaussian_epsilon(const Interval& mu, double delta) {
  // A feasible start from the Gaussian tail: delta(eps) <= P(L > eps), L ~ N(mu^2/2, mu^2) (upper bound).
  const double m = mid_double(mu);
  const double start = m * m / 2 + m * std::sqrt(2 * std::log(1 / delta)) + 1e-3;
  return smallest_epsilon([&](const Real& eps) { return analytic_gaussian_delta(mu, make_interval(eps, eps)); },
                          Real(delta), Real(start), Real("1e-25"));
}

std::optional<Interval> composed_gaussian_mu(const Ledger& ledger) {
  Interval mu2 = exact(0.0);
  for (const auto& e : ledger) {
    if (e.mechanism.kind != MechanismKind::gaussian || e.q != 1.0) return std::nullopt;
    const Interval r = exact(e.mechanism.sens) / exact(e.mechanism.sigma);
    mu2 += exact_int(e.steps) * r * r;
  }
  return sqrt(mu2);
}

}  // namespace dpl
