// SPDX-License-Identifier: Apache-2.0
// The exact gamma against an independent Monte Carlo estimate (10^7 samples of y = U + Laplace, fixed seed),
// paired with two miscalibrated twins that the same test must reject: gamma * 1.01 and the thesis's (2.6).
#include "accounting/gamma/average_case_gamma.h"
#include "accounting/gamma/certified_gamma.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace dpl {
namespace {

// SplitMix64 (Steele, Lea and Flood 2014): a fixed, portable stream.
struct SplitMix64 {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
};

// Independent double-precision Theta (brute force over the two endpoint shifts, no cancellation care needed at
// these parameters): max over t = +-e of |log J(y)/J(y - t)|.
double window(double u, double y) {
  if (y < 0) return std::exp(y) * -std::expm1(-u);
  if (y > u) return std::exp(u - y) * -std::expm1(-u);
  return 2 - std::exp(-y) - std::exp(-(u - y));
}
double theta(double u, double e, double y) {
  return std::max(std::abs(std::log(window(u, y) / window(u, y - e))), std::abs(std::log(window(u, y) / window(u, y + e))));
}

struct Estimate {
  double mean, se;
};

Estimate monte_carlo(double u, double e, int n, std::uint64_t seed) {
  SplitMix64 rng{seed};
  double sum = 0, sum2 = 0;
  for (int i = 0; i < n; ++i) {
    const double x = rng.uniform() * u;
    const double v = rng.uniform();
    const double lap = v < 0.5 ? std::log(2 * v + 0x1.0p-60) : -std::log(2 * (1 - v));  // Laplace(0, 1)
    const double r = theta(u, e, x + lap) / e;
    sum += r;
    sum2 += r * r;
  }
  const double mean = sum / n;
  return {mean, std::sqrt((sum2 / n - mean * mean) / n)};
}

TEST(GammaMonteCarlo, ExactGammaInsideTheConfidenceIntervalAndTwinsRejected) {
  for (auto [u, e] : {std::pair{1.0, 0.5}, {2.5, 0.05}, {0.3, 0.9}}) {
    const double exact = average_case_gamma(u, 1, e).gamma.convert_to<double>();
    const double thesis = average_case_gamma(u, 1, e).thesis_bound.convert_to<double>();
    const Estimate m = monte_carlo(u, e, 10'000'000, 20261122);
    const double z = 4.5;  // ~1e-5 two-sided per comparison
    EXPECT_LE(std::abs(m.mean - exact), z * m.se) << u << " " << e;
    // Miscalibrated twin: a 1% error is caught at this sample size.
    EXPECT_GT(std::abs(m.mean - 1.01 * exact), z * m.se) << u << " " << e;
    // The certified enclosure agrees with the simulation: its upper end is not rejected as an upper bound.
    const GammaEnclosure c = certified_gamma(u, 1, e);
    EXPECT_LE(m.mean - hi_up(c.gamma), z * m.se) << u << " " << e;
    EXPECT_LE(lo_down(c.gamma) - m.mean, z * m.se) << u << " " << e;
    // The thesis's (2.6), where it is below gamma by more than the noise, is rejected as an upper bound.
    if (exact - thesis > 10 * m.se) {
      EXPECT_GT(m.mean - thesis, z * m.se) << u << " " << e;
    }
  }
}

}  // namespace
}  // namespace dpl
