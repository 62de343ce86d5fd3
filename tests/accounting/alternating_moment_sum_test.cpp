// SPDX-License-Identifier: Apache-2.0
// The accelerated alternating-series enclosure (Cohen, Rodriguez Villegas and Zagier 2000, Prop. 1) used for the
// tails of the fractional-order subsampled-Gaussian series: golden sums, random positive measures on [0, 1] against
// a 200-bit reference, and a twin without the |S - S_n| <= S/d term that the extremal measure must catch.
#include "accounting/numeric/interval.h"
#include "accounting/rdp/alternating_moment_sum.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <vector>

namespace dpl {
namespace {

using DI = DoubleInterval;

// g_k = sum_j w_j t_j^k for atoms t_j in [0, 1] with weights w_j > 0: enclosures in binary64 interval arithmetic.
std::vector<DI> moments(const std::vector<double>& t, const std::vector<double>& w, int n) {
  std::vector<DI> g(static_cast<std::size_t>(n), DI::point(0));
  for (std::size_t j = 0; j < t.size(); ++j) {
    DI p = DI::point(w[j]);
    for (int k = 0; k < n; ++k) {
      g[static_cast<std::size_t>(k)] = g[static_cast<std::size_t>(k)] + p;
      p = p * DI::point(t[j]);
    }
  }
  return g;
}

// S = sum_j w_j / (1 + t_j), 200-bit.
Interval exact_sum(const std::vector<double>& t, const std::vector<double>& w) {
  Interval s = exact(0.0);
  for (std::size_t j = 0; j < t.size(); ++j) s += exact(w[j]) / (1 + exact(t[j]));
  return s;
}

bool encloses(const DI& e, const Interval& s) { return Real(e.lo) <= lo(s) && hi(s) <= Real(e.hi); }

TEST(AlternatingMomentSum, GoldenSums) {
  // g_k = 1/(k+1) (Lebesgue measure): log 2. g_k = 1/(k+1)^2: pi^2/12. g_k = 2^-k: 2/3. Enclosed, and tight.
  std::vector<DI> harmonic, squares, geometric;
  for (int k = 0; k < kAlternatingTerms; ++k) {
    const DI kk = DI::point(k + 1.0);
    harmonic.push_back(DI::point(1) / kk);
    squares.push_back(DI::point(1) / (kk * kk));
    geometric.push_back(DI::point(std::ldexp(1.0, -k)));
  }
  const struct {
    const std::vector<DI>& g;
    double value;
  } cases[] = {{harmonic, 0.69314718055994530942}, {squares, 0.82246703342411321824}, {geometric, 2.0 / 3}};
  for (const auto& c : cases) {
    const DI s = alternating_moment_sum(c.g);
    EXPECT_LE(s.lo, c.value * (1 + 1e-15));
    EXPECT_GE(s.hi, c.value * (1 - 1e-15));
    EXPECT_LT(s.hi - s.lo, 3e-14 * c.value);  // rounding of 20 products of size ~1e15 g_k
  }
  EXPECT_EQ(alternating_moment_sum_denominator(6), 19601.0);  // T_6(3)
  EXPECT_NEAR(alternating_moment_sum_estimate(std::vector<double>(12, 1.0)), 0.5, 1e-9);  // Abel sum of 1 - 1 + ...
}

// Random positive measures (1 to 4 atoms, some near 1 where the series converges slowest), every n from 2 to 20.
RC_GTEST_PROP(AlternatingMomentSum, EnclosesTheSumOfEveryPositiveMeasure, (unsigned seed, unsigned atoms)) {
  const int n = 2 + static_cast<int>(seed % 19);
  std::vector<double> t, w;
  for (unsigned j = 0; j < 1 + atoms % 4; ++j) {
    const unsigned h = seed * 2654435761u + j * 40503u;
    t.push_back(j == 0 ? 1 - std::ldexp(1.0, -static_cast<int>(h % 40)) : (h % 100000) / 100000.0);
    w.push_back(std::ldexp(1.0 + (h % 997) / 997.0, -static_cast<int>(h % 30)));
  }
  const Interval s = exact_sum(t, w);
  const std::vector<DI> g = moments(t, w, n);
  RC_ASSERT(encloses(alternating_moment_sum(g), s));
  // The truncation bound is S/d: relative width at most ~2/d plus the rounding of the 20 products with |e_k| ~ d (each
  // g_k is ~k ulps wide here; sum_k |e_k| g_k <= 2 n d S).
  const DI e = alternating_moment_sum(g);
  RC_ASSERT(e.hi - e.lo <= (2.5 / alternating_moment_sum_denominator(n) + 5e-13) * e.hi);
}

// The bound is attained: for the atom t* with P(t*) = T_6(1 - 2 t*) = -1, S - S_6 = -S/d exactly. A twin that
// reports S_6 alone (rounding only) misses S; the enclosure holds it.
TEST(AlternatingMomentSum, TwinWithoutTheTruncationBoundIsCaught) {
  const double t_star = (1 - std::cos(M_PI / 6)) / 2;  // 1 - 2 t* = cos(pi/6)
  const std::vector<double> t{t_star}, w{1.0};
  const Interval s = exact_sum(t, w);
  const std::vector<DI> g = moments(t, w, 6);
  EXPECT_TRUE(encloses(alternating_moment_sum(g), s));
  std::vector<double> mid;
  for (const auto& x : g) mid.push_back(0.5 * (x.lo + x.hi));
  const double sn = alternating_moment_sum_estimate(mid);
  const DI twin{sn * (1 - 1e-14), sn * (1 + 1e-14)};
  EXPECT_FALSE(encloses(twin, s)) << "S_6 = " << sn << ", S = " << mid_double(s);
  EXPECT_NEAR((mid_double(s) - sn) / mid_double(s), -1 / 19601.0, 1e-9);  // the bound is attained
}

}  // namespace
}  // namespace dpl
