// SPDX-License-Identifier: Apache-2.0
#include "accounting/rdp/alternating_moment_sum.h"

#include <array>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace dpl {

namespace {

constexpr int kMaxTerms = 20;

// The integer coefficients of Cohen, Rodriguez Villegas and Zagier 2000, Prop. 1, for n terms: the shifted Chebyshev
// polynomial P(x) = T_n(1 - 2x) by T_0 = 1, T_1 = 1 - 2x, T_{m+1} = 2 (1 - 2x) T_m - T_{m-1} (integer coefficients, at
// most 2.2e14 in magnitude for n = 20), d = P(-1) = T_n(3), and (d - P(x))/(1 + x) = sum e_k x^k by synthetic division
// (e_0 = d - p_0, e_k = -p_k - e_{k-1}). All exact in int64 and below 2^53, so exact as doubles.
struct Coefficients {
  std::array<double, kMaxTerms> e{};
  double d = 0;
};

constexpr Coefficients make_coefficients(int n) {
  std::int64_t t0[kMaxTerms + 1] = {1}, t1[kMaxTerms + 1] = {1, -2}, next[kMaxTerms + 1] = {};
  for (int m = 1; m < n; ++m) {
    for (int j = 0; j <= kMaxTerms; ++j) next[j] = 0;
    for (int j = 0; j <= m; ++j) {
      next[j] += 2 * t1[j];
      next[j + 1] += -4 * t1[j];
    }
    for (int j = 0; j < m; ++j) next[j] -= t0[j];
    for (int j = 0; j <= kMaxTerms; ++j) t0[j] = t1[j], t1[j] = next[j];
  }
  std::int64_t d = 0;
  for (int j = 0; j <= n; ++j) d += (j % 2 == 0 ? 1 : -1) * t1[j];
  Coefficients c;
  std::int64_t prev = 0;
  for (int k = 0; k < n; ++k) {
    const std::int64_t delta = k == 0 ? d - t1[0] : -t1[k];
    prev = delta - prev;
    c.e[static_cast<std::size_t>(k)] = static_cast<double>(prev);
  }
  c.d = static_cast<double>(d);
  return c;
}

constexpr std::array<Coefficients, kMaxTerms + 1> make_tables() {
  std::array<Coefficients, kMaxTerms + 1> t{};
  for (int n = 2; n <= kMaxTerms; ++n) t[static_cast<std::size_t>(n)] = make_coefficients(n);
  return t;
}

constexpr std::array<Coefficients, kMaxTerms + 1> kTables = make_tables();
static_assert(kTables[20].d == 1023286908188737.0, "T_20(3)");
static_assert(kTables[20].e[0] == 1023286908188736.0 && kTables[20].e[19] == -549755813888.0);
static_assert(kTables[6].d == 19601.0, "T_6(3)");

const Coefficients& table(std::size_t n) {
  if (n < 2 || n > kMaxTerms) throw std::invalid_argument("internal: alternating_moment_sum needs 2..20 terms");
  return kTables[n];
}

}  // namespace

// CRVZ 2000, Prop. 1: S_n = (1/d) sum_k e_k g_k and |S - S_n| <= S/d, so S lies in [S_n/(1 + 1/d), S_n/(1 - 1/d)]
// (S >= 0: S = int dmu/(1 + t)). Enclosure.
DoubleInterval alternating_moment_sum(std::span<const DoubleInterval> g) {
  using DI = DoubleInterval;
  const Coefficients& c = table(g.size());
  DI s = DI::point(0);
  for (std::size_t k = 0; k < g.size(); ++k) s = s + DI::point(c.e[k]) * g[k];
  const DI d = DI::point(c.d);
  const DI sn = s / d;
  if (!(sn.hi >= 0)) return {0, std::numeric_limits<double>::infinity()};  // NaN or impossible: no information
  // S = S_n / (1 + theta/d) for some theta in [-1, 1].
  const DI inv = DI::point(1) / d;
  const double lo = sn.lo > 0 ? (DI::point(sn.lo) / (DI::point(1) + inv)).lo : 0.0;
  const double hi = (DI::point(sn.hi) / (DI::point(1) - inv)).hi;
  return {lo, hi};
}

double alternating_moment_sum_estimate(std::span<const double> g) {
  const Coefficients& c = table(g.size());
  double s = 0;
  for (std::size_t k = 0; k < g.size(); ++k) s += c.e[k] * g[k];
  return s / c.d;
}

double alternating_moment_sum_denominator(int n) { return table(static_cast<std::size_t>(n)).d; }

}  // namespace dpl
