// SPDX-License-Identifier: Apache-2.0
// Test support for the PLD's FFT paths (joint products, real-input squarings): PLD-like mass vectors, an exact
// enough direct convolution in binary128 with its own error bound, and l1 distances.
#pragma once

#include "accounting/pld/discrete_pld.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

namespace dpl::testing {

using Quad = __float128;

// a * b directly in binary128. Each output is a sum of at most min(nnz a, nnz b) non-negative binary128 products of
// doubles (exact products), so its relative error is <= that count times 2^-113 (Higham 2002, eq. (3.4)); the l1
// bound, taken as 2 (count + 1) 2^-113 times the total, is returned in `ref_err`. Only nonzero entries are multiplied.
inline std::vector<Quad> direct_convolution(const std::vector<double>& a, const std::vector<double>& b, Quad& ref_err) {
  auto nonzero = [](const std::vector<double>& v) {
    std::vector<std::size_t> nz;
    for (std::size_t i = 0; i < v.size(); ++i)
      if (v[i] != 0) nz.push_back(i);
    return nz;
  };
  const std::vector<std::size_t> na = nonzero(a), nb = nonzero(b);
  std::vector<Quad> c(a.size() + b.size() - 1, 0);
  for (std::size_t i : na)
    for (std::size_t j : nb) c[i + j] += static_cast<Quad>(a[i]) * static_cast<Quad>(b[j]);
  Quad total = 0;
  for (Quad v : c) total += v;
  ref_err = total * static_cast<Quad>(2.0 * static_cast<double>(std::min(na.size(), nb.size()) + 1)) *
            static_cast<Quad>(std::ldexp(1.0, -113));
  return c;
}

inline double l1_distance(const std::vector<double>& x, const std::vector<Quad>& y) {
  Quad s = 0;
  for (std::size_t k = 0; k < x.size(); ++k) {
    const Quad d = static_cast<Quad>(x[k]) - y[k];
    s += d < 0 ? -d : d;
  }
  return static_cast<double>(s);
}

// The l1 distance of two PLDs on the same grid: their +inf atoms and every grid point of the union of their kept
// ranges (truncation may keep different end points), in long double.
inline long double l1_distance(const DiscretePld& x, const DiscretePld& y) {
  const std::int64_t lo = std::min(x.offset, y.offset),
                     hi = std::max(x.offset + static_cast<std::int64_t>(x.p.size()),
                                   y.offset + static_cast<std::int64_t>(y.p.size()));
  auto at = [](const DiscretePld& d, std::int64_t i) {
    const std::int64_t k = i - d.offset;
    return k >= 0 && k < static_cast<std::int64_t>(d.p.size()) ? d.p[static_cast<std::size_t>(k)] : 0.0;
  };
  long double diff = std::abs(static_cast<long double>(x.p_inf) - y.p_inf);
  for (std::int64_t i = lo; i < hi; ++i) diff += std::abs(static_cast<long double>(at(x, i)) - at(y, i));
  return diff;
}

enum class Shape { bump, wide_range, subnormal, sparse };
inline std::vector<double> pld_like(std::size_t n, Shape shape, std::mt19937_64& rng);

// A k-fold self-composition of a 200-point bump (by squarings, and by the joint path where a set bit of k meets a
// squaring) agrees with composing step by step (general products) within the sum of their certified error bounds;
// the tails moved by truncation (<= 1e-30 per composition) are far below them. Returns the l1 distance and the two
// bounds for the caller's assertions.
struct SelfCompositionCheck {
  double diff, bound_self, bound_steps;
};
inline SelfCompositionCheck self_composition_against_steps(std::int64_t k, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  DiscretePld a;
  a.h = 0x1p-10;
  a.offset = -100;
  a.p = pld_like(200, Shape::bump, rng);
  a.err_l1 = 1e-15;
  const DiscretePld self = self_compose(a, k, 1e-30);
  DiscretePld step = a;
  for (std::int64_t i = 1; i < k; ++i) step = compose(step, a, 1e-30);
  // l1 distance over the union of the kept ranges (truncation may keep different end points).
  const long double diff = l1_distance(self, step) - 1e-28L;
  return {static_cast<double>(diff), self.err_l1, step.err_l1};
}

// Nonnegative masses summing to about 1: a Gaussian bump, masses spanning 1e-300..1, a bump with subnormals, or
// (sparse) about 400 atoms including both ends.
inline std::vector<double> pld_like(std::size_t n, Shape shape, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> v(n, 0.0);
  const double centre = 0.3 * static_cast<double>(n), width = 0.05 * static_cast<double>(n) + 1;
  for (std::size_t k = 0; k < n; ++k) {
    const double z = (static_cast<double>(k) - centre) / width;
    switch (shape) {
      case Shape::bump: v[k] = std::exp(-0.5 * z * z) * (0.5 + u(rng)); break;
      case Shape::wide_range: v[k] = std::pow(10.0, -300.0 * u(rng) * u(rng)); break;
      case Shape::subnormal: v[k] = k % 3 == 0 ? 1e-310 * u(rng) : std::exp(-0.5 * z * z); break;
      case Shape::sparse:
        v[k] = k == 0 || k + 1 == n || u(rng) < 400.0 / static_cast<double>(n)
                   ? std::pow(10.0, -300.0 * u(rng) * u(rng) * u(rng)) : 0.0;
        break;
    }
  }
  long double total = 0;
  for (double x : v) total += x;
  for (double& x : v) x = static_cast<double>(x / total);
  if (shape == Shape::subnormal || shape == Shape::sparse) v[n / 2] = 4.9e-324;
  return v;
}

}  // namespace dpl::testing
