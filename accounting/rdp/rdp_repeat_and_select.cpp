// SPDX-License-Identifier: Apache-2.0
#include "accounting/rdp/rdp_repeat_and_select.h"

#include "accounting/errors.h"
#include "accounting/numeric/decimal.h"
#include "accounting/numeric/infinity.h"
#include "accounting/numeric/portable_math.h"
#include "accounting/rdp/rdp_conversion.h"

#include <cmath>
#include <limits>

namespace dpl {

namespace {

// E[K] of the truncated negative binomial (Papernot-Steinke 2022, Def. 1), an enclosure: eta (1 - g)/(g (1 - g^eta))
// for eta > 0 (1 - g^eta = -expm1(eta log g)), (1 - g)/(g log(1/g)) for eta = 0.
Interval tnb_mean(double gamma, double eta) {
  const Interval g = exact(gamma);
  if (eta == 0) return (1 - g) / (g * -log(g));
  const Interval e = exact(eta);
  return e * (1 - g) / (g * -expm1(e * log(g)));
}

// Minimises f over orders 1 + 10^x, x in [-4, 4], by a scan and a golden-section refinement (float64; any order
// gives a valid bound).
template <typename F>
double minimise_order(F f) {
  double best_x = -4, best = kInf;
  for (int k = 0; k <= 64; ++k) {
    const double x = -4 + 0.125 * k, v = f(1 + portable::pow(10.0, x));
    if (v < best) best = v, best_x = x;
  }
  double a = best_x - 0.125, b = best_x + 0.125;
  const double g = (std::sqrt(5.0) - 1) / 2;
  double c = b - g * (b - a), d = a + g * (b - a), fc = f(1 + portable::pow(10.0, c)), fd = f(1 + portable::pow(10.0, d));
  for (int it = 0; it < 40; ++it) {
    if (fc <= fd) {
      b = d, d = c, fd = fc;
      c = b - g * (b - a), fc = f(1 + portable::pow(10.0, c));
    } else {
      a = c, c = d, fc = fd;
      d = a + g * (b - a), fd = f(1 + portable::pow(10.0, d));
    }
  }
  const double x = fc <= fd ? c : d;
  return std::min(fc, fd) <= best ? 1 + portable::pow(10.0, x) : 1 + portable::pow(10.0, best_x);
}

// log(1 + 1/(l - 1)) rounded down (a smaller eh keeps the theorem's condition e^eh <= 1 + 1/(l - 1)).
double eps_hat(const Real& alpha) { return lo_down(log1p(1 / (make_interval(alpha, alpha) - 1))); }

}  // namespace

double RepeatAndSelectRdp::gamma_lower(double mean, double shape) {
  if (shape == 1) {
    // Geometric: E[K] = 1/gamma; gamma = 1/mean rounded down.
    const double g = lo_down(exact(1.0) / exact(mean));
    return g;
  }
  // Bisection on log gamma: `lo` always has a certified mean >= mean, `hi` not.
  double lo = 1e-300, hi = 1;
  if (lo_down(tnb_mean(lo, shape)) < mean)
    throw InputError("select: no truncated negative binomial with shape " + format_input(shape) + " has mean " +
                     format_input(mean) + " (gamma would be below 1e-300)");
  for (int it = 0; it < 200 && hi - lo > lo * 1e-15; ++it) {
    const double m = std::sqrt(lo * hi);
    const double mid = m > lo && m < hi ? m : (lo + hi) / 2;
    if (mid <= lo || mid >= hi) break;
    if (lo_down(tnb_mean(mid, shape)) >= mean) lo = mid;
    else hi = mid;
  }
  return lo;
}

RepeatAndSelectRdp::RepeatAndSelectRdp(const Ledger& run, double mean, double shape)
    : run_(run), mean_(mean), shape_(shape) {
  if (std::isinf(shape)) return;
  if (mean == 1) {
    // The truncated negative binomial of mean 1 is K = 1 (gamma = 1): one run, whose RDP it is exactly.
    gamma_ = 1;
    lhat_ = 1;
    constant_ = exact(0.0);
    constant_estimate_ = 0;
    return;
  }
  gamma_ = mean == 1 ? 1.0 : gamma_lower(mean, shape);
  const double log_inv_gamma = -portable::binary64::log(gamma_);
  auto middle = [&](double lh) {
    const double r = run_.estimate(lh);
    return std::isfinite(r) ? (1 - 1 / lh) * r + log_inv_gamma / lh : kInf;
  };
  lhat_ = minimise_order(middle);
  const Interval lh = exact(lhat_), r = run_.at(Real(lhat_));
  // Papernot-Steinke 2022, Thm 2: (1 + eta)((1 - 1/lh) eps(lh) + log(1/gamma)/lh). Upper bound.
  constant_ = (1 + exact(shape)) * ((1 - 1 / lh) * r - log(exact(gamma_)) / lh);
  constant_estimate_ = (1 + shape) * middle(lhat_);
}

double RepeatAndSelectRdp::poisson_delta_estimate(double alpha) const {
  const double eh = portable::binary64::log1p(1 / (alpha - 1)), beta = best_rdp_order(run_, Target::for_epsilon(eh));
  const double r = run_.estimate(beta);
  return std::isfinite(r) ? portable::binary64::exp(rdp_to_log_delta_estimate(r, beta, eh)) : 1.0;
}

Interval RepeatAndSelectRdp::at(const Real& alpha) const {
  const Interval a = make_interval(alpha, alpha), m = exact(mean_);
  const Interval base = run_.at(alpha);
  if (!is_finite(base)) return positive_infinity();
  if (std::isinf(shape_)) {
    // Papernot-Steinke 2022, Thm 6: eps(l) + E[K] dh + log(E[K])/(l - 1). Upper bound.
    const double eh = eps_hat(alpha);
    const double beta = best_rdp_order(run_, Target::for_epsilon(eh));
    const Interval dh = rdp_to_delta(run_.at(Real(beta)), Real(beta), eh);
    return base + m * dh + log(m) / (a - 1);
  }
  // Papernot-Steinke 2022, Thm 2 (header). Upper bound.
  if (!is_finite(constant_)) return positive_infinity();
  return base + constant_ + log(m) / (a - 1);
}

// Papernot-Steinke 2022, Thm 2 as lambda and lambda-hat grow (the log terms vanish): an eps-DP run repeated
// K ~ TNB(gamma, eta) times is (2 + eta) eps-DP (their Cor. for pure DP); K = 1 (mean 1) is the run itself. Upper
// bound; infinite for the Poisson distribution (no pure bound).
Interval RepeatAndSelectRdp::at_infinity() const {
  if (std::isinf(shape_)) return positive_infinity();
  const Interval base = run_.at_infinity();
  if (!is_finite(base)) return positive_infinity();
  if (mean_ == 1) return base;
  return (2 + exact(shape_)) * base;
}

double RepeatAndSelectRdp::estimate(double alpha) const {
  const double base = run_.estimate(alpha);
  if (!std::isfinite(base)) return kInf;
  if (std::isinf(shape_)) return base + mean_ * poisson_delta_estimate(alpha) + portable::binary64::log(mean_) / (alpha - 1);
  return base + constant_estimate_ + portable::binary64::log(mean_) / (alpha - 1);
}

}  // namespace dpl
