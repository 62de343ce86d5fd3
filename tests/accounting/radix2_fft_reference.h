// SPDX-License-Identifier: Apache-2.0
// Test support: a frozen copy of radix2_fft (accounting/pld/radix2_fft.cpp) as of main a353c10 (element-by-element
// bit-reversal swaps, then one full pass per radix-2 stage, scalar, no FMA), twiddles included. The error bound of
// Higham 2002, Thm 24.2 (docs/pld_accountant.md) is proven for exactly this sequence of IEEE operations; the
// optimised transform must reproduce its outputs bit for bit (tests/accounting/radix2_fft_identity_test.cpp).
#pragma once

#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")

#include "accounting/numeric/portable_math.h"
#include "accounting/pld/radix2_fft.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace dpl::testing {

// cos and sin of 2 pi k / n from the first octant, in long double (the library's cos_sin, the same octant function).
inline void reference_cos_sin(std::uint64_t k, std::uint64_t n, long double& c, long double& s) {
  if (4 * k > n) {
    reference_cos_sin(n / 2 - k, n, c, s);
    c = -c;
    return;
  }
  if (8 * k > n) {
    long double c2, s2;
    reference_cos_sin(n / 4 - k, n, c2, s2);
    c = s2;
    s = c2;
    return;
  }
  if (k == 0) { c = 1; s = 0; return; }
  constexpr long double kTwoPi = 6.283185307179586476925286766559005768L;
  const long double theta = kTwoPi * (static_cast<long double>(k) / static_cast<long double>(n));
  portable::sin_cos_octant(theta, s, c);  // the library's own octant values (portable_math_test checks them)
}

template <typename T>
void reference_radix2_fft(ComplexArray<T>& x, bool inverse) {
  const std::size_t n = x.re.size();
  if (n == 0 || (n & (n - 1)) != 0 || x.im.size() != n)
    throw std::invalid_argument("reference_radix2_fft needs a power-of-two length");
  // Twiddles of every stage, stage with half-length L at index L - 1 + k.
  std::vector<T> wre(n), wim(n), wconj(n);
  for (std::size_t half = 1; half < n; half *= 2)
    for (std::size_t k = 0; k < half; ++k) {
      long double c, s;
      reference_cos_sin(k, 2 * half, c, s);
      wre[half - 1 + k] = static_cast<T>(c);
      wim[half - 1 + k] = static_cast<T>(-s);
      wconj[half - 1 + k] = -wim[half - 1 + k];
    }
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      std::swap(x.re[i], x.re[j]);
      std::swap(x.im[i], x.im[j]);
    }
  }
  T* xr = x.re.data();
  T* xi = x.im.data();
  if (n >= 2)
    for (std::size_t s = 0; s < n; s += 2) {
      const T ar = xr[s], ai = xi[s], br = xr[s + 1], bi = xi[s + 1];
      xr[s] = ar + br;
      xi[s] = ai + bi;
      xr[s + 1] = ar - br;
      xi[s + 1] = ai - bi;
    }
  for (std::size_t half = 2; half < n; half *= 2) {
    const T* wr = wre.data() + (half - 1);
    const T* wi = (inverse ? wconj.data() : wim.data()) + (half - 1);
    for (std::size_t start = 0; start < n; start += 2 * half)
      for (std::size_t k = 0; k < half; ++k) {
        T* yr = xr + start;
        T* yi = xi + start;
        const T br = yr[k + half], bi = yi[k + half];
        const T tr = wr[k] * br - wi[k] * bi;
        const T ti = wr[k] * bi + wi[k] * br;
        const T ar = yr[k], ai = yi[k];
        yr[k] = ar + tr;
        yi[k] = ai + ti;
        yr[k + half] = ar - tr;
        yi[k + half] = ai - ti;
      }
  }
}

}  // namespace dpl::testing

#pragma GCC pop_options
