// No fused multiply-adds: the error model of Higham's Thm 24.2 is the one of separately rounded operations.
#pragma GCC optimize("fp-contract=off")

#include "accounting/pld/radix2_fft.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace dpl {

namespace {

// cos and sin of 2 pi k / N (0 <= k <= N/2, N a power of two) in long double, from the first octant only:
// cos(pi - x) = -cos x, sin(pi - x) = sin x; cos(pi/2 - x) = sin x. The octant angle is 2pi_ld * (k/N) with
// k/N exact, so its error is <= 2^-63 theta <= 8.5e-20 (theta <= pi/4); glibc's sincosl is documented to 1 ulp.
void cos_sin(std::uint64_t k, std::uint64_t n, long double& c, long double& s) {
  if (4 * k > n) {  // beyond pi/2
    cos_sin(n / 2 - k, n, c, s);
    c = -c;
    return;
  }
  if (8 * k > n) {  // beyond pi/4
    long double c2, s2;
    cos_sin(n / 4 - k, n, c2, s2);
    c = s2;
    s = c2;
    return;
  }
  if (k == 0) { c = 1; s = 0; return; }
  constexpr long double kTwoPi = 6.283185307179586476925286766559005768L;
  const long double theta = kTwoPi * (static_cast<long double>(k) / static_cast<long double>(n));
  c = std::cos(theta);
  s = std::sin(theta);
}

// Twiddles of every stage, concatenated: stage with half-length L (L = 1, 2, 4, ...) uses w_k = e^{-2 pi i k/(2L)},
// k < L, stored at index L - 1 + k. The table for length n is a prefix of the table for 2n, so one table grows.
template <typename T>
struct TwiddleTable {
  std::vector<T> re, im, conj_im;  // conj_im = -im (exact), for the inverse transform
  std::size_t n = 1;  // covers transforms up to this length
  void ensure(std::size_t size) {
    if (size <= n) return;
    re.resize(size - 1);
    im.resize(size - 1);
    conj_im.resize(size - 1);
    for (std::size_t half = n; half < size; half *= 2)
      for (std::size_t k = 0; k < half; ++k) {
        long double c, s;
        cos_sin(k, 2 * half, c, s);
        re[half - 1 + k] = static_cast<T>(c);  // one rounding (none for T = long double)
        im[half - 1 + k] = static_cast<T>(-s);
        conj_im[half - 1 + k] = -im[half - 1 + k];
      }
    n = size;
  }
};

template <typename T>
TwiddleTable<T>& twiddles() {
  thread_local TwiddleTable<T> table;
  return table;
}

template <typename T>
void butterflies(T* __restrict xr, T* __restrict xi, const T* __restrict wr, const T* __restrict wi,
                 std::size_t half) {
  for (std::size_t k = 0; k < half; ++k) {
    const T br = xr[k + half], bi = xi[k + half];
    const T tr = wr[k] * br - wi[k] * bi;
    const T ti = wr[k] * bi + wi[k] * br;
    const T ar = xr[k], ai = xi[k];
    xr[k] = ar + tr;
    xi[k] = ai + ti;
    xr[k + half] = ar - tr;
    xi[k + half] = ai - ti;
  }
}

}  // namespace

template <typename T>
void radix2_fft(ComplexArray<T>& x, bool inverse) {
  const std::size_t n = x.re.size();
  if (n == 0 || (n & (n - 1)) != 0 || n > (std::size_t{1} << 30) || x.im.size() != n)
    throw std::invalid_argument("internal: radix2_fft needs a power-of-two length");
  // Bit-reversal permutation (exact).
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      std::swap(x.re[i], x.re[j]);
      std::swap(x.im[i], x.im[j]);
    }
  }
  TwiddleTable<T>& tw = twiddles<T>();
  tw.ensure(n);
  T* xr = x.re.data();
  T* xi = x.im.data();
  // Stage half = 1 (w = 1): w b = (1 br - 0 bi, 1 bi + 0 br) = b exactly, so the multiplication is skipped
  // (bit-identical results, same error analysis).
  if (n >= 2)
    for (std::size_t s = 0; s < n; s += 2) {
      const T ar = xr[s], ai = xi[s], br = xr[s + 1], bi = xi[s + 1];
      xr[s] = ar + br;
      xi[s] = ai + bi;
      xr[s + 1] = ar - br;
      xi[s + 1] = ai - bi;
    }
  for (std::size_t half = 2; half < n; half *= 2) {
    const T* wr = tw.re.data() + (half - 1);
    const T* wi = (inverse ? tw.conj_im.data() : tw.im.data()) + (half - 1);
    for (std::size_t start = 0; start < n; start += 2 * half) butterflies(xr + start, xi + start, wr, wi, half);
  }
}

template <typename T>
void twiddle_table(std::size_t n, const T*& re, const T*& im) {
  if (n < 2 || (n & (n - 1)) != 0 || n > (std::size_t{1} << 30))
    throw std::invalid_argument("internal: twiddle_table needs a power-of-two length >= 2");
  TwiddleTable<T>& tw = twiddles<T>();
  tw.ensure(n);
  re = tw.re.data() + (n / 2 - 1);
  im = tw.im.data() + (n / 2 - 1);
}

template <typename T>
double twiddle_error() {
  // Per component, before the final rounding: octant-angle error 8.5e-20 plus sincosl's documented 1 ulp
  // (<= 2^-63 = 1.1e-19), so |w_ld - w| <= sqrt(2) * 1.94e-19 = 2.8e-19 (about 5 long-double unit round-offs);
  // taken as 16 of them (3x margin). Rounding to double adds u |w_ld| <= u (1 + 3e-19).
  constexpr double u_ld = 0x1p-64;
  if constexpr (sizeof(T) == sizeof(double) && std::numeric_limits<T>::digits == 53)
    return 2 * std::numeric_limits<double>::epsilon() / 2;  // u + 16 u_ld < 2u
  else
    return 16 * u_ld;
}

template <typename T>
double fft_error_factor(std::size_t n) {
  const double u = std::numeric_limits<T>::epsilon() / 2;
  const double t = std::log2(static_cast<double>(n));
  const double mu = twiddle_error<T>();
  const double gamma4 = 4 * u / (1 - 4 * u);
  const double eta = mu + gamma4 * (std::sqrt(2.0) + mu);
  // The double evaluation of these few operations is covered by the 1e-6 relative slack.
  return t * eta / (1 - t * eta) * (1 + 1e-6);
}

template void radix2_fft<double>(ComplexArray<double>&, bool);
template void radix2_fft<long double>(ComplexArray<long double>&, bool);
template void twiddle_table<double>(std::size_t, const double*&, const double*&);
template void twiddle_table<long double>(std::size_t, const long double*&, const long double*&);
template double twiddle_error<double>();
template double twiddle_error<long double>();
template double fft_error_factor<double>(std::size_t);
template double fft_error_factor<long double>(std::size_t);

}  // namespace dpl
