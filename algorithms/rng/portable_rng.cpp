// SPDX-License-Identifier: Apache-2.0
#include "algorithms/rng/portable_rng.h"

#include "accounting/errors.h"
#include "accounting/numeric/portable_math.h"

#include <cmath>
#include <string>

namespace dpl::algorithms {

namespace {

// splitmix64 (Steele, Lea, Flood 2014; Vigna's reference code): the recommended seeding of xoshiro's state.
std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

Rng::Rng(std::uint64_t seed) {
  std::uint64_t x = seed;
  for (auto& s : s_) s = splitmix64(x);
}

// xoshiro256** 1.0 (Blackman and Vigna 2018, reference implementation): exact.
std::uint64_t Rng::next_u64() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

// (k + 1/2) / 2^52 with k the top 52 bits: (2k + 1) / 2^53 has at most 53 significant bits, so it is exact,
// the grid is symmetric about 1/2 (u - 1/2 and 1 - u are exact too) and 2^-53 <= u <= 1 - 2^-53. (With 53-bit
// k, (k + 1/2) would need 54 bits and round, up to exactly 1 for k = 2^53 - 1.)
double Rng::uniform01() {
  const std::uint64_t k = next_u64() >> 12;  // 52 bits
  return (static_cast<double>(k) + 0.5) * 0x1.0p-52;
}

double Rng::uniform(double a, double b) { return a + (b - a) * uniform01(); }

std::uint64_t Rng::uniform_int(std::uint64_t n) {
  if (n == 0) throw InputError("uniform_int: n=0 is out of range: allowed n >= 1");
  // Reject the top partial block so every residue is equally likely: accept x < n * floor(2^64 / n).
  const std::uint64_t limit = (~std::uint64_t{0}) - ((~std::uint64_t{0}) % n + 1) % n;  // 2^64 - (2^64 mod n) - 1
  while (true) {
    const std::uint64_t x = next_u64();
    if (x <= limit) return x % n;
  }
}

// Laplace by inversion: with u uniform on (0,1), y = -b sgn(u - 1/2) log(1 - 2|u - 1/2|) (exact inverse CDF);
// written as log1p(-2|u-1/2|) so that small tails keep full relative accuracy. portable::binary64::log1p (not
// glibc's, whose FMA and SSE2 variants differ in the last bit for about 4 arguments in 10^4) gives the same draw on
// every CPU.
double Rng::laplace_scale(double b) {
  if (!(b > 0) || !std::isfinite(b))
    throw InputError("laplace_scale: b=" + std::to_string(b) + " is out of range: allowed (0, inf)");
  const double u = uniform01() - 0.5;  // in (-1/2, 1/2), never +-1/2
  const double mag = -b * portable::binary64::log1p(-2.0 * std::fabs(u));
  return u < 0 ? -mag : mag;
}

double Rng::laplace_rate(double beta) {
  if (!(beta > 0) || !std::isfinite(beta))
    throw InputError("laplace_rate: beta=" + std::to_string(beta) + " is out of range: allowed (0, inf)");
  return laplace_scale(1.0 / beta);
}

// Marsaglia and Bray 1964 polar method: (v1, v2) uniform in the unit disc, s = v1^2 + v2^2, then
// v_k sqrt(-2 log(s)/s) are two independent standard normals (exact); portable::binary64::log, as above.
double Rng::gaussian() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  double v1, v2, s;
  do {
    v1 = 2.0 * uniform01() - 1.0;
    v2 = 2.0 * uniform01() - 1.0;
    s = v1 * v1 + v2 * v2;
  } while (s >= 1.0 || s == 0.0);
  const double m = std::sqrt(-2.0 * portable::binary64::log(s) / s);
  spare_ = v2 * m;
  has_spare_ = true;
  return v1 * m;
}

double Rng::gaussian(double mean, double sd) {
  if (!(sd >= 0) || !std::isfinite(sd))
    throw InputError("gaussian: sd=" + std::to_string(sd) + " is out of range: allowed [0, inf)");
  return mean + sd * gaussian();
}

std::vector<int> Rng::permutation(int n) {
  if (n < 0) throw InputError("permutation: n=" + std::to_string(n) + " is out of range: allowed n >= 0");
  std::vector<int> p(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) p[static_cast<std::size_t>(i)] = i;
  for (int i = n - 1; i > 0; --i) {
    const auto j = static_cast<std::size_t>(uniform_int(static_cast<std::uint64_t>(i) + 1));
    std::swap(p[static_cast<std::size_t>(i)], p[j]);
  }
  return p;
}

// The child's seed is one output of this stream, expanded by splitmix64 in the constructor; the child's
// state is unrelated to the parent's next states except through that one 64-bit draw.
Rng Rng::split() { return Rng(next_u64() ^ 0x6a09e667f3bcc909ULL); }

}  // namespace dpl::algorithms
