// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed000/secret_sharing.h"

#include <cmath>
#include <string>

#include "accounting/errors.h"

namespace dpl::algorithms {

namespace {
__extension__ typedef unsigned __int128 U128;
}  // namespace

// (a + b) mod p without overflow: a, b < p < 2^63, so a + b < 2^64.
std::uint64_t addmod(std::uint64_t a, std::uint64_t b, std::uint64_t p) {
  const std::uint64_t s = a + b;
  return s >= p ? s - p : s;
}

std::uint64_t submod(std::uint64_t a, std::uint64_t b, std::uint64_t p) { return a >= b ? a - b : a + (p - b); }

// (a b) mod p through a 128-bit product (exact).
std::uint64_t mulmod(std::uint64_t a, std::uint64_t b, std::uint64_t p) {
  return static_cast<std::uint64_t>((static_cast<U128>(a) * b) % p);
}

namespace {
// The largest double that is <= n (static_cast<double> rounds to nearest, possibly up).
double floor_to_double(std::uint64_t n) {
  double d = static_cast<double>(n);
  while (static_cast<std::uint64_t>(d) > n) d = std::nextafter(d, 0.0);
  return d;
}
}  // namespace

FixedPointCodec::FixedPointCodec(int frac_bits, std::uint64_t modulus) : frac_bits_(frac_bits), p_(modulus) {
  if (frac_bits < 0 || frac_bits > 52)
    throw InputError("frac_bits=" + std::to_string(frac_bits) + " is out of range: allowed [0, 52]");
  if (modulus < 3 || modulus >= (std::uint64_t{1} << 63))
    throw InputError("modulus=" + std::to_string(modulus) + " is out of range: allowed [3, 2^63)");
  scale_ = std::ldexp(1.0, frac_bits);
  limit_ = floor_to_double((p_ - 1) / 2);
}

double FixedPointCodec::max_abs() const { return limit_ / scale_; }

std::uint64_t FixedPointCodec::encode(double x) const {
  const double scaled = std::nearbyint(x * scale_);
  if (!std::isfinite(scaled) || std::fabs(scaled) > limit_)
    throw InputError("fixed-point encoding of " + std::to_string(x) + " with frac_bits=" + std::to_string(frac_bits_) +
                     " overflows the modulus: allowed |x| <= " + std::to_string(max_abs()) + " (lower frac_bits)");
  const auto magnitude = static_cast<std::uint64_t>(std::fabs(scaled));
  return scaled < 0 ? (magnitude == 0 ? 0 : p_ - magnitude) : magnitude;
}

double FixedPointCodec::decode(std::uint64_t v) const {
  v %= p_;
  const std::uint64_t half = (p_ - 1) / 2;
  const double value = v <= half ? static_cast<double>(v) : -static_cast<double>(p_ - v);
  return value / scale_;
}

// Rng::uniform_int's rule: accept x <= 2^64 - (2^64 mod p) - 1, return x mod p. For p = 2^61 - 1, 2^64 mod p = 8
// and x mod p = (x & p) + (x >> 61) reduced once (2^61 = 1 mod p).
UniformModP::UniformModP(std::uint64_t p) : p_(p) {
  if (p == 0) throw InputError("uniform_int: n=0 is out of range: allowed n >= 1");
  limit_ = (~std::uint64_t{0}) - ((~std::uint64_t{0}) % p + 1) % p;
}

std::uint64_t UniformModP::operator()(Rng& rng) const {
  while (true) {
    const std::uint64_t x = rng.next_u64();
    if (x > limit_) continue;
    if (p_ != kMersenne61) return x % p_;
    const std::uint64_t r = (x & kMersenne61) + (x >> 61);
    return r >= kMersenne61 ? r - kMersenne61 : r;
  }
}

std::vector<std::uint64_t> split_into_shares(std::uint64_t secret, int n, std::uint64_t p, Rng& rng) {
  if (n < 1) throw InputError("shares=" + std::to_string(n) + " is out of range: allowed [1, inf)");
  std::vector<std::uint64_t> shares(static_cast<std::size_t>(n));
  split_into_shares(secret, UniformModP(p), p, rng, shares);
  return shares;
}

void split_into_shares(std::uint64_t secret, const UniformModP& uniform, std::uint64_t p, Rng& rng,
                       std::vector<std::uint64_t>& shares) {
  if (shares.empty()) throw InputError("shares=0 is out of range: allowed [1, inf)");
  std::uint64_t last = secret % p;
  for (std::size_t j = 0; j + 1 < shares.size(); ++j) {
    shares[j] = uniform(rng);
    last = submod(last, shares[j], p);
  }
  shares.back() = last;
}

std::uint64_t reconstruct(const std::vector<std::uint64_t>& shares, std::uint64_t p) {
  std::uint64_t s = 0;
  for (std::uint64_t v : shares) s = addmod(s, v % p, p);
  return s;
}

}  // namespace dpl::algorithms
