// SPDX-License-Identifier: Apache-2.0
// Additive N-out-of-N secret sharing over Z_p (seed 000 sec. 2.1, steps 2-6) and the fixed-point encoding of
// reals into Z_p it needs (the thesis, Sec. 2.1): x -> round(2^f x) mod p, negatives in two's-complement style
// (the upper half of Z_p holds the negative numbers).
#pragma once

#include <cstdint>
#include <vector>

#include "algorithms/rng/portable_rng.h"

namespace dpl::algorithms {

// The Mersenne prime 2^61 - 1 (the default modulus).
inline constexpr std::uint64_t kMersenne61 = (std::uint64_t{1} << 61) - 1;

// Arithmetic in Z_p for any modulus 2 <= p < 2^63 and operands already reduced (< p); no overflow.
std::uint64_t addmod(std::uint64_t a, std::uint64_t b, std::uint64_t p);
std::uint64_t submod(std::uint64_t a, std::uint64_t b, std::uint64_t p);
std::uint64_t mulmod(std::uint64_t a, std::uint64_t b, std::uint64_t p);

// Fixed point with `frac_bits` fractional bits in Z_p. Representable: |round(2^f x)| <= (p - 1) / 2.
class FixedPointCodec {
 public:
  // Throws InputError unless 3 <= modulus < 2^63 and 0 <= frac_bits <= 52.
  FixedPointCodec(int frac_bits, std::uint64_t modulus = kMersenne61);
  // round(2^f x) mod p; throws InputError (naming frac_bits and the value) if not finite or out of range.
  std::uint64_t encode(double x) const;
  // The signed representative in [-(p-1)/2, (p-1)/2] divided by 2^f (exact for |value| < 2^53 units).
  double decode(std::uint64_t v) const;
  // The largest |x| that encode() accepts.
  double max_abs() const;
  int frac_bits() const { return frac_bits_; }
  std::uint64_t modulus() const { return p_; }

 private:
  int frac_bits_;
  std::uint64_t p_;
  double scale_;
  double limit_;  // the largest |round(2^f x)| accepted: the largest double <= (p - 1) / 2
};

// Uniform on Z_p = {0, ..., p-1} by Rng::uniform_int's rejection rule (the same draws give the same values), with
// its acceptance bound computed once and the reduction mod 2^61 - 1 by folding (no division).
class UniformModP {
 public:
  explicit UniformModP(std::uint64_t p);
  std::uint64_t operator()(Rng& rng) const;

 private:
  std::uint64_t p_, limit_;
};

// Splits `secret` (in Z_p) into `n` >= 1 shares: shares 0..n-2 i.i.d. uniform on Z_p and the last one
// secret - (sum of the others) mod p, so any n - 1 of them are i.i.d. uniform and all n sum to the secret.
std::vector<std::uint64_t> split_into_shares(std::uint64_t secret, int n, std::uint64_t p, Rng& rng);
// The same shares (for the same generator state) written into `shares`, whose size is n >= 1: no allocation.
void split_into_shares(std::uint64_t secret, const UniformModP& uniform, std::uint64_t p, Rng& rng,
                       std::vector<std::uint64_t>& shares);
// Sum of the shares mod p (exact).
std::uint64_t reconstruct(const std::vector<std::uint64_t>& shares, std::uint64_t p);

}  // namespace dpl::algorithms
