// SPDX-License-Identifier: Apache-2.0
#include "audit/one_run_bound.h"

#include "accounting/errors.h"
#include "accounting/numeric/interval.h"
#include "accounting/numeric/log_space.h"
#include "accounting/numeric/portable_distributions.h"
#include "accounting/numeric/portable_math.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace dpl::audit {

namespace {

void check(const OneRunGuesses& g, double delta, double significance) {
  if (g.m < 1) throw InputError("one-run audit: no canaries (m=0): allowed m >= 1");
  if (g.r > g.m || g.v > g.r)
    throw InputError("one-run audit: counts out of range (m=" + std::to_string(g.m) + ", guesses=" + std::to_string(g.r) +
                     ", correct=" + std::to_string(g.v) + "): allowed correct <= guesses <= canaries");
  if (!(delta >= 0 && delta < 1)) throw InputError("--delta=" + std::to_string(delta) + " is out of range: allowed [0, 1)");
  if (!(significance > 0 && significance < 1))
    throw InputError("one-run audit: significance " + std::to_string(significance) + " is out of range: allowed (0, 1)");
}

double log_pmf(double r, double j, double log_q, double log_1mq) {
  return portable::log_gamma(r + 1) - portable::log_gamma(j + 1) - portable::log_gamma(r - j + 1) + j * log_q + (r - j) * log_1mq;
}

// Terms below this fraction of the running sum (past the mode) end a binary64 sum; the rest is below 1e-20 of it.
constexpr double kNegligible = 1e-22;

}  // namespace

// Theorem 3.1 of Steinke, Nasr and Jagielski 2023 (upper bound on P[W >= v]), binary64 estimate.
double one_run_p_value_estimate(const OneRunGuesses& g, double epsilon, double delta) {
  if (g.v == 0) return 1.0;
  const double r = static_cast<double>(g.r), v = static_cast<double>(g.v);
  const double log_q = -portable::binary64::log1p(portable::binary64::exp(-epsilon)), log_1mq = -portable::binary64::log1p(portable::binary64::exp(epsilon));
  const double odds = portable::binary64::exp(epsilon);  // q / (1 - q)
  const double mode = std::floor((r + 1) / (1 + portable::binary64::exp(-epsilon)));
  // beta = P[B >= v]: terms relative to the largest one in [v, r], at max(v, mode).
  const double top = std::min(r, std::max(v, mode));
  const double log_top = log_pmf(r, top, log_q, log_1mq);
  double sum = 0, t = 1;
  for (double j = top; j <= r; ++j) {  // upward from the largest term: decreasing
    sum += t;
    if (t < kNegligible * sum) break;
    t *= (r - j) / (j + 1) * odds;
  }
  t = 1;
  for (double j = top; j > v; --j) {  // downward to v
    t *= j / ((r - j + 1) * odds);
    sum += t;
    if (t < kNegligible * sum) break;
  }
  const double beta = portable::binary64::exp(log_top) * sum;
  if (delta == 0) return std::min(1.0, beta);
  // alpha = max_i P[v - i <= B < v] / i: terms relative to the largest in [0, v - 1], at min(v - 1, mode).
  const double peak = std::min(v - 1, mode);
  const double log_peak = log_pmf(r, peak, log_q, log_1mq);
  t = portable::binary64::exp(log_pmf(r, v - 1, log_q, log_1mq) - log_peak);
  double s = 0, alpha = 0;
  for (double j = v - 1, i = 1; j >= 0; --j, ++i) {
    s += t;
    alpha = std::max(alpha, s / i);
    if (j < peak && t < kNegligible * s) break;
    t *= j / ((r - j + 1) * odds);
  }
  alpha *= portable::binary64::exp(log_peak);
  return std::min(1.0, beta + 2 * static_cast<double>(g.m) * delta * alpha);
}

// The same bound, certified: every term encloses the exact one; the sums' truncated tails are bounded by geometric
// series (the ratio of consecutive terms is monotone past the mode), and the upper end is returned.
double one_run_p_value_upper(const OneRunGuesses& g, double epsilon, double delta) {
  if (g.v == 0) return 1.0;
  const std::int64_t r = static_cast<std::int64_t>(g.r), v = static_cast<std::int64_t>(g.v);
  const Interval eps = exact(epsilon);
  const Interval E = exp(eps);                          // q / (1 - q)
  const Interval log_q = -log1p(exp(-eps)), log_1mq = -log1p(E);
  auto log_pmf_i = [&](std::int64_t j) { return log_binomial(r, j) + exact_int(j) * log_q + exact_int(r - j) * log_1mq; };
  const Interval tiny = exact(1e-40);
  // beta = P[B >= v]: terms relative to t_v = 1.
  Interval sum = exact(0), t = exact(1);
  for (std::int64_t j = v; j <= r; ++j) {
    sum += t;
    if (j == r) break;
    const Interval ratio = exact_int(r - j) / exact_int(j + 1) * E;
    if (certainly_lt(ratio, exact(1)) && certainly_lt(t, tiny * sum)) {
      // Every later ratio is smaller: the rest is at most t ratio / (1 - ratio).
      sum += make_interval(Real(0), hi(t * ratio / (exact(1) - ratio)));
      break;
    }
    t *= ratio;
  }
  const Interval log_tv = log_pmf_i(v);
  const Real beta = hi(exp(log_tv) * sum);
  if (delta == 0) return std::min(1.0, hi_up(make_interval(beta, beta)));
  // alpha = max_i S_i / i, S_i = sum_{j = v - i}^{v - 1} P[B = j]: terms relative to t_{v-1} = 1.
  Interval s = exact(0);
  t = exact(1);
  Real alpha(0);
  for (std::int64_t j = v - 1, i = 1; j >= 0; --j, ++i) {
    s += t;
    alpha = std::max(alpha, hi(s / exact_int(i)));
    if (j == 0) break;
    const Interval ratio = exact_int(j) / (exact_int(r - j + 1) * E);  // t_{j-1} / t_j
    if (certainly_lt(ratio, exact(1)) && certainly_lt(t, tiny * s)) {
      // Later ratios are smaller: S_{i'} <= S_i + t ratio / (1 - ratio) for every i' > i, divided by i' >= i + 1.
      alpha = std::max(alpha, hi((s + t * ratio / (exact(1) - ratio)) / exact_int(i + 1)));
      break;
    }
    t *= ratio;
  }
  const Interval alpha_abs = exp(log_pmf_i(v - 1)) * make_interval(Real(0), alpha);
  const Interval p = make_interval(Real(0), beta) + exact_int(2 * static_cast<std::int64_t>(g.m)) * exact(delta) * alpha_abs;
  return std::min(1.0, hi_up(p));
}

namespace {

// sup{eps : p(eps) <= significance} by doubling and bisection on p (increasing in eps); 0 if p(0) > significance.
template <class P>
double search_epsilon(const P& p, double significance) {
  if (p(0.0) > significance) return 0.0;
  double lo = 0, hi = 1;
  while (p(hi) <= significance) {
    lo = hi;
    hi *= 2;
    if (hi > 1e6) return lo;  // every eps up to 1e6 rejected: report the last certified one
  }
  for (int k = 0; k < 200 && hi - lo > 1e-10 * std::max(1.0, lo); ++k) {
    const double mid = 0.5 * (lo + hi);
    (p(mid) <= significance ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace

double one_run_epsilon_estimate(const OneRunGuesses& g, double delta, double significance) {
  check(g, delta, significance);
  return search_epsilon([&](double e) { return one_run_p_value_estimate(g, e, delta); }, significance);
}

double one_run_epsilon_lower(const OneRunGuesses& g, double delta, double significance) {
  const double estimate = one_run_epsilon_estimate(g, delta, significance);
  if (!(estimate > 0)) return 0.0;
  // Move down from the binary64 estimate until the certified bound rejects (usually at once).
  for (double step = 1e-9 * std::max(1.0, estimate); step < estimate; step *= 8) {
    const double e = std::max(0.0, estimate - step);
    if (one_run_p_value_upper(g, e, delta) <= significance) return e;
  }
  return 0.0;
}

namespace {

// Balle and Wang 2018, Thm 8: delta of the Gaussian mechanism with mu at eps (binary64, log form of the difference).
double gaussian_delta(double mu, double eps) {
  const double a = mu / 2 - eps / mu, b = -mu / 2 - eps / mu;
  const double pa = portable::normal_cdf(a), pb = portable::normal_cdf(b);
  if (!(pa > 0)) return 0.0;
  if (!(pb > 0)) return pa;
  return -pa * portable::binary64::expm1(eps + portable::binary64::log(pb) - portable::binary64::log(pa));
}

}  // namespace

double gaussian_mu_for(double epsilon, double delta) {
  if (!(delta > 0 && delta < 1)) throw InputError("one-run-fdp: --delta must be in (0, 1)");
  double lo = 0, hi = 1;
  while (gaussian_delta(hi, epsilon) < delta) {
    lo = hi;
    hi *= 2;
    if (hi > 1e8) return INFINITY;
  }
  for (int k = 0; k < 200 && hi - lo > 1e-13 * hi; ++k) {
    const double mid = 0.5 * (lo + hi);
    (gaussian_delta(mid, epsilon) < delta ? lo : hi) = mid;
  }
  return hi * (1 + 1e-12);
}

// Mahloujifar, Melis and Chaudhuri 2024: starting from r = tau v / m and h = tau (k - v) / m, the recursion raises h
// to the curve's inverse blow-up of r and r by i / (k - i) of h's increase, for i = v - 1 down to 0; the curve is
// rejected when r + h exceeds k / m. Rounded down (values) and up (mu) so that rounding never rejects.
bool one_run_fdp_rejects(const OneRunGuesses& g, double epsilon, double delta, double significance) {
  check(g, delta, significance);
  if (g.v == 0) return false;
  const double mu = gaussian_mu_for(epsilon, delta);
  if (!std::isfinite(mu)) return false;
  const double m = static_cast<double>(g.m), k = static_cast<double>(g.r);
  const double down = 1 - 4e-16;
  auto blow_up_inverse = [&](double x) {  // Phi(Phi^{-1}(x) - mu), rounded down
    if (!(x > 0)) return 0.0;
    if (!(x < 1)) return 1.0;
    return std::max(0.0, portable::normal_cdf(portable::normal_quantile(x) - mu) * (1 - 1e-12));
  };
  double r = significance * static_cast<double>(g.v) / m * down;
  double h = significance * (k - static_cast<double>(g.v)) / m * down;
  for (std::int64_t i = static_cast<std::int64_t>(g.v) - 1; i >= 0; --i) {
    const double h_new = std::max(h, blow_up_inverse(r));
    if (h_new == h) break;
    const double di = static_cast<double>(i);
    const double r_new = std::min(1.0, (r + di / (k - di) * (h_new - h)) * down);
    h = h_new;
    r = r_new;
  }
  return (r + h) * down > k / m * (1 + 1e-12);
}

double one_run_fdp_epsilon(const OneRunGuesses& g, double delta, double significance) {
  check(g, delta, significance);
  if (!one_run_fdp_rejects(g, 0.0, delta, significance)) return 0.0;
  double lo = 0, hi = 1;
  while (one_run_fdp_rejects(g, hi, delta, significance)) {
    lo = hi;
    hi *= 2;
    if (hi > 1e3) return lo;
  }
  while (hi - lo > 1e-9) {
    const double mid = 0.5 * (lo + hi);
    (one_run_fdp_rejects(g, mid, delta, significance) ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace dpl::audit
