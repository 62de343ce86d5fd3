// SPDX-License-Identifier: Apache-2.0
// Portable RNG: golden outputs, sampler distributions by Kolmogorov-Smirnov / chi-square with fixed seeds,
// each with a miscalibrated twin that the same check must reject.
// The golden values were computed independently with this Python transcription of the reference code:
//   M = 2**64 - 1; rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & M
//   def splitmix(x): x = (x + 0x9e3779b97f4a7c15) & M; z = x
//     z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M; z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M
//     return x, z ^ (z >> 31)
//   state: four successive splitmix(seed) outputs; next(): r = rotl(s1 * 5, 7) * 9; t = s1 << 17;
//     s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 45)
//   uniform01 = ((next() >> 12) + 0.5) / 2**52; laplace(b): u = uniform01() - 0.5,
//     m = -b log1p(-2|u|), sign of u; polar: v = 2u - 1 until 0 < s < 1, v * sqrt(-2 log(s) / s).
#include "algorithms/rng/portable_rng.h"

#include "accounting/errors.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

namespace dpl::algorithms {
namespace {

TEST(PortableRng, GoldenFirstOutputsForSeedOne) {
  Rng rng(1);
  EXPECT_EQ(rng.next_u64(), 0xb3f2af6d0fc710c5ULL);
  EXPECT_EQ(rng.next_u64(), 0x853b559647364ceaULL);
  EXPECT_EQ(rng.next_u64(), 0x92f89756082a4514ULL);
  EXPECT_EQ(rng.next_u64(), 0x642e1c7bc266a3a7ULL);
  EXPECT_EQ(rng.next_u64(), 0xb27a48e29a233673ULL);
}

TEST(PortableRng, GoldenUniformsLaplaceAndGaussianForSeedOne) {
  {
    Rng rng(1);
    EXPECT_EQ(rng.uniform01(), 0.7029218331588506);  // exact: (k + 0.5) / 2^52 is exact in binary64
    EXPECT_EQ(rng.uniform01(), 0.5204366199388569);
    EXPECT_EQ(rng.uniform01(), 0.5741057000197226);
  }
  {
    Rng rng(1);
    EXPECT_NEAR(rng.laplace_scale(2.0), 1.0412256124600894, 1e-14);
    EXPECT_NEAR(rng.laplace_scale(2.0), 0.08346406670525854, 1e-15);
    EXPECT_NEAR(rng.laplace_rate(0.5), 0.3208338101044605, 1e-15);  // rate 1/2 == scale 2
  }
  {
    Rng rng(1);
    EXPECT_NEAR(rng.gaussian(), 1.8843961047879765, 1e-14);
    EXPECT_NEAR(rng.gaussian(), 0.18978089448693022, 1e-14);  // the cached second value of the pair
  }
}

TEST(PortableRng, SameSeedSameStreamAndSplitDiffers) {
  Rng a(42), b(42);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(a.next_u64(), b.next_u64());
  Rng child = a.split();
  Rng child2 = b.split();
  EXPECT_EQ(child.next_u64(), child2.next_u64());  // split is deterministic too
  // The child's stream is not the parent's continuation.
  std::set<std::uint64_t> parent;
  for (int i = 0; i < 1000; ++i) parent.insert(a.next_u64());
  int shared = 0;
  for (int i = 0; i < 1000; ++i) shared += static_cast<int>(parent.count(child.next_u64()));
  EXPECT_EQ(shared, 0);
}

TEST(PortableRng, RejectsInvalidParameters) {
  Rng rng(3);
  EXPECT_THROW(rng.laplace_scale(0.0), InputError);
  EXPECT_THROW(rng.laplace_scale(-1.0), InputError);
  EXPECT_THROW(rng.laplace_rate(0.0), InputError);
  EXPECT_THROW(rng.laplace_scale(HUGE_VAL), InputError);
  EXPECT_THROW(rng.gaussian(0.0, -1.0), InputError);
  EXPECT_THROW(rng.uniform_int(0), InputError);
  EXPECT_THROW(rng.permutation(-1), InputError);
}

// Kolmogorov-Smirnov statistic of `n` draws against `cdf`.
double ks_statistic(const std::function<double()>& draw, const std::function<double(double)>& cdf, int n) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = draw();
  std::sort(v.begin(), v.end());
  double d = 0;
  for (int i = 0; i < n; ++i) {
    const double f = cdf(v[static_cast<std::size_t>(i)]);
    d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  return d;
}
// Asymptotic KS critical value at level 1e-4: sqrt(-log(alpha/2)/2) / sqrt(n).
bool ks_accepts(double d, int n) { return d < std::sqrt(-std::log(0.5e-4) / 2.0) / std::sqrt(n); }

double laplace_cdf(double x, double b) { return x < 0 ? 0.5 * std::exp(x / b) : 1 - 0.5 * std::exp(-x / b); }
double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

constexpr int kDraws = 100000;

// Sample mean of |Y| and of Y^2 against b and 2 b^2, each within 5 standard errors (sd(|Y|) = b,
// sd(Y^2) = sqrt(20) b^2 for Laplace(b)).
bool laplace_moments_match(const std::function<double()>& draw, double b, int n) {
  double abs_sum = 0, sq_sum = 0;
  for (int i = 0; i < n; ++i) {
    const double y = draw();
    abs_sum += std::fabs(y);
    sq_sum += y * y;
  }
  const double root_n = std::sqrt(static_cast<double>(n));
  return std::fabs(abs_sum / n - b) < 5 * b / root_n && std::fabs(sq_sum / n - 2 * b * b) < 5 * std::sqrt(20.0) * b * b / root_n;
}

TEST(PortableRng, LaplaceMomentsAndAWrongScaleTwin) {
  Rng rng(13);
  EXPECT_TRUE(laplace_moments_match([&] { return rng.laplace_scale(3.0); }, 3.0, kDraws));
  Rng twin(13);  // 5% too narrow: E|Y| off by 0.15, 5 standard errors are 0.047
  EXPECT_FALSE(laplace_moments_match([&] { return twin.laplace_scale(0.95 * 3.0); }, 3.0, kDraws));
}

TEST(PortableRng, LaplaceScaleHasTheLaplaceDistribution) {
  Rng rng(7);
  const double b = 0.37;
  EXPECT_TRUE(ks_accepts(ks_statistic([&] { return rng.laplace_scale(b); },
                                      [&](double x) { return laplace_cdf(x, b); }, kDraws), kDraws));
}

TEST(PortableRng, KsCatchesALaplaceWithTheWrongScale) {
  Rng rng(7);
  const double b = 0.37;
  // Miscalibrated twin: 10% too wide (population KS distance 0.5 * 0.1/1.1 * max t e^-t ~ 0.017, 2.4x the
  // critical value 0.0070 at n = 1e5).
  EXPECT_FALSE(ks_accepts(ks_statistic([&] { return rng.laplace_scale(1.1 * b); },
                                       [&](double x) { return laplace_cdf(x, b); }, kDraws), kDraws));
}

TEST(PortableRng, LaplaceRateIsScaleOneOverRateAndTheConfusionIsCaught) {
  Rng rng(8);
  const double beta = 2.5;
  EXPECT_TRUE(ks_accepts(ks_statistic([&] { return rng.laplace_rate(beta); },
                                      [&](double x) { return laplace_cdf(x, 1 / beta); }, kDraws), kDraws));
  Rng twin(8);
  EXPECT_FALSE(ks_accepts(ks_statistic([&] { return twin.laplace_scale(beta); },  // rate read as scale
                                       [&](double x) { return laplace_cdf(x, 1 / beta); }, kDraws), kDraws));
}

TEST(PortableRng, GaussianIsStandardNormalAndAWrongPolarFactorIsCaught) {
  Rng rng(9);
  EXPECT_TRUE(ks_accepts(ks_statistic([&] { return rng.gaussian(); }, normal_cdf, kDraws), kDraws));
  Rng rng2(10);
  EXPECT_TRUE(ks_accepts(ks_statistic([&] { return rng2.gaussian(1.5, 0.25); },
                                      [](double x) { return normal_cdf((x - 1.5) / 0.25); }, kDraws), kDraws));
  // Twin: the polar method without the factor 2 under the root (sd 1/sqrt 2).
  Rng twin(9);
  auto wrong_polar = [&] {
    double v1, v2, s;
    do {
      v1 = 2 * twin.uniform01() - 1;
      v2 = 2 * twin.uniform01() - 1;
      s = v1 * v1 + v2 * v2;
    } while (s >= 1 || s == 0);
    return v1 * std::sqrt(-std::log(s) / s);
  };
  EXPECT_FALSE(ks_accepts(ks_statistic(wrong_polar, normal_cdf, kDraws), kDraws));
}

TEST(PortableRng, UniformIsUniformOnTheInterval) {
  Rng rng(11);
  EXPECT_TRUE(ks_accepts(ks_statistic([&] { return rng.uniform(-2, 3); },
                                      [](double x) { return (x + 2) / 5; }, kDraws), kDraws));
  Rng twin(11);
  EXPECT_FALSE(ks_accepts(ks_statistic([&] { return twin.uniform(-2, 3.1); },
                                       [](double x) { return std::min(1.0, (x + 2) / 5); }, kDraws), kDraws));
}

// Pearson chi-square of counts against equal cells; critical value for 6 degrees of freedom at 1e-4: 27.856.
double chi_square(const std::vector<int>& counts, int n) {
  const double e = static_cast<double>(n) / static_cast<double>(counts.size());
  double c = 0;
  for (int k : counts) c += (k - e) * (k - e) / e;
  return c;
}

TEST(PortableRng, UniformIntIsUnbiasedAndABiasedTwinIsCaught) {
  const int n = 70000;
  Rng rng(12);
  std::vector<int> counts(7, 0);
  for (int i = 0; i < n; ++i) {
    const auto k = rng.uniform_int(7);
    ASSERT_LT(k, 7u);
    ++counts[k];
  }
  EXPECT_LT(chi_square(counts, n), 27.856);
  // Twin: the classic off-by-fraction bias floor(u * 6.9).
  Rng twin(12);
  std::vector<int> biased(7, 0);
  for (int i = 0; i < n; ++i) ++biased[static_cast<std::size_t>(twin.uniform01() * 6.9)];
  EXPECT_GT(chi_square(biased, n), 27.856);
  // A range that is not a power of two and exceeds 2^63: still inside.
  const std::uint64_t big = (1ULL << 63) + 12345;
  for (int i = 0; i < 1000; ++i) ASSERT_LT(rng.uniform_int(big), big);
  EXPECT_EQ(rng.uniform_int(1), 0u);
}

RC_GTEST_PROP(PortableRngProperty, PermutationIsAPermutation, ()) {
  const int n = *rc::gen::inRange(0, 200);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  Rng rng(seed);
  auto p = rng.permutation(n);
  RC_ASSERT(static_cast<int>(p.size()) == n);
  std::sort(p.begin(), p.end());
  for (int i = 0; i < n; ++i) RC_ASSERT(p[static_cast<std::size_t>(i)] == i);
}

RC_GTEST_PROP(PortableRngProperty, Uniform01IsStrictlyInside, ()) {
  Rng rng(*rc::gen::arbitrary<std::uint64_t>());
  for (int i = 0; i < 100; ++i) {
    const double u = rng.uniform01();
    RC_ASSERT(u > 0.0);
    RC_ASSERT(u < 1.0);
    // On the grid (2k + 1) / 2^53, k < 2^52: u 2^53 is an odd integer (so u is exact and 1 - u is too).
    const double t = u * 0x1.0p53;
    RC_ASSERT(t == std::floor(t));
    RC_ASSERT(std::fmod(t, 2.0) == 1.0);
  }
}

}  // namespace
}  // namespace dpl::algorithms
