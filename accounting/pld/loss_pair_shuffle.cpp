// SPDX-License-Identifier: Apache-2.0
#include "accounting/pld/loss_pair_shuffle.h"

#include "accounting/numeric/portable_math.h"
#include "accounting/errors.h"
#include "accounting/numeric/double_word.h"
#include "accounting/numeric/interval.h"
#include "accounting/numeric/log_space.h"
#include "accounting/pld/loss_pair_atoms.h"

#include <cmath>
#include <mutex>
#include <optional>
#include <tuple>

namespace dpl {

namespace {

constexpr double kTail = 1e-32;        // each truncated tail (of C, and of every b_c)
constexpr double kMaxAtoms = 1.2e8;    // about 3 s of enumeration

// Chernoff: P[C >= k] <= e^{-N KL(k/N || p)} for k >= N p, P[C <= k] likewise for k <= N p, with
// KL(a || p) = a log(a/p) + (1 - a) log((1 - a)/(1 - p)), log p = -eps0, log(1 - p) = log(1 - e^{-eps0}).
// Enclosure of the bound (0 <= k <= N).
Interval chernoff(std::int64_t n, std::int64_t k, double eps0) {
  if (n == 0) return exact(0.0);
  const Interval a = exact_int(k) / exact_int(n), e = exact(eps0);
  const Interval log_p = -e, log_1mp = log1mexp(-e);
  Interval kl = exact(0.0);
  if (k > 0) kl += a * (log(a) - log_p);
  if (k < n) kl += (1 - a) * (log1p(-a) - log_1mp);
  return exp(-exact_int(n) * kl);
}

double chernoff_estimate(std::int64_t n, double k, double p) {
  const double a = k / static_cast<double>(n);
  double kl = 0;
  if (a > 0) kl += a * portable::log(a / p);
  if (a < 1) kl += (1 - a) * portable::log((1 - a) / (1 - p));
  return -static_cast<double>(n) * kl;  // log of the bound
}

// DW ratio num/den of integers below 2^53: the quotient and its remainder (exact by fma) divided again.
DoubleWord ratio(double num, double den) {
  const double h = num / den;
  const double l = std::fma(-h, den, num) / den;
  return DoubleWord(h, l);
}

LossPair build(double eps0, std::int64_t n) {
  const std::int64_t N = n - 1;  // the other users
  const double p = portable::exp(-eps0);
  const double mean = static_cast<double>(N) * p;
  const double log_tail = portable::log(kTail);
  // The range of C: the first k on each side of the mean whose Chernoff bound is below kTail (by doubling the
  // distance, then bisection; the bound is then certified).
  auto find = [&](int side) -> std::int64_t {
    const double limit = side > 0 ? static_cast<double>(N) : 0.0;
    if (N == 0) return 0;
    double d = 1;
    while (true) {
      const double k = side > 0 ? std::min(limit, std::ceil(mean + d)) : std::max(limit, std::floor(mean - d));
      if (k == limit || chernoff_estimate(N, k, p) < log_tail - 1) {
        double lo = 0, hi = d;
        for (int it = 0; it < 60 && hi - lo > 0.5; ++it) {
          const double m = (lo + hi) / 2;
          const double km = side > 0 ? std::min(limit, std::ceil(mean + m)) : std::max(limit, std::floor(mean - m));
          if (km == limit || chernoff_estimate(N, km, p) < log_tail - 1) hi = m;
          else lo = m;
        }
        return static_cast<std::int64_t>(side > 0 ? std::min(limit, std::ceil(mean + hi)) : std::max(limit, std::floor(mean - hi)));
      }
      d *= 2;
    }
  };
  const std::int64_t c_hi = find(+1), c_lo = find(-1);
  // Certified tails beyond the range: P[C > c_hi] <= P[C >= c_hi + 1], P[C < c_lo] <= P[C <= c_lo - 1].
  const Real tail_hi = c_hi >= N ? Real(0) : hi(chernoff(N, c_hi + 1, eps0));
  const Real tail_lo = c_lo <= 0 ? Real(0) : hi(chernoff(N, c_lo - 1, eps0));
  const long double em = portable::exp(-static_cast<long double>(eps0));
  const long double alpha = 1 / (1 + em), beta = em / (1 + em);
  const double alpha_d = static_cast<double>(alpha), beta_d = static_cast<double>(beta);
  const double hoeffding = portable::log(2 / kTail) / 2;  // t_c = sqrt(c hoeffding): P[|X - c/2| >= t_c] <= kTail
  const double per_c = 2 * std::sqrt(static_cast<double>(c_hi) * hoeffding) + 4;
  const double count = (static_cast<double>(c_hi - c_lo) + 1) * per_c;
  if (count > kMaxAtoms)
    throw NotApplicable("accountant 'pld': shuffle with n = " + std::to_string(n) + " and eps0 = " +
                        std::to_string(eps0) + " needs " + std::to_string(static_cast<long long>(count)) +
                        " atoms (limit 1.2e8); use pure, or a smaller n (a bound for fewer users is a bound for more)");

  const long double odds = 1 / portable::expm1(static_cast<long double>(eps0));  // p/(1 - p)
  // The loss grows as x/(c + 1) falls; over the enumerated atoms x/(c + 1) spreads most at the smallest c
  // ((c/2 -+ sqrt(c h))/(c + 1) moves towards 1/2 as c grows), up to the rounding of the range ends to integers:
  // one more integer on each side bounds every atom's loss.
  auto loss_at = [&](double c, double x) {
    const double u = c + 1 - x;
    return portable::log((alpha_d * u + beta_d * x) / (alpha_d * x + beta_d * u));
  };
  const double c0 = static_cast<double>(c_lo), t0 = std::sqrt(c0 * hoeffding);
  const double l_hi = std::min(eps0, loss_at(c0, std::max(0.0, std::ceil(c0 / 2 - t0) - 1)) + 1e-9);
  const double l_lo = std::max(-eps0, loss_at(c0, std::min(c0 + 1, std::floor(c0 / 2 + t0) + 2)) - 1e-9);
  LossAtoms atoms(std::min(l_lo, -1e-9) - 1e-9, std::max(l_hi, 1e-9) + 1e-9, count);
  long double w = 0, bmid = 0;
  std::vector<long double> b;
  for (std::int64_t c = c_lo; c <= c_hi; ++c) {
    const std::int64_t xm = c / 2;
    if ((c - c_lo) % 64 == 0) {
      // Anchors in MPFI: w_c = C(N, c) p^c (1 - p)^{N - c}, b_c(c/2) = C(c, c/2) 2^{-c}.
      const Interval e = exact(eps0);
      w = static_cast<long double>(mid(exp(log_binomial(N, c) - exact_int(c) * e + exact_int(N - c) * log1mexp(-e))).convert_to<long double>());
      bmid = mid(exp(log_binomial(c, xm) - exact_int(c) * log2())).convert_to<long double>();
    } else {
      // From c - 1 (at most 63 steps from an anchor, 2 roundings each: relative error < 1.4e-17):
      // w_c = w_{c-1} (N - c + 1)/c p/(1 - p); b_c(xm) from b_{c-1}(xm') with xm' = (c - 1)/2 rounded down.
      w *= static_cast<long double>(N - c + 1) / static_cast<long double>(c) * odds;
      const std::int64_t xp = (c - 1) / 2;
      bmid *= xm == xp ? static_cast<long double>(c) / (2 * static_cast<long double>(c - xp))
                       : static_cast<long double>(c) / (2 * static_cast<long double>(xp + 1));
    }
    const double t = std::sqrt(static_cast<double>(c) * hoeffding);
    const std::int64_t x_lo = std::max<std::int64_t>(0, static_cast<std::int64_t>(std::ceil(static_cast<double>(c) / 2 - t)));
    const std::int64_t x_hi = std::min<std::int64_t>(c, static_cast<std::int64_t>(std::floor(static_cast<double>(c) / 2 + t)));
    // b_c(x) for x in [x_lo - 1, x_hi + 1] (0 outside [0, c]), by double-word ratios from xm outwards (relative error
    // below 1e-27 after thousands of steps; rounded once to long double).
    const std::int64_t b0 = x_lo - 1;
    b.assign(static_cast<std::size_t>(x_hi - x_lo + 3), 0.0L);
    DoubleWord v(bmid);
    for (std::int64_t x = xm;; ++x) {
      if (x >= b0 && x <= x_hi + 1) b[static_cast<std::size_t>(x - b0)] = static_cast<long double>(v);
      if (x >= std::min(c, x_hi + 1)) break;
      v = v * ratio(static_cast<double>(c - x), static_cast<double>(x + 1));  // b(x + 1)/b(x)
    }
    v = DoubleWord(bmid);
    for (std::int64_t x = xm; x > std::max<std::int64_t>(0, b0);) {
      v = v * ratio(static_cast<double>(x), static_cast<double>(c - x + 1));  // b(x - 1)/b(x)
      --x;
      if (x >= b0 && x <= x_hi + 1) b[static_cast<std::size_t>(x - b0)] = static_cast<long double>(v);
    }
    auto at = [&](std::int64_t x) { return x < 0 || x > c ? 0.0L : b[static_cast<std::size_t>(x - b0)]; };
    for (std::int64_t x = x_lo; x <= x_hi + 1; ++x) {
      const double mass = static_cast<double>(w * (alpha * at(x) + beta * at(x - 1)));
      const double u = static_cast<double>(c + 1 - x), xd = static_cast<double>(x);
      // The loss in double: num and den to 2 ulps, the quotient and log to 1 ulp each.
      const double l = portable::log((alpha_d * u + beta_d * xd) / (alpha_d * xd + beta_d * u));
      atoms.add(l, 1e-15 * (1 + std::fabs(l)), mass);
    }
  }
  const double dropped = (tail_hi + tail_lo + Real(kTail)).convert_to<double>() * (1 + 1e-6);
  return atoms.finish(dropped);
}

}  // namespace

LossPair shuffle_pair(double eps0, std::int64_t n) {
  // The last pair built, reused: the PLD accountant asks for the same pair on its probe, fine and lower passes.
  // Built under the lock: a second thread asking for the same pair waits for it instead of building it again.
  static std::mutex mutex;
  static std::optional<std::tuple<double, std::int64_t, LossPair>> last;
  const std::lock_guard<std::mutex> lock(mutex);
  if (last && std::get<0>(*last) == eps0 && std::get<1>(*last) == n) return std::get<2>(*last);
  LossPair p = build(eps0, n);
  last.emplace(eps0, n, p);
  return p;
}

}  // namespace dpl
