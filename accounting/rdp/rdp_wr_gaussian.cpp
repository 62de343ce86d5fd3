// SPDX-License-Identifier: Apache-2.0
#include "accounting/rdp/rdp_wr_gaussian.h"

#include "accounting/numeric/log_space.h"
#include "accounting/numeric/portable_math.h"

#include <cmath>
#include <limits>

namespace dpl {

namespace {
// Terms whose double estimate lies this far below the largest are bounded together instead of enclosed one by one
// (the estimates are within 0.1 of the exact logs: recursions of at most 1e6 steps of relative error 1e-16 on
// values of magnitude below 1e8).
constexpr double kDropBelow = 60;
}  // namespace

WrGaussianRdp::WrGaussianRdp(double sigma, double sens, std::int64_t m, std::int64_t n)
    : sigma_(sigma), sens_(sens), m_(m), n_(n), log_pmf_(static_cast<std::size_t>(m + 1)) {
  // log P[K = k] by the ratio (m - k)/(k + 1) / (n - 1) from log P[K = 0] = m log(1 - 1/n); n = 1: K = m.
  if (n == 1) {
    for (auto& v : log_pmf_) v = -std::numeric_limits<double>::infinity();
    log_pmf_.back() = 0;
    return;
  }
  log_pmf_[0] = static_cast<double>(m) * portable::binary64::log1p(-1.0 / static_cast<double>(n));
  for (std::int64_t k = 0; k < m; ++k)
    log_pmf_[static_cast<std::size_t>(k + 1)] = log_pmf_[static_cast<std::size_t>(k)] +
                                                 portable::binary64::log(static_cast<double>(m - k) / static_cast<double>(k + 1)) -
                                                 portable::binary64::log(static_cast<double>(n - 1));
}

// (1/(a-1)) log sum_k P[K=k] e^{(a-1) a k^2 mu^2/2} (header): the terms within kDropBelow of the largest (by the
// double estimates) enclosed in MPFI, the others bounded by (their count) e^{largest enclosed - kDropBelow + 1}.
// Upper bound.
Interval WrGaussianRdp::at(const Real& alpha) const {
  const Interval a = make_interval(alpha, alpha), mu = exact(sens_) / exact(sigma_);
  const Interval c = (a - 1) * a * mu * mu / 2;
  const double cd = mid_double(c);
  double best = -std::numeric_limits<double>::infinity();
  for (std::int64_t k = 0; k <= m_; ++k) {
    const double kd = static_cast<double>(k);
    best = std::max(best, log_pmf_[static_cast<std::size_t>(k)] + cd * kd * kd);
  }
  Interval s = negative_infinity();
  std::int64_t dropped = 0;
  for (std::int64_t k = 0; k <= m_; ++k) {
    const double kd = static_cast<double>(k), est = log_pmf_[static_cast<std::size_t>(k)] + cd * kd * kd;
    if (est == -std::numeric_limits<double>::infinity()) continue;
    if (est < best - kDropBelow) {
      ++dropped;
      continue;
    }
    // log P[K = k] = log C(m, k) - k log n + (m - k) log(1 - 1/n), with 1/n exact.
    const Interval nn = exact_int(n_);
    const Interval lp = n_ == 1 ? exact(0.0) : log_binomial(m_, k) - exact_int(k) * log(nn) + exact_int(m_ - k) * log1p(-1 / nn);
    s = log_add_exp(s, lp + c * exact_int(k) * exact_int(k));
  }
  if (dropped > 0) {
    const Interval rest = log(exact_int(dropped)) + make_interval(hi(s), hi(s)) - (kDropBelow - 1);
    s = log_add_exp(s, rest);
  }
  return s / (a - 1);
}

Interval WrGaussianRdp::at_infinity() const { return positive_infinity(); }

double WrGaussianRdp::estimate(double alpha) const {
  const double mu = sens_ / sigma_, c = (alpha - 1) * alpha * mu * mu / 2;
  double best = -std::numeric_limits<double>::infinity();
  for (std::int64_t k = 0; k <= m_; ++k) {
    const double kd = static_cast<double>(k);
    best = std::max(best, log_pmf_[static_cast<std::size_t>(k)] + c * kd * kd);
  }
  double s = 0;
  for (std::int64_t k = 0; k <= m_; ++k) {
    const double kd = static_cast<double>(k);
    s += portable::binary64::exp(log_pmf_[static_cast<std::size_t>(k)] + c * kd * kd - best);
  }
  return (best + portable::binary64::log(s)) / (alpha - 1);
}

}  // namespace dpl
