// SPDX-License-Identifier: Apache-2.0
// One seeded, documented, portable random generator and our own samplers, so that a run with a given seed
// gives the same numbers with any standard library (std::*_distribution are implementation-defined).
// Engine: xoshiro256** (Blackman and Vigna 2018), state seeded by splitmix64 from the 64-bit seed.
#pragma once

#include <cstdint>
#include <vector>

namespace dpl::algorithms {

class Rng {
 public:
  explicit Rng(std::uint64_t seed);

  std::uint64_t next_u64();
  // Uniform on (0, 1): (k + 0.5) / 2^52 for a 52-bit integer k (the top bits of next_u64()), exact in binary64,
  // never 0 or 1, symmetric about 1/2.
  double uniform01();
  // Uniform on (a, b).
  double uniform(double a, double b);
  // Uniform integer in [0, n), n >= 1, unbiased (rejection).
  std::uint64_t uniform_int(std::uint64_t n);
  // Laplace with SCALE b (density e^{-|y|/b}/(2b)), by inversion of one uniform. b > 0.
  double laplace_scale(double b);
  // Laplace with RATE beta (density beta/2 e^{-beta|y|}, seed 000's convention) = laplace_scale(1/beta).
  double laplace_rate(double beta);
  // Standard normal by the Marsaglia polar method (two uniforms per pair, the second value cached).
  double gaussian();
  double gaussian(double mean, double sd);
  // Fisher-Yates shuffle of 0..n-1.
  std::vector<int> permutation(int n);
  // A child generator with an independent stream (seeded from this one), for per-agent streams.
  Rng split();

 private:
  std::uint64_t s_[4];
  bool has_spare_ = false;
  double spare_ = 0;
};

}  // namespace dpl::algorithms
