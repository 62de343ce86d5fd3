// SPDX-License-Identifier: Apache-2.0
// No fused multiply-adds: the error models (Higham's, and double_word.h's) are those of separately rounded operations.
#pragma GCC optimize("fp-contract=off")

#include "accounting/pld/discrete_pld.h"

#include "accounting/numeric/portable_math.h"
#include "accounting/numeric/double_word.h"
#include "accounting/numeric/infinity.h"
#include "accounting/pld/double_word_lanes.h"
#include "accounting/pld/pld_parallel.h"
#include "accounting/pld/pld_work_budget.h"
#include "accounting/pld/radix2_fft.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <utility>

namespace dpl {

namespace {

constexpr double kU = std::numeric_limits<double>::epsilon() / 2;  // unit round-off
// The bound r on the relative error of the survival functions (portable_math's long-double erfc/exp/log1p chains
// rounded once to double: u plus the chain's error bound times erfc's conditioning, below 1.8e-15;
// docs/pld_accountant.md, 1 and "Elementary functions").
constexpr double kSurvivalMargin = 2e-15;
// Blocks replicated at least this many times are convolved in extended precision: double-word arithmetic
// (double_word.h; it replaced x87 long double: about 1.5x faster on AVX2 lanes, and its round-off is smaller).
constexpr double kExtendedFactor = 32;
using Extended = DoubleWord;

// The first grid index beyond which the P-survival, weighted by e^{tilt l} (the mass a later tilt will see),
// is <= tail.
std::int64_t find_upper(const LossPair& pair, double h, double tail, double tilt) {
  if (std::isfinite(pair.support_hi)) return static_cast<std::int64_t>(std::ceil(pair.support_hi / h));
  auto heavy = [&](std::int64_t i) {
    const double l = static_cast<double>(i) * h, sv = pair.survival_p(l);
    return sv > 0 && portable::log(sv) + tilt * l > portable::log(tail);
  };
  std::int64_t i = 1;
  while (heavy(i)) i *= 2;
  std::int64_t lo = i / 2, hi = i;  // heavy at lo (or lo = 0), not at hi
  while (hi - lo > 1) {
    const std::int64_t m = lo + (hi - lo) / 2;
    if (heavy(m)) lo = m; else hi = m;
  }
  return hi;
}

std::int64_t find_lower(const LossPair& pair, double h, double tail, double finite_mass) {
  if (std::isfinite(pair.support_lo)) return static_cast<std::int64_t>(std::floor(pair.support_lo / h));
  std::int64_t i = -1;
  while (finite_mass - pair.survival_p(static_cast<double>(i) * h) > tail) i *= 2;
  std::int64_t lo = i, hi = i / 2;  // mass below lo h <= tail; below hi h > tail (or hi = 0)
  while (hi - lo > 1) {
    const std::int64_t m = lo + (hi - lo) / 2;
    if (finite_mass - pair.survival_p(static_cast<double>(m) * h) > tail) hi = m; else lo = m;
  }
  return lo;
}

// The sum of f(x) over v in long double, in four interleaved partial sums added at the end (independent additions
// instead of one chain: about 3x faster); nonnegative terms, so the relative error stays <= (n - 1) u_ld (Higham
// 2002, eq. (4.4), any order of summation).
template <typename F>
long double sum_of(const std::vector<double>& v, F f) {
  long double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  std::size_t k = 0;
  for (; k + 4 <= v.size(); k += 4) {
    s0 += f(v[k]);
    s1 += f(v[k + 1]);
    s2 += f(v[k + 2]);
    s3 += f(v[k + 3]);
  }
  for (; k < v.size(); ++k) s0 += f(v[k]);
  return (s0 + s1) + (s2 + s3);
}
// Upper bounds on the l1 and l2 norms: long-double sums of at most 2^22 terms (relative error <= 2^22 * 2^-64
// < 1e-12, Higham 2002, eq. (4.4)), inflated by 1e-12 and rounded up to double.
double l1(const std::vector<double>& v) {
  const long double s = sum_of(v, [](double x) { return static_cast<long double>(std::abs(x)); });
  return std::nextafter(static_cast<double>(s * (1 + 1e-12L)), kInf);
}
double l2(const std::vector<double>& v) {
  const long double s = sum_of(v, [](double x) { return static_cast<long double>(x) * x; });
  return std::nextafter(static_cast<double>(std::sqrt(s * (1 + 1e-12L))), kInf);
}

// Moves the lower and upper tails off the vector. Pessimistic: the upper tail (true mass <= tail) to +inf, the
// lower tail onto the first kept point (moving mass up multiplies its tilted value by e^{lambda (l_lo - l_j)}, so the
// moved tilted mass M, with M(lo + 1) = (M(lo) + p_lo) e^{lambda h}, is kept <= tail). Optimistic: the upper tail to
// the last kept point, the lower tail dropped. Exact bookkeeping in long double, one rounding per moved sum.
void truncate(DiscretePld& d, double tail) {
  const long double step = portable::exp(static_cast<long double>(d.tilt) * d.h);  // e^{lambda h}
  // (Untilted: the same factor at every point, computed once.)
  const long double untilted = portable::exp(static_cast<long double>(d.log_scale) + d.log_scale_err);
  auto true_mass = [&](std::size_t k) {
    if (d.tilt == 0) return static_cast<long double>(d.p[k]) * untilted;
    const long double l = static_cast<long double>(d.offset + static_cast<std::int64_t>(k)) * d.h;
    return static_cast<long double>(d.p[k]) *
           portable::exp(static_cast<long double>(d.log_scale) + d.log_scale_err - d.tilt * l);  // rounded up
  };
  std::size_t lo = 0, hi = d.p.size();
  long double moved_low = 0, high_true = 0, high_tilted = 0;
  // Round-off leaves a floor of noise far below the masses that matter: end entries summing to at most 1e-3
  // of the current error bound are dropped and their sum added to that bound (an l1 change, so sound both ways).
  long double dropped = 0;
  const long double drop_budget = 1e-3L * d.err_l1;
  while (lo + 1 < hi && dropped + d.p[lo] <= drop_budget / 2) dropped += d.p[lo++];
  while (hi - 1 > lo && dropped + d.p[hi - 1] <= drop_budget) dropped += d.p[--hi];
  d.err_l1 = std::nextafter(static_cast<double>(d.err_l1 + dropped * (1 + 1e-15L)), kInf);
  if (d.pessimistic) {
    while (lo + 1 < hi && (moved_low + d.p[lo]) * step <= tail) moved_low = (moved_low + d.p[lo++]) * step;
  } else {
    while (lo + 1 < hi && moved_low + d.p[lo] <= tail) moved_low += d.p[lo++];
  }
  for (long double m; hi - 1 > lo && high_true + (m = true_mass(hi - 1)) <= tail;) {
    high_true += m;
    // Moved down to the last kept point (optimistic): its tilted value shrinks by e^{lambda (l_j - l_last)}.
    high_tilted = high_tilted / step + d.p[hi - 1] / step;
    --hi;
  }
  std::vector<double> kept(d.p.begin() + static_cast<std::ptrdiff_t>(lo), d.p.begin() + static_cast<std::ptrdiff_t>(hi));
  if (d.pessimistic) {
    kept.front() += static_cast<double>(moved_low);
    d.p_inf = std::nextafter(d.p_inf + static_cast<double>(high_true * (1 + 1e-15L)), kInf);
  } else {
    kept.back() += static_cast<double>(high_tilted * (1 - 1e-15L));
  }
  // One rounding per moved sum (the exp factors: relative <= 1e-15, inside the margins above).
  d.err_l1 += 4 * kU * static_cast<double>(moved_low + high_tilted + 1e-300L);
  d.offset += static_cast<std::int64_t>(lo);
  d.p = std::move(kept);
  if (d.tilt > 0) {
    // Renormalise the tilted masses to total ~1 by a power of two (exact: errors scale with them).
    int e = 0;
    std::frexp(l1(d.p), &e);
    if (e != 0) {
      for (double& v : d.p) v = std::ldexp(v, -e);
      d.err_l1 = std::ldexp(d.err_l1, -e) + static_cast<double>(d.p.size()) * 0x1p-1074;  // subnormal results
      d.log_scale += e * 0.69314718055994530942;  // e log 2 rounded: tracked below
      d.log_scale_err += kU * (std::abs(d.log_scale) + std::abs(e) * 0.7);
    }
  }
}

// The passes between the transforms, written once for a value type V: double, DoubleWord, or Double4 and DoubleWord4
// (four doubles or double words on AVX2 lanes, accounting/pld/double_word_lanes.h, which also has every type's
// half(); the lanes only inside AVX2 functions). Each lane of a
// DoubleWord4 computes exactly the scalar DoubleWord results, so the error analysis (docs/pld_accountant.md, 3) is
// that of the scalar operations whichever runs.

// Real-input squaring: the forward split at index k from X = Z_k and Y = Z_{N-k} with twiddle w = w^k:
// A = E + w O, E = (X + conj Y)/2, O = (X - conj Y)/(2i).
template <typename V>
[[gnu::always_inline]] inline void real_split(V xr, V xi, V yr, V yi, V wr, V wi, V& ar, V& ai) {
  const V er = half(xr + yr), ei = half(xi - yi);
  const V o_r = half(xi + yi), o_i = half(yr - xr);
  const V tr = wr * o_r - wi * o_i, ti = wr * o_i + wi * o_r;
  ar = er + tr;
  ai = ei + ti;
}
// The inverse split at index k from P = S_k and Q = S_{N-k}: U'_k = (P + conj Q) + i conj(w^k) (P - conj Q).
template <typename V>
[[gnu::always_inline]] inline void real_unsplit(V pr, V pi, V qr, V qi, V wr, V wi, V& ur, V& ui) {
  const V sr = pr + qr, si = pi - qi, dr = pr - qr, di = pi + qi;
  const V cwi = -wi;  // conj(w^k): exact
  const V vr = wr * dr - cwi * di, vi = wr * di + cwi * dr;
  ur = sr - vi;
  ui = si + vr;
}
// One pair (k, j = N - k), 0 < k < j, of a product (S = A B): split both indices of both half spectra (a's Z_k = x,
// Z_j = y; b's Z_k = u, Z_j = v), multiply, unsplit both into the new z_k and z_j. A squaring passes b's values equal
// to a's and splits them once: the same operations on the same operands as splitting them twice.
template <bool kSquare, typename V>
[[gnu::always_inline]] inline void real_product_pair(V xr, V xi, V yr, V yi, V ur, V ui, V vr, V vi, V wkr, V wki,
                                                     V wjr, V wji, V& okr, V& oki, V& ojr, V& oji) {
  V akr, aki, ajr, aji, bkr, bki, bjr, bji;
  real_split(xr, xi, yr, yi, wkr, wki, akr, aki);
  real_split(yr, yi, xr, xi, wjr, wji, ajr, aji);
  if constexpr (kSquare) {
    bkr = akr, bki = aki, bjr = ajr, bji = aji;
  } else {
    real_split(ur, ui, vr, vi, wkr, wki, bkr, bki);
    real_split(vr, vi, ur, ui, wjr, wji, bjr, bji);
  }
  const V skr = akr * bkr - aki * bki, ski = akr * bki + aki * bkr;
  const V sjr = ajr * bjr - aji * bji, sji = ajr * bji + aji * bjr;
  real_unsplit(skr, ski, sjr, sji, wkr, wki, okr, oki);
  real_unsplit(sjr, sji, skr, ski, wjr, wji, ojr, oji);
}

// The pairs (k, h - k) for k = 1, 5, 9, ... while the four k and their four partners are disjoint, on AVX2 lanes
// (a's half spectrum in re/im, overwritten; b's in bre/bim, equal to re/im for a squaring); returns the first k not
// done. (A load from h - k - 3, reversed, holds the partners of a load from k: lanes.h.)
template <bool kSquare, typename T>
__attribute__((target("avx2"))) std::size_t real_product_pairs_avx2(T* re, T* im, const T* bre, const T* bim,
                                                                    const T* wr, const T* wi, std::size_t h) {
  std::size_t k = 1;
  for (; 2 * k + 6 < h; k += 4) {
    const std::size_t j3 = h - k - 3;
    const auto xr = load_lanes(re + k), xi = load_lanes(im + k);
    const auto yr = reverse_lanes(load_lanes(re + j3)), yi = reverse_lanes(load_lanes(im + j3));
    auto ur = xr, ui = xi, vr = yr, vi = yi;
    if constexpr (!kSquare) {
      ur = load_lanes(bre + k), ui = load_lanes(bim + k);
      vr = reverse_lanes(load_lanes(bre + j3)), vi = reverse_lanes(load_lanes(bim + j3));
    }
    const auto wkr = load_lanes(wr + k), wki = load_lanes(wi + k);
    const auto wjr = reverse_lanes(load_lanes(wr + j3)), wji = reverse_lanes(load_lanes(wi + j3));
    decltype(load_lanes(re)) okr, oki, ojr, oji;
    real_product_pair<kSquare>(xr, xi, yr, yi, ur, ui, vr, vi, wkr, wki, wjr, wji, okr, oki, ojr, oji);
    store_lanes(re + k, okr);
    store_lanes(im + k, oki);
    store_lanes(re + j3, reverse_lanes(ojr));
    store_lanes(im + j3, reverse_lanes(oji));
  }
  return k;
}

std::atomic<bool> simd_passes{true};  // set_pld_simd_passes
bool cpu_has_avx2() {
  static const bool avx2 = __builtin_cpu_supports("avx2") && !pld_scalar_forced();
  return avx2 && simd_passes.load(std::memory_order_relaxed);
}

// The pairs (k, h - k), 0 < k < h/2, of a real-input product (real_product_pair) into z: four at a time on AVX2 lanes
// where the CPU has them, the rest one by one (the same values either way). zb is b's half spectrum (z itself for a
// squaring).
template <bool kSquare, typename T>
void real_product_pairs(ComplexArray<T>& z, const ComplexArray<T>& zb, const T* wr, const T* wi, std::size_t h) {
  const std::size_t k_first =
      cpu_has_avx2() ? real_product_pairs_avx2<kSquare>(z.re.data(), z.im.data(), zb.re.data(), zb.im.data(), wr, wi, h) : 1;
  for (std::size_t k = k_first; k < h / 2; ++k) {
    const std::size_t j = h - k;
    real_product_pair<kSquare>(z.re[k], z.im[k], z.re[j], z.im[j], zb.re[k], zb.im[k], zb.re[j], zb.im[j], wr[k],
                               wi[k], wr[j], wi[j], z.re[k], z.im[k], z.re[j], z.im[j]);
  }
}

// Joint products: at index k from X = X_k and Y = X_{n-k}, R = (X + conj Y)/2, B = (X - conj Y)/(2i), P1 = R B,
// P2 = B B, and Q_k = P1 + i P2, Q_{n-k} = conj(P1) + i conj(P2).
template <typename V>
[[gnu::always_inline]] inline void joint_pair(V xr, V xi, V yr, V yi, V& qkr, V& qki, V& qjr, V& qji) {
  const V rr = half(xr + yr), ri = half(xi - yi);  // R_k = (X_k + conj X_j) / 2
  const V br = half(xi + yi), bi = half(yr - xr);  // B_k = (X_k - conj X_j) / (2i)
  const V p1r = rr * br - ri * bi, p1i = rr * bi + ri * br;  // R B
  const V p2r = br * br - bi * bi, p2i = br * bi + bi * br;  // B B
  qkr = p1r - p2i;  // Q_k = P1_k + i P2_k
  qki = p1i + p2r;
  qjr = p1r + p2i;  // Q_j = conj(P1_k) + i conj(P2_k)
  qji = p2r - p1i;
}

// The pairs (k, n - k) for k = 1, 5, 9, ... while disjoint, on AVX2 lanes; returns the first k not done.
template <typename T>
__attribute__((target("avx2"))) std::size_t joint_pairs_avx2(T* re, T* im, std::size_t n) {
  std::size_t k = 1;
  for (; 2 * k + 6 < n; k += 4) {
    const std::size_t j3 = n - k - 3;
    const auto xr = load_lanes(re + k), xi = load_lanes(im + k);
    const auto yr = reverse_lanes(load_lanes(re + j3)), yi = reverse_lanes(load_lanes(im + j3));
    decltype(load_lanes(re)) qkr, qki, qjr, qji;
    joint_pair(xr, xi, yr, yi, qkr, qki, qjr, qji);
    store_lanes(re + k, qkr);
    store_lanes(im + k, qki);
    store_lanes(re + j3, reverse_lanes(qjr));
    store_lanes(im + j3, reverse_lanes(qji));
  }
  return k;
}

// The work arrays of the transforms in precision T on this thread, shared by the real-input products and the joint
// products (which never run nested on one thread): the memory of the largest, not of their sum, and pages already
// faulted in are reused.
template <typename T>
ComplexArray<T>& fft_work_array(int which) {
  thread_local ComplexArray<T> arrays[2];
  return arrays[which];
}

// z_j = v_2j + i v_2j+1, zero-padded to length h: the half-length complex vector of a real-input transform.
template <typename T>
void pack_real_input(const std::vector<double>& v, std::size_t h, ComplexArray<T>& z) {
  z.re.assign(h, T(0));
  z.im.assign(h, T(0));
  for (std::size_t k = 0; k < v.size(); ++k) (k % 2 == 0 ? z.re : z.im)[k / 2] = v[k];
}

// a * b (b == nullptr: a * a) by the real-input FFT (docs/pld_accountant.md, 3, "Real-input products"): a and b
// zero-padded to n = 2^t >= max(m, 4), z_j = a_2j + i a_2j+1 (length N = n/2), Z = F_N z in precision T (likewise
// Z' from b; a squaring transforms once); A_k = E_k + w^k O_k (k = 0..N, w = e^{-2 pi i/n}, the twiddles of
// radix2_fft), E_k = (Z_k + conj Z_{N-k})/2, O_k = (Z_k - conj Z_{N-k})/(2i) (indices mod N), B_k from Z' likewise;
// S = A B; U'_k = (S_k + conj S_{N-k}) + i conj(w^k) (S_k - conj S_{N-k}) (k < N) = 2 F_N(c_even + i c_odd);
// c = unpack(conj(F_N) U' / n). Bounds (l2 over the n entries of the conjugate-symmetric full spectra, upper bounds
// throughout):
//   half transforms: ||Z~ - Z|| <= EZ = eF(N) sqrt(N) |a|_2 + 4 (t - 1) N eta0          (Higham 2002, Thm 24.2)
//   split:          ||A~ - A|| <= EA = sqrt(2) EZ + 2 eta_s (sqrt(N) |a|_2 + EZ) + 6 sqrt(n) eta0,
//                   eta_s = (mu + sqrt(2) gamma_2 (1 + mu)) (1 + u)^2 + 3u (one butterfly-like stage per entry);
//                   EB likewise from b (EB = EA for a squaring)
//   products:       X = EA (|b|_1 + EB) + |a|_1 EB, M = min(|a|_1 |b|_2, |a|_2 |b|_1) (|a|_1 |a|_2 for a squaring),
//                   D = X + sqrt(2) gamma_2 (sqrt(n) M + X) + sqrt(2n) eta0
//   inverse split:  ||U'~ - U'|| <= DU = sqrt(2) D + 2 eta_s (sqrt(n) M + D) + 3 sqrt(N) eta0, ||U'|| <= sqrt(2n) M
//   inverse:        ||c~ - c||_2 <= (eF(N) sqrt(N) (sqrt(2n) M + DU) + 4 (t - 1) N eta0 + sqrt(N) DU) / n + sqrt(n) eta0;
// l1 over the m kept entries <= sqrt(m) times it; rounding T to double adds u |c~|_1 + m eta0.
template <typename T>
double fft_real_product(const std::vector<double>& a, const std::vector<double>* b, std::vector<double>& conv) {
  const bool square = b == nullptr;
  const std::size_t m = conv.size();
  std::size_t n = 4;
  while (n < m) n *= 2;
  const std::size_t h = n / 2;
  charge_pld_work(square ? pld_fft_real_squaring_work(n, is_extended_precision<T>())
                         : pld_fft_real_product_work(n, is_extended_precision<T>()));
  ComplexArray<T>& z = fft_work_array<T>(0);
  pack_real_input(a, h, z);
  radix2_fft(z, false);
  ComplexArray<T>& zb = square ? z : fft_work_array<T>(1);
  if (!square) {
    pack_real_input(*b, h, zb);
    radix2_fft(zb, false);
  }
  const T* wr = nullptr;
  const T* wi = nullptr;
  twiddle_table<T>(n, wr, wi);  // w^k for k < N (w^N = -1 is used as the exact negation below)
  // The pairs (k, N - k) together (real_product_pairs, after these two); k = 0 pairs with N: A_0 = Re Z_0 + Im Z_0,
  // A_N = Re Z_0 - Im Z_0 (both real); k = N/2 pairs with itself.
  for (std::size_t k : {std::size_t{0}, h / 2}) {
    const std::size_t j = h - k, js = j & (h - 1);
    // A_k (and A_N or A_j) of one input's half spectrum.
    auto split = [&](const ComplexArray<T>& v, T& akr, T& aki, T& ajr, T& aji) {
      const T xr = v.re[k], xi = v.im[k], yr = v.re[js], yi = v.im[js];
      real_split(xr, xi, yr, yi, wr[k], wi[k], akr, aki);
      if (k == 0) {
        ajr = xr - xi;  // A_N = E_0 - O_0 (w^N = -1), E_0 = Re Z_0, O_0 = Im Z_0 exactly
        aji = T(0);
      } else {
        real_split(yr, yi, xr, xi, wr[j], wi[j], ajr, aji);
      }
    };
    T akr, aki, ajr, aji, bkr, bki, bjr, bji;
    split(z, akr, aki, ajr, aji);
    if (square) {
      bkr = akr, bki = aki, bjr = ajr, bji = aji;
    } else {
      split(zb, bkr, bki, bjr, bji);
    }
    const T skr = akr * bkr - aki * bki, ski = akr * bki + aki * bkr;  // S = A B
    const T sjr = ajr * bjr - aji * bji, sji = ajr * bji + aji * bjr;
    real_unsplit(skr, ski, sjr, sji, wr[k], wi[k], z.re[k], z.im[k]);
  }
  if (square)
    real_product_pairs<true>(z, z, wr, wi, h);
  else
    real_product_pairs<false>(z, zb, wr, wi, h);
  radix2_fft(z, true);
  const T scale = T(1) / static_cast<T>(n);  // a power of two: exact
  for (std::size_t k = 0; k < m; ++k)
    conv[k] = static_cast<double>((k % 2 == 0 ? z.re : z.im)[k / 2] * scale);

  const double uT = working_unit_roundoff<T>();
  const double eta0 = working_underflow_error<T>();
  const double t = portable::log2(static_cast<double>(n)), dn = static_cast<double>(n), sn = std::sqrt(dn);
  const double dh = static_cast<double>(h), sh = std::sqrt(dh), r2 = std::sqrt(2.0);
  const double eF = fft_error_factor<T>(h), mu = twiddle_error<T>();
  const double gamma2 = 2 * uT / (1 - 2 * uT);
  const double eta_s = (mu + r2 * gamma2 * (1 + mu)) * (1 + uT) * (1 + uT) + 3 * uT;
  const double under = 4 * (t - 1) * dh * eta0;
  auto split_error = [&](double v2) {  // EA from ||v||_2
    const double EZ = eF * sh * v2 + under;
    return r2 * EZ + 2 * eta_s * (sh * v2 + EZ) + 6 * sn * eta0;
  };
  const double a1 = l1(a), a2 = l2(a);
  const double b1 = square ? a1 : l1(*b), b2 = square ? a2 : l2(*b);
  const double EA = split_error(a2), EB = square ? EA : split_error(b2);
  const double M = square ? a1 * a2 : std::min(a1 * b2, a2 * b1);
  const double X = EA * (b1 + EB) + a1 * EB;
  const double D = X + r2 * gamma2 * (sn * M + X) + std::sqrt(2 * dn) * eta0;
  const double DU = r2 * D + 2 * eta_s * (sn * M + D) + 3 * sh * eta0;
  const double err2 = (eF * sh * (r2 * sn * M + DU) + under + sh * DU) / dn + sn * eta0;
  double err1 = std::sqrt(static_cast<double>(m)) * err2;
  if (is_extended_precision<T>())
    err1 += kU * l1(conv) + static_cast<double>(m) * eta0;
  // The double evaluation of this bound: a few dozen roundings, covered by the relative 1e-12.
  return err1 * (1 + 1e-12) + 1e-300;
}

// r * b and b * b together (docs/pld_accountant.md, 3, "Joint products"): x = r + i b zero-padded to n = 2^t >=
// both lengths, X = F x in precision T; R_k = (X_k + conj X_{n-k})/2 = F r, B_k = (X_k - conj X_{n-k})/(2i) = F b;
// Q = R B + i B B; y = conj(F) Q / n: Re y = r * b, Im y = b * b. Bounds (all in l2 over the n entries):
//   forward:    ||X~ - X|| <= E = eF sqrt(n) sqrt(|r|_2^2 + |b|_2^2) + 4 t n eta0          (Higham 2002, Thm 24.2)
//   separation: ||R~ - F r|| <= ER = E + u (sqrt(n) |r|_2 + E) + sqrt(2n) eta0 (linear map of norm <= 1, one
//               rounded add, halving exact but for underflow); EB likewise with |b|_2
//   products:   X1 = ER (|b|_1 + EB) + |r|_1 EB, X2 = EB (|b|_1 + EB) + |b|_1 EB; M1 = min(|r|_1|b|_2, |r|_2|b|_1),
//               M2 = |b|_1 |b|_2; Di = Xi + sqrt(2) gamma_2 (sqrt(n) Mi + Xi) + sqrt(2n) eta0  (Higham Lemma 3.5)
//   packing:    ||Q~ - Q|| <= DQ = D1 + D2 + u (sqrt(n) (M1 + M2) + D1 + D2)   (one rounded add per component)
//   inverse:    ||y~ - y|| <= (eF sqrt(n) (sqrt(n) (M1 + M2) + DQ) + 4 t n eta0 + sqrt(n) DQ) / n + sqrt(n) eta0,
// which bounds the real and the imaginary parts' errors each (|Re z|, |Im z| <= |z| entrywise); l1 over the m_i
// kept entries <= sqrt(m_i) times it; rounding T to double adds u |c~_i|_1 + m_i eta0. Upper bounds throughout.
template <typename T>
void fft_joint(const std::vector<double>& r, const std::vector<double>& b, std::vector<double>& rb,
               std::vector<double>& bb, double& err_rb, double& err_bb) {
  const std::size_t m1 = rb.size(), m2 = bb.size();
  std::size_t n = 1;
  while (n < std::max(m1, m2)) n *= 2;
  charge_pld_work(pld_fft_joint_products_work(n, is_extended_precision<T>()));
  ComplexArray<T>& x = fft_work_array<T>(0);
  x.re.assign(n, T(0));
  x.im.assign(n, T(0));
  std::copy(r.begin(), r.end(), x.re.begin());
  std::copy(b.begin(), b.end(), x.im.begin());
  radix2_fft(x, false);
  // Separation, products and packing, for k and n - k together (k = 0 and n/2 pair with themselves). The
  // computed R~_{n-k}, B~_{n-k} are exactly conj(R~_k), conj(B~_k) (negation is exact), so P~_{n-k} = conj(P~_k).
  // (joint_pair; k = 0 and n/2 pair with themselves; on AVX2 lanes where the CPU has them.)
  std::size_t k_first = 1;
  if (cpu_has_avx2()) k_first = joint_pairs_avx2(x.re.data(), x.im.data(), n);
  for (std::size_t k : {std::size_t{0}, n / 2}) {
    if (k == n / 2 && k == 0) continue;  // n = 1: index 0 only, done above
    T qkr, qki, qjr, qji;
    joint_pair(x.re[k], x.im[k], x.re[k], x.im[k], qkr, qki, qjr, qji);  // j = k
    x.re[k] = qkr;
    x.im[k] = qki;
  }
  for (std::size_t k = k_first; k < n / 2; ++k) {
    const std::size_t j = n - k;
    joint_pair(x.re[k], x.im[k], x.re[j], x.im[j], x.re[k], x.im[k], x.re[j], x.im[j]);
  }
  radix2_fft(x, true);
  const T scale = T(1) / static_cast<T>(n);  // a power of two: exact
  for (std::size_t k = 0; k < m1; ++k) rb[k] = static_cast<double>(x.re[k] * scale);
  for (std::size_t k = 0; k < m2; ++k) bb[k] = static_cast<double>(x.im[k] * scale);

  const double uT = working_unit_roundoff<T>();
  const double eta0 = working_underflow_error<T>();
  const double t = portable::log2(static_cast<double>(n)), dn = static_cast<double>(n), sn = std::sqrt(dn);
  const double eF = fft_error_factor<T>(n);
  const double r1 = l1(r), r2 = l2(r), b1 = l1(b), b2 = l2(b);
  const double under = 4 * t * dn * eta0;
  const double E = eF * sn * std::sqrt(r2 * r2 + b2 * b2) + under;
  const double ER = E + uT * (sn * r2 + E) + std::sqrt(2 * dn) * eta0;
  const double EB = E + uT * (sn * b2 + E) + std::sqrt(2 * dn) * eta0;
  const double gamma2 = 2 * uT / (1 - 2 * uT);
  const double M1 = std::min(r1 * b2, r2 * b1), M2 = b1 * b2;
  const double X1 = ER * (b1 + EB) + r1 * EB, X2 = EB * (b1 + EB) + b1 * EB;
  const double D1 = X1 + std::sqrt(2.0) * gamma2 * (sn * M1 + X1) + std::sqrt(2 * dn) * eta0;
  const double D2 = X2 + std::sqrt(2.0) * gamma2 * (sn * M2 + X2) + std::sqrt(2 * dn) * eta0;
  const double DQ = D1 + D2 + uT * (sn * (M1 + M2) + D1 + D2);
  const double err2 = (eF * sn * (sn * (M1 + M2) + DQ) + under + sn * DQ) / dn + sn * eta0;
  err_rb = std::sqrt(static_cast<double>(m1)) * err2;
  err_bb = std::sqrt(static_cast<double>(m2)) * err2;
  if (is_extended_precision<T>()) {
    err_rb += kU * l1(rb) + static_cast<double>(m1) * eta0;
    err_bb += kU * l1(bb) + static_cast<double>(m2) * eta0;
  }
  // The double evaluation of this bound: a few dozen roundings, covered by the relative 1e-12.
  err_rb = err_rb * (1 + 1e-12) + 1e-300;
  err_bb = err_bb * (1 + 1e-12) + 1e-300;
}

// a * a for a PLD whose mass is concentrated: a = b + t with b the entries of a window of W points holding all
// but <= 1/64 of the mass, t the rest (an exact partition). a * a = b * b + t * (2b + t) (2b + t is a with the
// window doubled: exact). b * b is convolved in double words on 2W points; t * (2b + t) in double, whose round-off
// bound (section 3) scales with ||t||_1 ||b||_2 + ||t||_2 ||a||_1 instead of ||a||_1 ||a||_2; one rounded
// addition per entry joins them (u ||c~||_1). Returns a negative number when no such window exists.
double square_concentrated(const std::vector<double>& a, std::vector<double>& conv) {
  const std::size_t na = a.size();
  std::vector<long double> prefix(na + 1, 0.0L);
  for (std::size_t k = 0; k < na; ++k) prefix[k + 1] = prefix[k] + a[k];
  const long double total = prefix[na];
  std::size_t width = 0, start = 0;
  for (std::size_t w = 256; 4 * w <= na && width == 0; w *= 2) {
    long double best = -1;
    std::size_t best_start = 0;
    for (std::size_t s = 0; s + w <= na; s += w / 8) {
      const long double in = prefix[s + w] - prefix[s];
      if (in > best) { best = in; best_start = s; }
    }
    if (total - best <= total / 64) { width = w; start = best_start; }
  }
  if (width == 0) return -1;
  std::vector<double> bulk(a.begin() + static_cast<std::ptrdiff_t>(start),
                           a.begin() + static_cast<std::ptrdiff_t>(start + width));
  std::vector<double> tail = a, doubled = a;
  for (std::size_t k = start; k < start + width; ++k) {
    tail[k] = 0;
    doubled[k] = 2 * a[k];
  }
  std::vector<double> bb(2 * width - 1);
  const double e_bulk = fft_real_product<Extended>(bulk, nullptr, bb);
  const double e_rest = fft_real_product<double>(tail, &doubled, conv);
  for (std::size_t k = 0; k < bb.size(); ++k) conv[2 * start + k] += bb[k];
  return e_bulk + e_rest + 2 * kU * l1(conv) + 1e-300;
}

}  // namespace

void apply_tilt(DiscretePld& d, double lambda, double tail) {
  if (!(lambda >= 0) || d.tilt != 0) throw std::invalid_argument("internal: apply_tilt needs lambda >= 0, once");
  if (lambda == 0) return;
  // No finite mass (all of it at +inf, e.g. a Laplace with sens/b beyond the double range): tilting is vacuous,
  // but the PLD is marked tilted so that it composes with the ledger's other (tilted) PLDs.
  if (d.p.empty()) {
    d.tilt = lambda;
    return;
  }
  // s_k = lambda (l_k - l_last) <= 0 (l_k - l_last exact on the dyadic grid), Z = sum p_k e^{s_k}; long double
  // (no underflow at these magnitudes), tilted p_k = p_k e^{s_k} / Z, log_scale = lambda l_last + log Z.
  const std::size_t n = d.p.size();
  const long double l_last = static_cast<long double>(d.offset + static_cast<std::int64_t>(n) - 1) * d.h;
  std::vector<long double> t(n);
  long double z = 0, smax = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const long double sk = lambda * (static_cast<long double>(static_cast<std::int64_t>(k) - static_cast<std::int64_t>(n - 1)) * d.h);
    smax = std::max(smax, -sk);
    t[k] = d.p[k] * portable::exp(sk);
    z += t[k];
  }
  if (!(z > 0)) {  // every finite mass is 0 (or below long double's range): nothing to tilt
    d.tilt = lambda;
    return;
  }
  for (std::size_t k = 0; k < n; ++k) d.p[k] = static_cast<double>(t[k] / z);
  d.tilt = lambda;
  d.log_scale = static_cast<double>(lambda * l_last + portable::log(z));
  // lambda l_last and log z in long double (a few u_ld each, log z also carries Z's n u_ld), rounded to double.
  d.log_scale_err = kU * std::abs(d.log_scale) + (static_cast<double>(n) + 8) * 0x1p-64 * (1 + std::abs(d.log_scale));
  // Relative error per tilted mass: the untilted mass's 8u (relative to its cell and its neighbour's, a factor
  // e^{lambda h} apart), the exponent's rounding u |s_k|, exp/division/Z (~ 4 u_ld + n u_ld), the rounding to
  // double (u); masses sum to ~1. The log_scale's own error is tracked in log_scale_err.
  d.err_l1 = (8 * kU * portable::exp(lambda * d.h) + static_cast<double>(smax) * 0x1p-63 +
              (static_cast<double>(n) + 8) * 0x1p-64 + kU) * (1 + 1e-12) + static_cast<double>(n) * 0x1p-1074 +
             4 * kU * static_cast<double>(portable::exp(-smax) / z);  // discretize's 2u at l_0, tilted
  truncate(d, tail);
}

double dyadic_grid(double h) {
  // A spacing beyond binary64 comes from a loss range that is (a mechanism with eps near 1e308): no grid holds it.
  if (h > 1e300)
    throw NotApplicable("accountant 'pld': the privacy loss range is beyond binary64 (a mechanism's epsilon near "
                        "1e308): no grid holds it; use rdp, pure or auto");
  if (!(h > 0) || !std::isfinite(h)) throw std::invalid_argument("internal: dyadic_grid needs h > 0");
  int e = 0;
  const double mant = std::frexp(h, &e);  // h = mant 2^e, mant in [0.5, 1)
  return std::ldexp(std::floor(mant * 16) / 16, e);
}

void check_grid_points(double points, double h) {
  if (points > static_cast<double>(kMaxGridPoints) || !std::isfinite(points))
    throw GridTooLarge("accountant 'pld': the loss range needs " + std::to_string(static_cast<long long>(
                           std::min(points, 9e18))) + " points on the grid " + std::to_string(h) +
                           " (limit " + std::to_string(kMaxGridPoints) + " points, about 100 MB)", points, h);
}

namespace {

// The optimistic (lower-bound) discretisation (docs/pld_accountant.md, 1): a pair dominated by the true one, on the
// grid, with (almost) no downward bias. Merging the outcomes of a cell [l_k, l_{k+1}) into one (a post-processing)
// gives an atom with P-mass Pc and Q-mass Qc, whose loss log(Pc/Qc) lies in the cell; any group of (fractions of)
// atoms whose merged loss is >= a grid point g may be placed at g with its P-mass (merging is a post-processing, and
// moving a loss down only lowers every hockey-stick divergence). Pseudo-atoms with P-mass Pc_lo <= Pc and Q-mass
// Qc_hi >= Qc (from the survival values' margin r) can only lower the bound further. So the cells are taken in
// order: the residual R of one cell (below the grid point g at its upper end) is joined with the fraction theta of
// the next cell B (at or above g) for which the group's merged loss is exactly g, P_R + theta P_B = e^g (Q_R +
// theta Q_B) (theta rounded up, the inequality checked with a margin for the long-double evaluation), and B's
// remainder becomes the next residual; where all of B cannot lift R (theta > 1: P's density falls from R's cell to
// B's), B joins the group whole and the next cell is tried, the target still g (at most kMaxJoinedCells cells,
// and not where R sits at the start of its cell, as a merged bulk does: there the fraction of R that B lifts goes to g
// and the rest of R, rounded down, to the start of its cell). So for smooth PLDs every group lands on its grid point
// exactly: the per-step bias of rounding every cell down (up to h; after 10^4 DP-SGD steps on a 4x
// coarser grid the lower bound was 3.36 for 5.19) disappears, and so does the bias of rounding down the part of a
// residual its successor could not lift (about h/70 a step for a rarely sampled Gaussian on cells a tenth of its
// spread, comparable to the spread after 10^6 steps: sigma 1, q 1e-5, 10^6 steps at delta 1e-5 had the lower
// bound 0.0179 for the upper 0.0429), leaving the second-order loss of merging.
// The most whole cells contract_cells_to_grid joins to a residual (each joined cell's outcomes then sit at the
// residual's target, up to kMaxJoinedCells cells below their own).
constexpr std::size_t kMaxJoinedCells = 4;

void contract_cells_to_grid(const std::vector<double>& sp, const std::vector<double>& sq, std::int64_t lo, double h,
                            double shift, double r, double finite, bool bulk_at_first, std::vector<double>& p) {
  const std::size_t n = sp.size();
  // The cells: Pc_lo = S_P(l_k)(1 - 2r) - S_P(l_{k+1})(1 + 2r), Qc_hi = S_Q(l_k)(1 + 2r) - S_Q(l_{k+1})(1 - 2r) (the extra
  // r covers the long-double arithmetic); the last cell is [l_{n-1}, inf). The mass below l_0 is dropped, unless
  // `bulk_at_first`: then the first cell is [lower end of the support, l_1) (S_P = finite, S_Q <= 1 at its start),
  // whose merged loss the caller placed l_0 at or below (bulk_atom_start).
  auto cell = [&](std::size_t k, long double& pc, long double& qc) {
    const bool bulk = bulk_at_first && k == 0;
    const long double p0 =
        bulk ? static_cast<long double>(finite) : std::min(static_cast<long double>(finite), static_cast<long double>(sp[k]));
    const long double q0 = bulk ? 1.0L : static_cast<long double>(sq[k]);
    const long double p1 = k + 1 < n ? static_cast<long double>(sp[k + 1]) : 0.0L;
    const long double q1 = k + 1 < n ? static_cast<long double>(sq[k + 1]) : 0.0L;
    pc = std::max(0.0L, p0 * (1 - 2 * r) - p1 * (1 + 2 * r));
    qc = std::max(0.0L, q0 * (1 + 2 * r) - q1 * (1 - 2 * r));
    // Near and below the smallest normal double the survival values lose their relative accuracy (S_Q at a loss of
    // 860 is about 1e-376 and underflows to 0, which would make the cell's loss look infinite and lift it above the
    // truth). There the cell's Q-mass is bounded through its P-mass instead: on the cell every outcome has loss >= l_k,
    // so Qc <= e^{-l_k} Pc <= e^{-l_k} Pc_hi (the merged loss is then at most the cell's start: no lift).
    if (static_cast<long double>(sq[k]) < 0x1p-960L) {
      const long double pc_hi = std::max(0.0L, p0 * (1 + 2 * r) - p1 * (1 - 2 * r));
      const long double lk = static_cast<long double>(lo + static_cast<std::int64_t>(k)) * h + shift;
      qc = std::max(qc, portable::exp(-lk) * pc_hi * (1 + 1e-15L));
    }
  };
  // e^{l} at a (shifted) grid point, an upper bound: long-double expl (a few ulps) times 1 + 1e-16.
  auto exp_up = [&](std::size_t k) {
    return portable::exp(static_cast<long double>(lo + static_cast<std::int64_t>(k)) * h + shift) * (1 + 1e-16L);
  };
  std::vector<long double> mass(n, 0.0L);
  // Residual R: the fraction of cell `rk` not yet placed, with its P- and Q-masses (lower and upper bounds); and the
  // whole cells J after it that joined R's group (`jn` of them, their masses summed), all at or above g = l_{rk+1}.
  bool have = false;
  std::size_t rk = 0, jn = 0;
  long double rp = 0, rq = 0, jp = 0, jq = 0;
  auto place = [&](std::size_t k, long double m) { mass[k] += m; };
  auto restart = [&](std::size_t k, long double p0, long double q0) { rk = k, rp = p0, rq = q0, jn = 0, jp = jq = 0; };
  // R to the start of its cell (rounded down) and J (each of its cells at or above g) to g.
  auto settle = [&] {
    place(rk, rp);
    if (jn > 0) place(rk + 1, jp);
  };
  for (std::size_t k = 0; k < n; ++k) {
    long double bp = 0, bq = 0;
    cell(k, bp, bq);
    if (!(bp > 0)) continue;  // no certified P-mass (the tails, or cancellation)
    if (!have) {
      have = true;
      restart(k, bp, bq);
      continue;
    }
    // R lies in cell rk; g = l_{rk+1} <= l_k, B's cell start, so B's merged loss is >= g (and J's).
    const long double eg = exp_up(rk + 1);
    // R: deficit (< 0 unless its loss is already >= g); J and B: excesses.
    const long double er = rp - eg * rq, ej = jp - eg * jq, eb = bp - eg * bq;
    // A bound on the rounding error of any P - e^g Q over fractions of R, J and B evaluated in long double (a few
    // u_ld of the magnitudes involved, which cancel to ~h of themselves, and one u_ld per cell summed into J): the
    // groups are built with twice this excess.
    const long double m = static_cast<long double>(16 + 2 * jn) * 0x1p-64L * (rp + jp + bp + eg * (rq + jq + bq));
    if (jn == 0 && er >= 2 * m) {  // R's own merged loss is >= g
      place(rk + 1, rp);
      restart(k, bp, bq);
      continue;
    }
    // Lifters (P-mass lp, Q-mass lq, excess el) that cannot lift all of R lift the fraction psi of it (rounded down)
    // to g with them, and the rest of R goes to the start of its cell; false (nothing placed) when the check fails.
    auto lift_part_of_r = [&](long double lp, long double lq, long double el) {
      const long double psi = std::min(1.0L, (el - 2 * m) / -er * (1 - 1e-15L));
      if (!(psi > 0 && psi * rp + lp - eg * (psi * rq + lq) >= m)) return false;
      place(rk + 1, psi * rp + lp);
      place(rk, (1 - psi) * (1 - 0x1p-60L) * rp);
      return true;
    };
    if (!(eb > 2 * m)) {  // B cannot lift anything: J lifts what it can of R (or R and J settle), B the next residual
      if (jn == 0 || !lift_part_of_r(jp, jq, ej)) settle();
      restart(k, bp, bq);
      continue;
    }
    const long double theta = (2 * m - er - ej) / eb * (1 + 1e-15L);
    if (theta <= 1) {  // R, J and the fraction theta of B merged at exactly g
      const long double gp = rp + jp + theta * bp, gq = rq + jq + theta * bq;
      if (gp - eg * gq >= m) {
        place(rk + 1, gp);
        const long double rest = (1 - theta) * (1 - 0x1p-60L);
        restart(k, rest * bp, rest * bq * (1 + 0x1p-60L));
        continue;
      }
    } else {
      // All of J and B cannot lift R to g (P's density falls from R's cell on). Where R's merged loss is more than
      // h/16 above its cell's start and J has fewer than kMaxJoinedCells cells, B joins J and the next cell is
      // tried: rounding the part of R they cannot lift down to l_rk would cost up to a cell for that mass (a
      // per-step bias of order h^2, about h/70 for a rarely sampled Gaussian on cells a tenth of its spread, which
      // 10^6 steps make comparable to the spread). Otherwise (R at the start of its cell, as a merged bulk is) J and B
      // lift the fraction psi of R (rounded down) to g, and the rest of R goes to the start of its cell.
      const long double l_r = portable::log(rp / rq);
      const long double l_start = static_cast<long double>(lo + static_cast<std::int64_t>(rk)) * h + shift;
      if (jn < kMaxJoinedCells && l_r - l_start > h / 16) {
        jp += bp, jq += bq, ++jn;
        continue;
      }
      if (lift_part_of_r(jp + bp, jq + bq, ej + eb)) {
        have = false;
        continue;
      }
    }
    // The check failed (rounding): R and J settle, B the next residual.
    settle();
    restart(k, bp, bq);
  }
  if (have) settle();
  // To double, rounded down (each placed P-mass is a lower bound: dropping mass only lowers every divergence).
  for (std::size_t k = 0; k < n; ++k) {
    const double v = static_cast<double>(mass[k]);
    p[k] = v > 0 ? std::nextafter(v, 0.0) : 0.0;
  }
}

// The optimistic grid's start for a step whose bulk is narrower than a cell (a rarely sampled Gaussian: almost all
// of P's mass within ~q of 0): the whole range [support_lo, a + h) is merged into one outcome (a post-processing)
// whose merged loss m(a + h) = log(P[L < a + h] / Q[L < a + h]) is >= a, and placed at a, the first grid point.
// Aligned with the support's lower end instead, that mass sat up to a cell below its merged loss: about m - l_0 per
// step (sigma 0.5, q 1e-5: ~1e-5 a step, 10 after 10^6 steps: the lower bound 0 for the upper 2.227). a is the
// fixed point of a <- m(a + h) (m is non-decreasing, so each iterate keeps m(a + h) >= a), evaluated from the same
// pseudo-cell bounds contract_cells_to_grid uses (P-mass from below, Q-mass from above: the certified m is lower)
// and rounded down to a multiple of h 2^-20 (the grid points l_k + shift stay exact). nullopt when the bulk is wide
// (P's mass within two cells of the support's start below one half: the cells pair well there) or the check fails.
std::optional<double> bulk_atom_start(const LossPair& pair, double h, double finite, double r) {
  if (!std::isfinite(pair.support_lo) || !(finite > 0)) return std::nullopt;
  double sp = 0, sq = 0;
  pair.survivals(pair.support_lo + 2 * h, sp, sq);
  if (!(sp < 0.5 * finite)) return std::nullopt;
  const double res = h * 0x1p-20;
  // The certified merged loss of [support_lo, c), from below.
  auto merged_lo = [&](double c) -> std::optional<long double> {
    double p = 0, q = 0;
    pair.survivals(c, p, q);
    const long double pc = static_cast<long double>(finite) * (1 - 2 * r) - static_cast<long double>(p) * (1 + 2 * r);
    const long double qc = 1.0L * (1 + 2 * r) - static_cast<long double>(q) * (1 - 2 * r);
    if (!(pc > 0) || !(qc > 0)) return std::nullopt;
    return portable::log(pc / qc) - 64 * 0x1p-64L - 1e-17L;  // the long-double log and division, a few u_ld
  };
  auto down = [&](long double m) { return std::floor(static_cast<double>(m) / res - 1) * res; };
  auto first = merged_lo(pair.support_lo + h);
  if (!first) return std::nullopt;
  double a = std::max(down(*first), std::floor(pair.support_lo / res) * res);
  for (int it = 0; it < 6; ++it) {
    const auto m = merged_lo(a + h);
    if (!m) return std::nullopt;
    const double next = down(*m);
    if (!(next > a)) break;
    a = next;
  }
  const auto check = merged_lo(a + h);
  if (!check || !(*check >= static_cast<long double>(a))) return std::nullopt;
  return a;
}

// s rounded down from the exact value s + e (e the exact error of an IEEE operation that returned s).
double rounded_down(double s, double e) { return e < 0 ? std::nextafter(s, -kInf) : s; }

// Masses rounded down with the exact mass they lose summed (TwoSum gives each rounding's error exactly; the loss of
// a rounded-down result is one step plus that error, summed in long double).
struct DownwardMasses {
  long double shortfall = 0;

  double down(double s, double e) {
    const double d = rounded_down(s, e);
    shortfall += static_cast<long double>(s - d) + e;  // s - d: zero or one step, exact
    return d;
  }
  // a - b for a >= b >= 0, rounded down.
  double sub(double a, double b) {
    double s, e;
    double_word::fast_two_sum(a, -b, s, e);
    return down(s, e);
  }
  // a + b for a, b >= 0, rounded down.
  double add(double a, double b) {
    double s, e;
    double_word::two_sum(a, b, s, e);
    return down(s, e);
  }
};

// a b for a, b in [0, 1], rounded down (Dekker's TwoProduct); 0 where the product is near the underflow threshold.
double product_down(double a, double b) {
  double p, e;
  double_word::two_prod(a, b, p, e);
  return p >= 0x1p-900 ? rounded_down(p, e) : 0.0;
}

}  // namespace

DiscretePld discretize(const LossPair& given, double h, double tail, bool pessimistic, double tilt) {
  if (!(h > 0) || dyadic_grid(h) != h) throw std::invalid_argument("internal: discretize needs a dyadic grid");
  const LossPair& pair = !pessimistic && given.optimistic ? *given.optimistic : given;
  DiscretePld d;
  d.h = h;
  d.pessimistic = pessimistic;
  const double finite = 1 - pair.p_inf;
  // One empty point beyond each end of a finite support: no atom sits on the first or last grid point, so the
  // optimistic rule (mass at the lower end of its cell) keeps an atom at the lower end of the support.
  const double hi_d = std::isfinite(pair.support_hi) ? std::ceil(pair.support_hi / h) + 1 : 0;
  const double lo_d = std::isfinite(pair.support_lo) ? std::floor(pair.support_lo / h) - 1 : 0;
  if (std::isfinite(pair.support_hi) && std::isfinite(pair.support_lo)) check_grid_points(hi_d - lo_d + 1, h);
  const std::int64_t hi = std::isfinite(pair.support_hi) ? static_cast<std::int64_t>(hi_d) : find_upper(pair, h, tail, tilt);
  check_grid_points(static_cast<double>(hi) - lo_d + 1, h);
  const double r = kSurvivalMargin;
  // A narrow bulk (optimistic only): the first grid point at its merged loss, everything below l_1 merged there.
  std::optional<double> bulk = pessimistic ? std::nullopt : bulk_atom_start(pair, h, finite, r);
  if (bulk && !(std::floor(*bulk / h) < static_cast<double>(hi - 1))) bulk.reset();
  const std::int64_t lo = bulk ? static_cast<std::int64_t>(std::floor(*bulk / h))
                               : std::min(std::isfinite(pair.support_lo) ? static_cast<std::int64_t>(lo_d)
                                                                         : find_lower(pair, h, tail, finite), hi - 1);
  check_grid_points(static_cast<double>(hi - lo + 1), h);
  const std::size_t n = static_cast<std::size_t>(hi - lo + 1);
  charge_pld_work(pld_discretisation_work(n));
  d.offset = lo;
  d.p.assign(n, 0.0);
  // The optimistic cells start at l_k + s, s in [0, h) a multiple of h/1024 (exact sums) with l_k + s at most h/1024
  // below the lower end of the support: mass concentrated just above it (a subsampled Gaussian's remove direction
  // at log(1 - q)) then sits at the start of its cell instead of up to one cell above it.
  if (bulk) {
    d.shift = *bulk - static_cast<double>(lo) * h;  // a multiple of h 2^-20 in [0, h): exact
  } else if (!pessimistic && std::isfinite(pair.support_lo)) {
    const double frac = pair.support_lo / h - std::floor(pair.support_lo / h);  // in [0, 1)
    d.shift = std::floor(frac * 1024) * (h / 1024);
  }
  // Survival values at the grid points l_k = (lo + k) h (exact: h is dyadic; plus the shift, exact too), and their
  // error bound r.
  // Each point on its own, so the two halves run on the two threads when the PLD's helper is free (pld_parallel.h):
  // the same values either way.
  std::vector<double> sp(n), sq(n);
  auto survival = [&](std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to; ++k) {
      pair.survivals(static_cast<double>(lo + static_cast<std::int64_t>(k)) * h + d.shift, sp[k], sq[k]);
    }
  };
  if (n >= 4096)
    run_pair([&] { survival(0, n / 2); }, [&] { survival(n / 2, n); });
  else
    survival(0, n);
  if (!pessimistic) {
    contract_cells_to_grid(sp, sq, lo, h, d.shift, r, finite, bulk.has_value(), d.p);
    d.p_inf = pair.p_inf;
    d.err_l1 = 8 * kU * (1 + static_cast<double>(n) * 1e-300) + 2 * kU;
    return d;
  }
  // The P-survival used: moved by r in the safe direction and made monotone (pessimistic: >= the exact one).
  std::vector<double> su(n);
  const double up = pessimistic ? 1 + r : 1 - r;
  for (std::size_t k = 0; k < n; ++k) su[k] = std::min(finite, sp[k] * up);
  for (std::size_t k = 1; k < n; ++k) su[k] = std::min(su[k], su[k - 1]);
  const long double spread = -portable::expm1(-static_cast<long double>(h));  // 1 - e^{-h}
  // Slack of the long-double evaluation of w below: ~10 roundings of size u_ld relative to 1/spread.
  const long double w_slack = 64 * 0x1p-64L / spread;
  // e^{l_k} by e_{k+1} = e_k e^h in long double, re-anchored by expl every 64 points: relative error below 8 u_ld
  // (the anchor, taken as 4 ulp) + 63 x 2 u_ld (e^h and each product) < 140 u_ld = 7.6e-18, inside the factor
  // 1 - 1e-15 applied to rho below (docs/pld_accountant.md, 1).
  const long double up_step = portable::exp(static_cast<long double>(h));
  long double e_l = 0;
  // An untilted pass rounds every mass down and moves the exact shortfall to +inf: a mass moved to a larger loss
  // only raises delta(eps) at every eps, and composition keeps that order, so the step needs no float64 error
  // bound (err_l1 = 0; docs/pld_accountant.md, 1, "Rounding"). A tilted pass keeps the bound instead: there the
  // L1 error counts tilted and p_inf untilted.
  const bool to_infinity = tilt == 0;
  DownwardMasses downward;
  for (std::size_t k = 0; k + 1 < n; ++k) {
    if (pessimistic)
      e_l = k % 64 == 0 ? portable::exp(static_cast<long double>(lo + static_cast<std::int64_t>(k)) * h) : e_l * up_step;
    const double pc = su[k] - su[k + 1];
    if (pc <= 0) continue;
    double w = 0;  // share of the cell's P-mass at its upper end
    if (pessimistic) {
      // Connect-the-dots: w* = (1 - rho)/(1 - e^{-h}), rho = e^{l} Qc/Pc (the cell's Q-mass preserved). Any
      // w >= w* still dominates (docs/pld_accountant.md, 1), so rho is bounded below from the r-bounds on the
      // survival values: Qc >= sq_k (1 - 2r) - sq_{k+1} (1 + 2r), Pc <= sp_k (1 + 2r) - sp_{k+1} (1 - 2r).
      const long double qlo = static_cast<long double>(sq[k]) * (1 - 2 * r) -
                              static_cast<long double>(sq[k + 1]) * (1 + 2 * r);
      const long double phi = static_cast<long double>(sp[k]) * (1 + 2 * r) -
                              static_cast<long double>(sp[k + 1]) * (1 - 2 * r);
      const long double rho = qlo > 0 && phi > 0 ? qlo / phi * e_l * (1 - 1e-15L) : 0.0L;
      w = static_cast<double>(std::clamp((1 - rho) / spread + w_slack, 0.0L, 1.0L));
      if (w < 1) w = std::nextafter(w, 2.0);
    }
    if (to_infinity) {
      // The cell's mass pc and the lower end's share (1 - w) pc rounded down; the upper end gets what remains of
      // pc, rounded down (a share moved from the lower end to the upper one, or to +inf, only moves mass up).
      const double pc_down = downward.sub(su[k], su[k + 1]);
      double one_minus_w, e;
      double_word::fast_two_sum(1.0, -w, one_minus_w, e);
      // Rounding (1 - w) and the product down moves mass from the lower end to the upper one, not out of the cell.
      const double lower = product_down(rounded_down(one_minus_w, e), pc_down);
      const double upper = downward.sub(pc_down, lower);
      d.p[k] = downward.add(d.p[k], lower);
      d.p[k + 1] = downward.add(d.p[k + 1], upper);
      continue;
    }
    d.p[k] += (1 - w) * pc;
    d.p[k + 1] += w * pc;
  }
  const double below = finite - su[0], above = su[n - 1];
  if (pessimistic && to_infinity) {
    // The mass below l_0, 1 - p_inf - su_0, rounded down onto l_0; everything short goes to +inf with p_inf.
    double one_minus_inf, e1;
    double_word::fast_two_sum(1.0, -pair.p_inf, one_minus_inf, e1);  // 1 - p_inf = one_minus_inf + e1 exactly
    const double lower_total = downward.down(one_minus_inf, e1);
    // (Where su_0 exceeds it by a rounding, the cells carry up to that much more than the finite mass: more mass
    // only raises delta.)
    if (lower_total > su[0]) d.p[0] = downward.add(d.p[0], downward.sub(lower_total, su[0]));
    // The shortfall's long-double sum (non-negative terms, one rounding each, n u_ld relative at most over the
    // sum's terms, fewer than 2^23 for at most 2^20 points): 1e-9 relative and one tiny absolute step cover it.
    const double shortfall = static_cast<double>(std::max(0.0L, downward.shortfall) * (1 + 1e-9L)) + 0x1p-1070;
    d.p_inf = std::nextafter(std::nextafter(pair.p_inf + above, kInf) + shortfall, kInf);
    d.err_l1 = 0;
    return d;
  }
  if (pessimistic) {
    d.p[0] += std::max(0.0, below);
    d.p_inf = pair.p_inf + above;
  } else {
    d.p[n - 1] += std::max(0.0, above);
    d.p_inf = pair.p_inf;
  }
  // Each mass is a difference and a product of float64 numbers: a few ulps each (the margins cover the
  // survival-function errors themselves); the mass below l_0, 1 - p_inf - su_0, is known only to 2u absolutely
  // (survival values near 1).
  d.err_l1 = 8 * kU * (1 + static_cast<double>(n) * 1e-300) + 2 * kU;
  return d;
}

namespace {

// The composition's bookkeeping before its convolution: grid, tilt, scale and offset of a * b.
DiscretePld composition_frame(const DiscretePld& a, const DiscretePld& b) {
  if (a.h != b.h || a.pessimistic != b.pessimistic || a.tilt != b.tilt)
    throw std::invalid_argument("internal: compose of mismatched PLDs");
  DiscretePld out;
  out.h = a.h;
  out.pessimistic = a.pessimistic;
  out.tilt = a.tilt;
  out.log_scale = a.log_scale + b.log_scale;
  out.log_scale_err = a.log_scale_err + b.log_scale_err + kU * std::abs(out.log_scale);
  out.offset = a.offset + b.offset;
  out.shift = a.shift + b.shift;  // multiples of h/1024: exact; rounded down otherwise (moves optimistic mass down)
  if (out.shift - a.shift != b.shift) out.shift = std::nextafter(out.shift, -kInf);
  check_grid_points(static_cast<double>(a.p.size() + b.p.size() - 1), a.h);
  return out;
}

// After the convolution `conv` of a.p and b.p (round-off bound conv_err): clamping, propagation of the inputs'
// errors, the +inf atom and the truncation of the tails.
void finish_composition(DiscretePld& out, const DiscretePld& a, const DiscretePld& b, std::vector<double>&& conv,
                        double conv_err, double tail) {
  // Negative round-off values are clamped (the exact values are >= 0, so this only reduces the error).
  for (double& v : conv) v = std::max(0.0, v);
  out.p = std::move(conv);
  // Propagation: ||a~*b~ - a*b||_1 <= ea ||b~||_1 + eb ||a||_1 <= ea ||b~||_1 + eb (||a~||_1 + ea) (Young).
  out.err_l1 = (conv_err + a.err_l1 * l1(b.p) + b.err_l1 * (l1(a.p) + a.err_l1)) * (1 + 4 * kU);
  // +inf atoms: P(L_a + L_b = inf) = 1 - (1 - pa)(1 - pb), rounded in the safe direction.
  const double pinf = a.p_inf + b.p_inf - a.p_inf * b.p_inf;
  out.p_inf = a.pessimistic ? pinf * (1 + 4 * kU) : pinf * (1 - 4 * kU);
  truncate(out, tail);
}

// Below this many points in either operand, the direct convolution is used.
constexpr std::size_t kDirectMax = 64;

}  // namespace

double fft_square(const std::vector<double>& a, bool extended, std::vector<double>& conv) {
  if (a.empty()) throw std::invalid_argument("internal: fft_square needs a nonempty input");
  conv.assign(2 * a.size() - 1, 0.0);
  return extended ? fft_real_product<Extended>(a, nullptr, conv) : fft_real_product<double>(a, nullptr, conv);
}

void set_pld_simd_passes(bool enabled) { simd_passes = enabled; }

double fft_product(const std::vector<double>& a, const std::vector<double>& b, bool extended, std::vector<double>& conv) {
  if (a.empty() || b.empty()) throw std::invalid_argument("internal: fft_product needs nonempty inputs");
  conv.assign(a.size() + b.size() - 1, 0.0);
  return extended ? fft_real_product<Extended>(a, &b, conv) : fft_real_product<double>(a, &b, conv);
}

JointProducts fft_joint_products(const std::vector<double>& r, const std::vector<double>& b, bool extended) {
  if (r.empty() || b.empty()) throw std::invalid_argument("internal: fft_joint_products needs nonempty inputs");
  JointProducts j;
  j.rb.assign(r.size() + b.size() - 1, 0.0);
  j.bb.assign(2 * b.size() - 1, 0.0);
  if (extended)
    fft_joint<Extended>(r, b, j.rb, j.bb, j.err_rb, j.err_bb);
  else
    fft_joint<double>(r, b, j.rb, j.bb, j.err_rb, j.err_bb);
  return j;
}

DiscretePld compose(const DiscretePld& a, const DiscretePld& b, double tail, bool extended) {
  DiscretePld out = composition_frame(a, b);
  std::vector<double> conv(a.p.size() + b.p.size() - 1);
  double err = 0;
  if (std::min(a.p.size(), b.p.size()) <= kDirectMax) {
    charge_pld_work(pld_direct_convolution_work(a.p.size(), b.p.size()));
    // Direct convolution: each output is a sum of at most min(na, nb) nonnegative products, accumulated in
    // that order: relative error <= gamma_{min+1} (Higham 2002, eq. (3.4)); taken as 2 (min + 1) u.
    for (std::size_t i = 0; i < a.p.size(); ++i)
      for (std::size_t j = 0; j < b.p.size(); ++j) conv[i + j] += a.p[i] * b.p[j];
    err = 2 * static_cast<double>(std::min(a.p.size(), b.p.size()) + 1) * kU * l1(a.p) * l1(b.p);
  } else {
    const bool squaring = &a == &b;
    err = extended && squaring ? square_concentrated(a.p, conv) : -1;
    const std::vector<double>* other = squaring ? nullptr : &b.p;  // section 3, "Real-input products"
    if (err < 0)
      err = extended ? fft_real_product<Extended>(a.p, other, conv) : fft_real_product<double>(a.p, other, conv);
  }
  finish_composition(out, a, b, std::move(conv), err, tail);
  return out;
}

DiscretePld coarsen_optimistic(const DiscretePld& d) {
  if (d.pessimistic) throw std::invalid_argument("internal: coarsen_optimistic needs an optimistic PLD");
  DiscretePld out = d;
  out.h = 2 * d.h;
  const std::size_t n = d.p.size();
  if (n == 0) return out;
  // Fine point i = offset + k (loss i h, plus the shift) lies in the coarse cell j = floor(i / 2), whose point
  // 2 j h is at or below it (floor division, negative indices included).
  auto coarse_of = [](std::int64_t i) { return i >= 0 ? i / 2 : -((-i + 1) / 2); };
  const std::int64_t first = coarse_of(d.offset), last = coarse_of(d.offset + static_cast<std::int64_t>(n) - 1);
  const std::size_t m = static_cast<std::size_t>(last - first + 1);
  charge_pld_work(4.0 * static_cast<double>(n) + 10.0);
  out.offset = first;
  out.p.assign(m, 0.0);
  // Masses in common units u_i = p_i e^{-t (l_i - l_0)} (the tilted masses untilted up to one constant factor;
  // t = 0: the masses themselves); l without the shift, which cancels in every comparison below.
  const long double t = d.tilt, h = d.h;
  const long double l0 = static_cast<long double>(d.offset) * h;
  auto loss = [&](std::int64_t i) { return static_cast<long double>(i) * h; };
  auto units = [&](std::size_t k) {
    return static_cast<long double>(d.p[k]) * (t == 0 ? 1.0L : portable::exp(-t * (loss(d.offset + static_cast<std::int64_t>(k)) - l0)));
  };
  // The fine points of coarse cell c: indices into d.p (one or two).
  auto points = [&](std::size_t c, std::size_t& k0, std::size_t& k1) {
    const std::int64_t i0 = std::max<std::int64_t>(2 * (first + static_cast<std::int64_t>(c)), d.offset);
    const std::int64_t i1 = std::min<std::int64_t>(2 * (first + static_cast<std::int64_t>(c)) + 1,
                                                   d.offset + static_cast<std::int64_t>(n) - 1);
    k0 = static_cast<std::size_t>(i0 - d.offset);
    k1 = static_cast<std::size_t>(i1 - d.offset);
  };
  std::vector<long double> u(n);
  for (std::size_t k = 0; k < n; ++k) u[k] = units(k);
  // A cell's P (u-units) and its excess over the coarse point g: sum u_i (1 - e^{g - l_i}) (>= 0 iff its merged
  // loss is >= g), with the magnitude of the terms for the rounding margin.
  auto cell_p = [&](std::size_t c) {
    std::size_t k0 = 0, k1 = 0;
    points(c, k0, k1);
    long double s = 0;
    for (std::size_t k = k0; k <= k1; ++k) s += u[k];
    return s;
  };
  auto excess = [&](std::size_t c, long double g, long double& magnitude) {
    std::size_t k0 = 0, k1 = 0;
    points(c, k0, k1);
    long double s = 0;
    for (std::size_t k = k0; k <= k1; ++k) {
      const long double e = portable::exp(g - loss(d.offset + static_cast<std::int64_t>(k)));
      s += u[k] * (1 - e);
      magnitude += u[k] * (1 + e);
    }
    return s;
  };
  auto coarse_loss = [&](std::size_t c) { return static_cast<long double>(2 * (first + static_cast<std::int64_t>(c))) * h; };
  // The stored error err_l1 (tilted units) moves a group's excess by at most err e^{-t (g - 2h - l_0)} (1 + e^{2h})
  // (its points lie at or above g - 2h): every lift keeps twice that margin, so it holds for the exact masses too.
  auto err_margin = [&](long double g) {
    return static_cast<long double>(d.err_l1) * portable::exp(-t * (g - 2 * h - l0)) * (1 + portable::exp(2 * h)) * 1.01L;
  };
  std::vector<long double> mass(m, 0.0L);
  bool have = false;
  std::size_t rk = 0;
  long double rf = 1;  // the fraction of cell rk not yet placed
  for (std::size_t c = 0; c < m; ++c) {
    const long double bp = cell_p(c);
    if (!(bp > 0)) continue;
    if (!have) {
      have = true, rk = c, rf = 1;
      continue;
    }
    const long double g = coarse_loss(rk + 1);
    long double mag = 0;
    const long double rp = rf * cell_p(rk);
    const long double er = rf * excess(rk, g, mag);
    const long double eb = excess(c, g, mag);
    const long double margin = 16 * 0x1p-64L * mag + err_margin(g);
    if (er >= 2 * margin) {
      mass[rk + 1] += rp;
      rk = c, rf = 1;
      continue;
    }
    if (!(eb > 2 * margin)) {
      mass[rk] += rp;
      rk = c, rf = 1;
      continue;
    }
    const long double theta = (2 * margin - er) / eb * (1 + 1e-15L);
    if (theta <= 1) {
      if (er + theta * eb >= margin) {
        mass[rk + 1] += rp + theta * bp;
        rk = c, rf = (1 - theta) * (1 - 0x1p-60L);
        continue;
      }
    } else {
      const long double psi = (eb - 2 * margin) / -er * (1 - 1e-15L);
      if (psi > 0 && psi * er + eb >= margin) {
        mass[rk + 1] += psi * rp + bp;
        mass[rk] += (1 - psi) * (1 - 0x1p-60L) * rp;
        have = false;
        continue;
      }
    }
    mass[rk] += rp;  // the check failed: the residual at the start of its cell
    rk = c, rf = 1;
  }
  if (have) mass[rk] += rf * cell_p(rk);
  // Back to tilted masses at the coarse points (a factor e^{t (L - l_i)} <= 1 of each source mass: the map is an
  // l1 contraction, so err_l1 carries over), rounded down; plus the round-off of the sums.
  long double total = 0;
  for (std::size_t c = 0; c < m; ++c) {
    const long double v = mass[c] * (t == 0 ? 1.0L : portable::exp(t * (coarse_loss(c) - l0)));
    const double dv = static_cast<double>(v);
    out.p[c] = dv > 0 ? std::nextafter(dv, 0.0) : 0.0;
    total += v;
  }
  out.err_l1 = d.err_l1 + 32 * kU * static_cast<double>(total) + static_cast<double>(m) * 0x1p-1074;
  return out;
}

// The size a block of self_compose_widening may reach on a grid finer than the target before it is contracted.
constexpr std::size_t kWideningPoints = std::size_t{1} << 19;

double standard_deviation_in_cells(const DiscretePld& d) {
  long double m = 0, s1 = 0, s2 = 0;
  for (std::size_t k = 0; k < d.p.size(); ++k) {
    const long double x = static_cast<long double>(k), w = d.p[k];
    m += w, s1 += w * x, s2 += w * x * x;
  }
  if (!(m > 0)) return std::numeric_limits<double>::quiet_NaN();
  const long double mean = s1 / m;
  return static_cast<double>(std::sqrt(std::max(0.0L, s2 / m - mean * mean)));
}

double bulk_spread_in_cells(const DiscretePld& d) {
  long double m = 0;
  for (const double w : d.p) m += w;
  if (!(m > 0)) return 0;
  long double run = 0;
  std::size_t q1 = 0, q3 = 0;
  bool have_q1 = false;
  for (std::size_t k = 0; k < d.p.size(); ++k) {
    run += d.p[k];
    if (!have_q1 && run >= 0.25L * m) q1 = k, have_q1 = true;
    if (run >= 0.75L * m) {
      q3 = k;
      break;
    }
  }
  return static_cast<double>(q3 - q1) / 1.349;
}

namespace {

// The k-fold self-composition by repeated squaring shared by self_compose and self_compose_widening. An error or a
// truncated mass in a block of 2^j steps is replicated about k / 2^j times in the result, so blocks with a large
// replication factor use 80-bit FFTs and proportionally smaller truncation tails. `widening` (optimistic `a`, grid
// finer than target_h): before each squaring the block is contracted onto 2x coarser grids while it outgrows
// kWideningPoints (a quarter of that once its bulk spans 256 cells: a contraction's bias is replicated by every
// later squaring, and it is small only where the bulk spans many cells), the result is brought to the block's grid
// before each product, and ends on target_h.
DiscretePld self_compose_blocks(const DiscretePld& a, std::int64_t k, double tail, bool widening, double target_h) {
  auto widen = [&](DiscretePld& d, double to) {
    while (d.h < to) d = coarsen_optimistic(d);
  };
  DiscretePld result;
  bool have = false;
  DiscretePld base = a;
  std::int64_t block = 1;
  while (k >= block) {
    const double factor = static_cast<double>(k) / static_cast<double>(block);
    const double factor2 = static_cast<double>(k) / static_cast<double>(2 * block);
    const bool squares = 2 * block <= k;
    // Both result * base and base * base are due, by FFT, and the squaring is not an extended one (those keep
    // square_concentrated): one joint forward and inverse transform (section 3, "Joint products"), in long
    // double if either product needs it. (Not while widening: the block may be contracted between the two.)
    if (!widening && (k & block) && have && squares && factor2 < kExtendedFactor &&
        std::min(result.p.size(), base.p.size()) > kDirectMax) {
      DiscretePld rb = composition_frame(result, base), bb = composition_frame(base, base);
      JointProducts j = fft_joint_products(result.p, base.p, factor >= kExtendedFactor);
      finish_composition(rb, result, base, std::move(j.rb), j.err_rb, tail / factor);
      finish_composition(bb, base, base, std::move(j.bb), j.err_bb, tail / factor2);
      result = std::move(rb);
      base = std::move(bb);
      block *= 2;
      continue;
    }
    if (k & block) {
      if (have && widening) widen(result, base.h);
      result = have ? compose(result, base, tail / factor, factor >= kExtendedFactor) : base;
      have = true;
    }
    if (!squares) break;
    if (widening)
      while (base.h < target_h && (2 * base.p.size() > kWideningPoints ||
                                   (8 * base.p.size() > kWideningPoints && bulk_spread_in_cells(base) >= 256)))
        base = coarsen_optimistic(base);
    base = compose(base, base, tail / factor2, factor2 >= kExtendedFactor);
    block *= 2;
  }
  if (widening) widen(result, target_h);
  return result;
}

}  // namespace

DiscretePld self_compose(const DiscretePld& a, std::int64_t k, double tail) {
  if (k < 1) throw std::invalid_argument("internal: self_compose needs k >= 1");
  return self_compose_blocks(a, k, tail, false, a.h);
}

DiscretePld self_compose_widening(const DiscretePld& a, std::int64_t k, double target_h, double tail) {
  if (k < 1) throw std::invalid_argument("internal: self_compose_widening needs k >= 1");
  if (a.pessimistic || !(target_h >= a.h)) throw std::invalid_argument("internal: self_compose_widening's grids");
  return self_compose_blocks(a, k, tail, true, target_h);
}

double pld_delta(const DiscretePld& d, double eps_in) {
  // A shifted (optimistic) PLD at eps is the unshifted one at eps - shift, rounded up (a larger argument only lowers
  // the lower bound).
  const double eps = d.shift == 0 ? eps_in : std::nextafter(eps_in - d.shift, kInf);
  long double s = 0, term_err = 0;
  std::size_t terms = 0;
  const std::size_t n = d.p.size();
  auto loss = [&](std::size_t k) { return static_cast<double>(d.offset + static_cast<std::int64_t>(k)) * d.h; };  // exact
  // The first point above eps (l_k exact on the dyadic grid: the guess is corrected by exact comparisons).
  const double guess = std::floor(eps / d.h) - static_cast<double>(d.offset) - 1;
  std::size_t first = guess <= 0 ? 0 : guess >= static_cast<double>(n) ? n : static_cast<std::size_t>(guess);
  while (first > 0 && loss(first - 1) > eps) --first;
  while (first < n && loss(first) <= eps) ++first;
  // x_k = e^{eps - l_k} upwards from the first point by x_{k+1} = x_k e^{-h} (long double), re-anchored by a direct
  // expl every 64 points. Its relative error is below u (l_k - eps) (the anchor's argument eps - l_a, rounded to
  // double, with l_a <= l_k) + 8 u_ld (expl, taken as 4 ulp) + 63 x 9 u_ld (e^{-h} and each product), so 1 - x_k
  // (clamped at 0: the exact value is positive) is off by at most u (l_k - eps) + 600 u_ld absolutely: inside the
  // per-term charge below, which budgets u (l_k - eps) + 3u for the argument, the exponential and the product.
  const long double down = portable::exp(-static_cast<long double>(d.h));
  long double x = 1;
  for (std::size_t k = first; k < n; ++k) {
    const double l = loss(k);
    x = (k - first) % 64 == 0 ? portable::exp(static_cast<long double>(eps - l)) : x * down;
    ++terms;
    // The true mass p_k e^{log_scale - tilt l_k}: the exponent is off by <= log_scale_err + u_ld |arg| (long
    // double), so the mass by a relative <= 1.01 (log_scale_err + u_ld |arg|) + u_ld (these are <= 1e-6).
    const long double arg = static_cast<long double>(d.log_scale) - static_cast<long double>(d.tilt) * l;
    const long double mass = d.tilt == 0 ? static_cast<long double>(d.p[k]) : d.p[k] * portable::exp(arg);
    s += mass * std::max(0.0L, 1 - x);
    // Per term: eps - l_k rounded (abs <= u |eps - l_k|, the exponential's derivative <= 1 there), the exponential
    // (2u budgeted; the recursion above stays below 600 u_ld = 0.03u), the product (u); and the true mass's
    // relative error from the exponent.
    const long double rel = d.tilt == 0 ? 0.0L : 1.01L * (d.log_scale_err + 0x1p-63L * std::abs(arg)) + 0x1p-63L;
    term_err += mass * (static_cast<long double>(kU) * (l - eps + 4) + rel);
  }
  // Charged after the sum (its length is known only now): one call overshoots a limit by at most 2^21 terms.
  charge_pld_work((d.tilt == 0 ? 20.0 : 60.0) * static_cast<double>(terms) + 10.0);
  const double sum = static_cast<double>(s) + d.p_inf;
  // The l1 error of the tilted masses, untilted at the smallest loss summed (l > eps: e^{-tilt l} <= e^{-tilt eps}).
  const double err_scale =
      d.tilt == 0 ? 1.0
                  : static_cast<double>(portable::exp(static_cast<long double>(d.log_scale) + d.log_scale_err -
                                                 static_cast<long double>(d.tilt) * eps) * (1 + 1e-12L));
  // The long-double sum of `terms` nonnegative terms: <= terms u_ld s (Higham 2002, eq. (4.4)); two roundings
  // to double: 2u sum.
  const double err = d.err_l1 * err_scale + static_cast<double>(term_err) * (1 + 1e-12) +
                     (static_cast<double>(terms) * 0x1p-64 + 2 * kU) * (sum + 1e-300) + 1e-300;
  return d.pessimistic ? std::min(1.0, (sum + err) * (1 + 2 * kU)) : std::max(0.0, (sum - err) * (1 - 2 * kU));
}

namespace {

// An estimate (not a bound) of the eps at which an untilted PLD's delta(eps) = sum_{l_k > eps} p_k (1 - e^{eps -
// l_k}) + p_inf reaches `delta`, from one pass down from the top of the support: for eps in [l_{k-1}, l_k) the sum
// is A_k - e^{eps - l_k} B_k with A_k = sum_{j >= k} p_j, B_k = sum_{j >= k} p_j e^{l_k - l_j} (B_k = p_k + e^{-h}
// B_{k+1}), so the crossing solves e^{eps - l_k} = (A_k + p_inf - delta') / B_k, delta' = delta less the error
// budget. A multiply-add per point instead of an expm1 per point per delta evaluation; NaN when not usable.
double epsilon_estimate(const DiscretePld& d, double delta) {
  const long double target = static_cast<long double>(delta) - d.err_l1 - d.p_inf;
  if (d.tilt != 0 || !(target > 0) || d.p.empty()) return std::numeric_limits<double>::quiet_NaN();
  const long double decay = portable::exp(-static_cast<long double>(d.h));
  long double a = 0, b = 0;
  for (std::size_t k = d.p.size(); k-- > 0;) {
    const double l = static_cast<double>(d.offset + static_cast<std::int64_t>(k)) * d.h;
    a += d.p[k];
    b = d.p[k] + decay * b;
    // delta at eps = l_{k-1} (just below l_k) from the terms j >= k; at or above the target: the crossing is in
    // [l_{k-1}, l_k) (or below 0 when l_k <= 0).
    if (a - decay * b >= target || l + d.shift - d.h <= 0) {
      if (!(b > 0) || !(a > target)) return std::numeric_limits<double>::quiet_NaN();
      const double eps = static_cast<double>(static_cast<long double>(l) + d.shift + portable::log((a - target) / b));
      return std::max(0.0, eps);
    }
  }
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

double pld_epsilon(const DiscretePld& d, double delta) {
  // The top of the support (a shifted optimistic PLD's losses are l_k + shift; pld_delta takes the true eps).
  double hi = static_cast<double>(d.offset + static_cast<std::int64_t>(d.p.size())) * d.h + d.shift;
  if (!(hi > 0)) hi = d.h;
  if (d.pessimistic || d.tilt == 0) {
    // The certified upper delta(eps) is non-increasing in eps: the smallest eps meeting delta, by the Illinois
    // method on log delta(eps) - log delta (smooth between grid points, so a few steps), falling back to bisection
    // whenever a step is not well inside the bracket. Only values whose certified delta meets the target are
    // kept at `hi`, so the answer is certified whatever the steps are. The first bracket is set around
    // epsilon_estimate (two certified evaluations, widened x16 while they do not bracket), else [0, top].
    // The untilted optimistic PLD takes the same steps and returns `lo` instead: every value kept there has a
    // certified lower delta above the target, so it is below the true epsilon whatever the steps are (its error
    // term barely depends on eps, so the crossing is as smooth; about 5 sums instead of ~50 bisections).
    double lo = 0, d_lo = 1, d_hi = 1;
    bool bracketed = false;
    const double est = epsilon_estimate(d, delta);
    if (est > 0 && est < hi) {
      for (double w = 1e-13 * std::max(est, d.h); w < hi; w *= 16) {
        const double a = std::max(0.0, est - w), b = std::min(hi, est + w);
        const double vb = pld_delta(d, b);
        if (vb > delta) continue;
        const double va = pld_delta(d, a);
        if (va <= delta) {
          if (a == 0) return 0.0;  // pessimistic: 0 meets delta; optimistic: no certified positive lower bound
          continue;
        }
        lo = a, hi = b, d_lo = va, d_hi = vb, bracketed = true;
        break;
      }
    }
    if (!bracketed) {  // no bracket from the estimate: the whole support
      d_lo = pld_delta(d, 0.0);
      if (d_lo <= delta) return 0.0;
      d_hi = pld_delta(d, hi);
      // Pessimistic: the +inf atom and the error budget exceed delta. Optimistic: the top is a lower bound.
      if (d_hi > delta) return d.pessimistic ? kInf : hi;
    }
    const double target = portable::log(delta);
    double f_lo = portable::log(d_lo) - target, f_hi = d_hi > 0 ? portable::log(d_hi) - target : -kInf;
    int side = 0;
    for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; ++it) {
      double mid = 0.5 * (lo + hi);
      if (std::isfinite(f_lo) && std::isfinite(f_hi) && f_lo != f_hi) {
        const double s = lo - f_lo * (hi - lo) / (f_hi - f_lo);
        const double margin = 1e-3 * (hi - lo);
        if (s > lo + margin && s < hi - margin) mid = s;
      }
      if (!(mid > lo && mid < hi)) break;
      const double v = pld_delta(d, mid);
      const double f = v > 0 ? portable::log(v) - target : -kInf;
      if (v <= delta) {
        hi = mid, f_hi = f;
        if (side == 1) f_lo /= 2;  // Illinois: the other end stayed twice
        side = 1;
      } else {
        lo = mid, f_lo = f;
        if (side == -1) f_hi /= 2;
        side = -1;
      }
    }
    return d.pessimistic ? hi : lo;
  }
  // The certified lower delta(eps) of a tilted PLD (sum minus an error that grows as eps decreases) need not be
  // monotone: any eps with lower delta(eps) > delta is below the true epsilon. Scan from the top for the largest
  // such eps, then bisect up to the previous scanned point. The scan first approaches the top geometrically
  // (distances hi/256 2^-j): under a large tilt the error grows like e^{tilt (hi - eps)}, so the usable eps may lie
  // within one uniform step of the top (a single Laplace with b = 0.1 at delta 1e-12), then takes 256 uniform
  // steps down to 0.
  constexpr int scan = 256;
  double lo = -1, up = hi;
  std::vector<double> points;
  for (int j = 40; j >= 1; --j) points.push_back(hi - std::ldexp(hi / scan, -j));
  for (int i = scan - 1; i >= 0; --i) points.push_back(hi * i / scan);
  for (const double e : points) {
    if (!(e < up)) continue;
    if (pld_delta(d, e) > delta) { lo = e; break; }
    up = e;
  }
  if (lo < 0) return 0.0;
  for (int it = 0; it < 200 && up - lo > 1e-15 * up; ++it) {
    const double mid = 0.5 * (lo + up);
    if (!(mid > lo && mid < up)) break;
    if (pld_delta(d, mid) > delta) lo = mid; else up = mid;
  }
  return lo;
}

}  // namespace dpl
