// SPDX-License-Identifier: Apache-2.0
// No fused multiply-adds: the error model of Higham's Thm 24.2 is the one of separately rounded operations.
#pragma GCC optimize("fp-contract=off")

#include "accounting/pld/radix2_fft.h"

#include "accounting/numeric/portable_math.h"
#include "accounting/numeric/double_word.h"
#include "accounting/pld/double_word_lanes.h"
#include "accounting/pld/pld_parallel.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace dpl {

namespace {

// cos and sin of 2 pi k / N for the first octant (0 < k <= N/8) in long double. The angle 2pi_ld * (k/N) with k/N
// exact has error <= 2^-63 theta <= 8.5e-20 (theta <= pi/4); portable::sin_cos_octant (Taylor polynomials, IEEE
// operations only: the same bits on every CPU) adds at most 2 u_ld = 1.1e-19 to each.
void octant_cos_sin(std::uint64_t k, std::uint64_t n, long double& c, long double& s) {
  constexpr long double kTwoPi = 6.283185307179586476925286766559005768L;
  const long double theta = kTwoPi * (static_cast<long double>(k) / static_cast<long double>(n));
  portable::sin_cos_octant(theta, s, c);
}

// The first-octant values for the largest length used so far, shared by every thread and both precisions: each
// value is computed once per process (it was once per thread, precision and stage). The octant of length n is the
// even-indexed half of that of 2n (k/n = 2k/2n exactly: the same angle, the same value), so growing it evaluates
// only the odd indices. Guarded by a mutex; read only while it is held.
struct OctantTable {
  std::mutex mutex;
  std::uint64_t n = 1;                      // covers lengths up to n (a power of two)
  std::vector<long double> c{1}, s{0};      // index k <= n/8 (k = 0: the angle 0, exactly)
  void ensure(std::uint64_t size) {
    if (size <= n) return;
    for (std::uint64_t m = 2 * n; m / 2 < size; m *= 2) {
      std::vector<long double> c2(m / 8 + 1), s2(m / 8 + 1);
      for (std::uint64_t k = 0; k <= m / 8; ++k) {
        if (k % 2 == 0) {
          c2[k] = c[k / 2];
          s2[k] = s[k / 2];
        } else {
          octant_cos_sin(k, m, c2[k], s2[k]);
        }
      }
      c.swap(c2);
      s.swap(s2);
      n = m;
    }
  }
};
OctantTable& octant_table() {
  static OctantTable table;
  return table;
}

// cos and sin of 2 pi k / N (0 <= k <= N/2, N a power of two <= the table's length) from the first octant only:
// cos(pi - x) = -cos x, sin(pi - x) = sin x; cos(pi/2 - x) = sin x.
void cos_sin(std::uint64_t k, std::uint64_t n, const OctantTable& table, long double& c, long double& s) {
  if (4 * k > n) {  // beyond pi/2
    cos_sin(n / 2 - k, n, table, c, s);
    c = -c;
    return;
  }
  if (8 * k > n) {  // beyond pi/4
    long double c2, s2;
    cos_sin(n / 4 - k, n, table, c2, s2);
    c = s2;
    s = c2;
    return;
  }
  const std::uint64_t at = k * (table.n / n);
  c = table.c[at];
  s = table.s[at];
}

// Twiddles of every stage, concatenated: stage with half-length L (L = 1, 2, 4, ...) uses w_k = e^{-2 pi i k/(2L)},
// k < L, stored at index L - 1 + k. The table for length n is a prefix of the table for 2n, so one table grows.
template <typename T>
struct TwiddleTable {
  std::vector<T> re, im, conj_im;  // conj_im = -im (exact), for the inverse transform
  std::size_t n = 1;  // covers transforms up to this length
  void ensure(std::size_t size) {
    if (size <= n) return;
    OctantTable& octant = octant_table();
    const std::lock_guard<std::mutex> lock(octant.mutex);
    octant.ensure(size);
    re.resize(size - 1);
    im.resize(size - 1);
    conj_im.resize(size - 1);
    for (std::size_t half = n; half < size; half *= 2)
      for (std::size_t k = 0; k < half; ++k) {
        long double c, s;
        cos_sin(k, 2 * half, octant, c, s);
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

// The bit-reversal permutation x[i] <-> x[rev(i)] of a power-of-two length n (moves only). For n >= 2^(2q) by
// tiles: an index with bits (a, m, b), a and b of q bits, goes to (rev b, rev m, rev a), so the tile {(a, m, b)} of
// 2^q rows of 2^q contiguous elements is exchanged with the tile of rev m through a buffer, each row a cache line
// or two, instead of one element at a time over the whole array. Elements are moved as bytes (memcpy): a long double
// copied through the x87 stack costs a slow 80-bit store.
template <typename T>
void bit_reverse(T* x, std::size_t n) {
  struct Raw { unsigned char bytes[sizeof(T)]; };
  auto move = [](void* to, const void* from) { std::memcpy(to, from, sizeof(T)); };
  constexpr unsigned q = 4;
  constexpr std::size_t side = std::size_t{1} << q;
  if (n < side * side) {
    for (std::size_t i = 1, j = 0; i < n; ++i) {
      std::size_t bit = n >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      if (i < j) {
        Raw t;
        move(&t, x + i), move(x + i, x + j), move(x + j, &t);
      }
    }
    return;
  }
  static constexpr unsigned char rev_q[side] = {0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15};
  const std::size_t mids = n / (side * side);  // 2^(t - 2q) values of m
  const std::size_t stride = n / side;         // distance between the rows a and a + 1
  Raw tile1[side * side], tile2[side * side];
  for (std::size_t m = 0, rm = 0; m < mids; ++m) {
    if (m > 0) {  // rm = rev(m) over t - 2q bits, incremented in reverse
      std::size_t bit = mids >> 1;
      for (; rm & bit; bit >>= 1) rm ^= bit;
      rm ^= bit;
    }
    if (rm < m) continue;  // exchanged already, from the tile of rm
    T* base1 = x + (m << q);
    T* base2 = x + (rm << q);
    for (std::size_t a = 0; a < side; ++a) std::memcpy(tile1 + a * side, base1 + a * stride, side * sizeof(T));
    if (rm != m)
      for (std::size_t a = 0; a < side; ++a) std::memcpy(tile2 + a * side, base2 + a * stride, side * sizeof(T));
    // Row r = rev b, column c = rev a of the destination, written row by row.
    for (std::size_t r = 0; r < side; ++r)
      for (std::size_t c = 0; c < side; ++c) move(base2 + r * stride + c, tile1 + rev_q[c] * side + rev_q[r]);
    if (rm != m)
      for (std::size_t r = 0; r < side; ++r)
        for (std::size_t c = 0; c < side; ++c) move(base1 + r * stride + c, tile2 + rev_q[c] * side + rev_q[r]);
  }
}

typedef double Double2 __attribute__((vector_size(16)));

// (DoubleWord4, four double-word numbers on AVX2 lanes: accounting/pld/double_word_lanes.h. Its loads put the
// elements in the lane order 0, 2, 1, 3; the only code here that mixes lanes, first_two_stages' transpose, accounts
// for it.)

// W consecutive elements as V (T itself for W = 1, else a GCC vector of W doubles, or DoubleWord4), unaligned.
template <typename V, typename T>
[[gnu::always_inline]] inline V load(const T* p) {
  if constexpr (std::is_same_v<V, DoubleWord4>) {
    return load_lanes(p);
  } else if constexpr (std::is_same_v<V, T>) {
    return *p;  // (a copy of 16 bytes would stall on an x87 10-byte store)
  } else {
    V v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
  }
}
template <typename V, typename T>
[[gnu::always_inline]] inline void store(T* p, V v) {
  if constexpr (std::is_same_v<V, DoubleWord4>) {
    store_lanes(p, v);
  } else if constexpr (std::is_same_v<V, T>)
    *p = v;
  else
    __builtin_memcpy(p, &v, sizeof v);
}

// The butterfly y_top = a + w b, y_bot = a - w b, w b = (wr br - wi bi, wr bi + wi br), on W lanes at once (V is T
// for W = 1, else a GCC vector of W doubles whose +, -, * are lane-wise IEEE operations): the same operations, in the
// same order and on the same operands, as one scalar butterfly per lane. No FMA: fp-contract is off and the vector
// code is compiled for SSE2 or AVX2 only (no FMA instruction set).
template <typename V>
[[gnu::always_inline]] inline void butterfly(V wr, V wi, V& ar, V& ai, V& br, V& bi) {
  const V tr = wr * br - wi * bi;
  const V ti = wr * bi + wi * br;
  br = ar - tr;
  bi = ai - ti;
  ar = ar + tr;
  ai = ai + ti;
}

// One stage of half-length L (L a multiple of the lane count W) on len elements (a multiple of 2L).
template <typename V, typename T>
[[gnu::always_inline]] inline void radix2_stage(T* __restrict xr, T* __restrict xi, const T* __restrict wr,
                                                const T* __restrict wi, std::size_t len, std::size_t L) {
  constexpr std::size_t W = sizeof(V) / sizeof(T);
  for (std::size_t s = 0; s < len; s += 2 * L)
    for (std::size_t k = 0; k < L; k += W) {
      V ar = load<V>(xr + s + k), ai = load<V>(xi + s + k);
      V br = load<V>(xr + s + k + L), bi = load<V>(xi + s + k + L);
      butterfly(load<V>(wr + k), load<V>(wi + k), ar, ai, br, bi);
      store(xr + s + k, ar), store(xi + s + k, ai);
      store(xr + s + k + L, br), store(xi + s + k + L, bi);
    }
}

// The two stages of half-lengths L and 2L (L a multiple of W) on len elements (a multiple of 4L) in one pass: for
// each k < L, the four elements k, k + L, k + 2L, k + 3L of a block of 4L get stage L's butterflies (k, k + L) and
// (k + 2L, k + 3L) with w_L[k], then stage 2L's (k, k + 2L) with w_2L[k] and (k + L, k + 3L) with w_2L[k + L]:
// exactly the butterflies of the two radix-2 stages, each element's operations unchanged.
// Two consecutive radix-2 stages on the four elements p, p + d, p + 2d, p + 3d (W lanes each): the stage of
// half-length L with twiddle w1, then the stage of half-length 2L with twiddles w2 and w2 + L (the same butterflies
// as two separate passes).
template <typename V, typename T>
[[gnu::always_inline]] inline void two_stages_at(T* pr, T* pi, std::size_t d, const T* w1r, const T* w1i,
                                                 const T* w2r, const T* w2i, std::size_t L) {
  V a0r = load<V>(pr), a0i = load<V>(pi), a1r = load<V>(pr + d), a1i = load<V>(pi + d);
  V a2r = load<V>(pr + 2 * d), a2i = load<V>(pi + 2 * d), a3r = load<V>(pr + 3 * d), a3i = load<V>(pi + 3 * d);
  const V wr = load<V>(w1r), wi = load<V>(w1i);
  butterfly(wr, wi, a0r, a0i, a1r, a1i);
  butterfly(wr, wi, a2r, a2i, a3r, a3i);
  butterfly(load<V>(w2r), load<V>(w2i), a0r, a0i, a2r, a2i);
  butterfly(load<V>(w2r + L), load<V>(w2i + L), a1r, a1i, a3r, a3i);
  store(pr, a0r), store(pi, a0i), store(pr + d, a1r), store(pi + d, a1i);
  store(pr + 2 * d, a2r), store(pi + 2 * d, a2i), store(pr + 3 * d, a3r), store(pi + 3 * d, a3i);
}

template <typename V, typename T>
[[gnu::always_inline]] inline void radix4_stages(T* __restrict xr, T* __restrict xi, const T* __restrict w1r,
                                                 const T* __restrict w1i, const T* __restrict w2r,
                                                 const T* __restrict w2i, std::size_t len, std::size_t L) {
  constexpr std::size_t W = sizeof(V) / sizeof(T);
  for (std::size_t s = 0; s < len; s += 4 * L)
    for (std::size_t k = 0; k < L; k += W)
      two_stages_at<V>(xr + s + k, xi + s + k, L, w1r + k, w1i + k, w2r + k, w2i + k, L);
}

// Stages 1 and 2 on len elements (a multiple of 4 W). Stage 1 (w = 1): w b = (1 br - 0 bi, 1 bi + 0 br) = b exactly,
// so its multiplication is skipped (bit-identical results, same error analysis); stage 2 multiplies by its table
// twiddles w2 = (w_2[0], w_2[1]) like every later stage. With W lanes, W groups of 4 elements are transposed so that
// lane i holds group i (moves only), transformed lane-wise, and transposed back.
template <std::size_t W, typename V>
[[gnu::always_inline]] inline void transpose(V (&v)[4]) {
  if constexpr (std::is_same_v<V, DoubleWord4>) {
    // Lanes hold the elements 0, 2, 1, 3 of their four (load): after transposing both parts, v[j] holds position
    // 0, 2, 1, 3 of every group for j = 0, 1, 2, 3; swapping v[1] and v[2] gives the positions in order.
    Double4 h[4] = {v[0].hi, v[1].hi, v[2].hi, v[3].hi}, l[4] = {v[0].lo, v[1].lo, v[2].lo, v[3].lo};
    transpose<4>(h);
    transpose<4>(l);
    v[0] = {h[0], l[0]}, v[1] = {h[2], l[2]}, v[2] = {h[1], l[1]}, v[3] = {h[3], l[3]};
  } else if constexpr (W == 4) {  // 4 groups of 4: a 4 x 4 transpose
    typedef long long Mask __attribute__((vector_size(32)));
    const V t0 = __builtin_shuffle(v[0], v[1], Mask{0, 4, 2, 6}), t1 = __builtin_shuffle(v[0], v[1], Mask{1, 5, 3, 7});
    const V t2 = __builtin_shuffle(v[2], v[3], Mask{0, 4, 2, 6}), t3 = __builtin_shuffle(v[2], v[3], Mask{1, 5, 3, 7});
    v[0] = __builtin_shuffle(t0, t2, Mask{0, 1, 4, 5});
    v[1] = __builtin_shuffle(t1, t3, Mask{0, 1, 4, 5});
    v[2] = __builtin_shuffle(t0, t2, Mask{2, 3, 6, 7});
    v[3] = __builtin_shuffle(t1, t3, Mask{2, 3, 6, 7});
  } else if constexpr (W == 2) {  // 2 groups of 4 in v = (g0 01, g0 23, g1 01, g1 23)
    typedef long long Mask __attribute__((vector_size(16)));
    const V a0 = __builtin_shuffle(v[0], v[2], Mask{0, 2}), a1 = __builtin_shuffle(v[0], v[2], Mask{1, 3});
    const V a2 = __builtin_shuffle(v[1], v[3], Mask{0, 2}), a3 = __builtin_shuffle(v[1], v[3], Mask{1, 3});
    v[0] = a0, v[1] = a1, v[2] = a2, v[3] = a3;
  }
}
template <std::size_t W, typename V>
[[gnu::always_inline]] inline void untranspose(V (&v)[4]) {
  if constexpr (std::is_same_v<V, DoubleWord4>) {  // the inverse of transpose's swap, then its transposes
    Double4 h[4] = {v[0].hi, v[2].hi, v[1].hi, v[3].hi}, l[4] = {v[0].lo, v[2].lo, v[1].lo, v[3].lo};
    transpose<4>(h);
    transpose<4>(l);
    for (int j = 0; j < 4; ++j) v[j] = {h[j], l[j]};
  } else if constexpr (W == 2) {  // element j of groups 0, 1 in v[j], back to the memory order
    typedef long long Mask __attribute__((vector_size(16)));
    const V g001 = __builtin_shuffle(v[0], v[1], Mask{0, 2}), g101 = __builtin_shuffle(v[0], v[1], Mask{1, 3});
    const V g023 = __builtin_shuffle(v[2], v[3], Mask{0, 2}), g123 = __builtin_shuffle(v[2], v[3], Mask{1, 3});
    v[0] = g001, v[1] = g023, v[2] = g101, v[3] = g123;
  } else {
    transpose<W>(v);  // the 4 x 4 transpose is its own inverse; nothing to do for W = 1
  }
}

template <typename V, typename T>
[[gnu::always_inline]] inline void first_two_stages(T* __restrict xr, T* __restrict xi, const T* __restrict w2r,
                                                    const T* __restrict w2i, std::size_t len) {
  constexpr std::size_t W = sizeof(V) / sizeof(T);
  if constexpr (W > 1)
    if (len < 4 * W) return first_two_stages<T>(xr, xi, w2r, w2i, len);
  V w0r{}, w0i{}, w1r{}, w1i{};  // w_2[0], w_2[1] in every lane
  if constexpr (std::is_same_v<V, DoubleWord4>) {
    auto broadcast = [](const DoubleWord& w) {
      return DoubleWord4{Double4{w.hi, w.hi, w.hi, w.hi}, Double4{w.lo, w.lo, w.lo, w.lo}};
    };
    w0r = broadcast(w2r[0]), w0i = broadcast(w2i[0]), w1r = broadcast(w2r[1]), w1i = broadcast(w2i[1]);
  } else for (std::size_t i = 0; i < W; ++i) {
    if constexpr (W == 1) {
      w0r = w2r[0], w0i = w2i[0], w1r = w2r[1], w1i = w2i[1];
    } else {
      w0r[i] = w2r[0], w0i[i] = w2i[0], w1r[i] = w2r[1], w1i[i] = w2i[1];
    }
  }
  for (std::size_t s = 0; s < len; s += 4 * W) {
    V a[4], b[4];
    for (std::size_t j = 0; j < 4; ++j) a[j] = load<V>(xr + s + j * W), b[j] = load<V>(xi + s + j * W);
    transpose<W>(a);
    transpose<W>(b);
    for (int j = 0; j < 4; j += 2) {
      const V ar = a[j], ai = b[j], br = a[j + 1], bi = b[j + 1];
      a[j] = ar + br;
      b[j] = ai + bi;
      a[j + 1] = ar - br;
      b[j + 1] = ai - bi;
    }
    butterfly(w0r, w0i, a[0], b[0], a[2], b[2]);
    butterfly(w1r, w1i, a[1], b[1], a[3], b[3]);
    untranspose<W>(a);
    untranspose<W>(b);
    for (std::size_t j = 0; j < 4; ++j) store(xr + s + j * W, a[j]), store(xi + s + j * W, b[j]);
  }
}

// Elements per block for the small stages: stages of half-length < kBlock run block by block (a block of re and im
// stays in the level-1 cache), the larger ones two per pass over the array. A power of 4.
constexpr std::size_t kBlock = std::size_t{1} << 10;

// Up to this length the stages beyond the blocks run directly on the array, beyond it by column groups.
constexpr std::size_t kDirect = 4 * kBlock;

// Columns per group in the large stages: 256 bytes of T, four cache lines (measured: faster than one or two lines at
// n = 2^14 .. 2^20, e.g. 2^17 0.69 -> 0.56 ns per n log2 n in double; the buffer is n / 16 elements, 512 KB at 2^20).
template <typename T>
constexpr std::size_t kColumns = 256 / sizeof(T);

// The stages of half-lengths L = B, 2B, ..., n/2 (B = kBlock < n): they pair only elements whose indices agree mod B,
// so they run column group by column group: the R = n/B rows of kColumns consecutive residues c0, c0 + 1, ... mod B
// are copied to a contiguous buffer (row r = elements c0 + r B + e, e < kColumns), all the large stages run there
// (two per pass: radix4_stages on rows; element c0 + e + r B of a block of 4L has twiddle index L - 1 + c0 + e + r B),
// and the rows are copied back: one pass over the array instead of one per two stages, and no cache-set conflicts
// between power-of-two strides. The butterflies and their operands are those of the stage-by-stage order.
// Only the column groups c0 = g C, g in [g_begin, g_end), run (each group's stages touch only its own columns).
template <typename V, typename T>
[[gnu::always_inline]] inline void large_stages(T* xr, T* xi, const T* wr, const T* wi, std::size_t n, T* br, T* bi,
                                                std::size_t g_begin, std::size_t g_end) {
  constexpr std::size_t W = sizeof(V) / sizeof(T), C = kColumns<T>, B = kBlock;
  const std::size_t R = n / B;
  for (std::size_t c0 = g_begin * C; c0 < g_end * C; c0 += C) {
    for (std::size_t r = 0; r < R; ++r) {  // moves as bytes (no x87 80-bit stores for long double)
      std::memcpy(br + r * C, xr + c0 + r * B, C * sizeof(T));
      std::memcpy(bi + r * C, xi + c0 + r * B, C * sizeof(T));
    }
    std::size_t Lr = 1;  // half-length in rows: L = Lr B
    for (; 4 * Lr <= R; Lr *= 4) {
      const std::size_t L = Lr * B;
      const T* w1r = wr + L - 1 + c0;
      const T* w1i = wi + L - 1 + c0;
      const T* w2r = wr + 2 * L - 1 + c0;
      const T* w2i = wi + 2 * L - 1 + c0;
      for (std::size_t s = 0; s < R; s += 4 * Lr)
        for (std::size_t r = 0; r < Lr; ++r)
          for (std::size_t e = 0; e < C; e += W) {
            const std::size_t k = r * B + e;  // the element's offset in its block of 4L, minus c0
            two_stages_at<V>(br + (s + r) * C + e, bi + (s + r) * C + e, Lr * C /* L in the buffer */, w1r + k,
                             w1i + k, w2r + k, w2i + k, L);
          }
    }
    if (2 * Lr <= R) {  // an odd number of large stages: the last one alone
      const std::size_t L = Lr * B, d = Lr * C;
      const T* w1r = wr + L - 1 + c0;
      const T* w1i = wi + L - 1 + c0;
      for (std::size_t r = 0; r < Lr; ++r)
        for (std::size_t e = 0; e < C; e += W) {
          T* pr = br + r * C + e;
          T* pi = bi + r * C + e;
          V ar = load<V>(pr), ai = load<V>(pi), b_r = load<V>(pr + d), b_i = load<V>(pi + d);
          butterfly(load<V>(w1r + r * B + e), load<V>(w1i + r * B + e), ar, ai, b_r, b_i);
          store(pr, ar), store(pi, ai), store(pr + d, b_r), store(pi + d, b_i);
        }
    }
    for (std::size_t r = 0; r < R; ++r) {
      std::memcpy(xr + c0 + r * B, br + r * C, C * sizeof(T));
      std::memcpy(xi + c0 + r * B, bi + r * C, C * sizeof(T));
    }
  }
}

// Which stages a call runs: all of them, or (n > kDirect, for two threads) the small stages of the blocks [begin,
// end) or the large stages of the column groups [begin, end). Every block's small stages must be done before any
// large stage starts; within a part, blocks (and column groups) touch disjoint elements.
struct StagePart {
  enum Kind { all, blocks, columns } kind = all;
  std::size_t begin = 0, end = 0;
};

// All stages of a transform of length n >= 4 (already bit-reversed), lanes V, or the part `part` of them. wr, wi: the
// concatenated twiddle table (stage of half-length L at index L - 1). br, bi: buffers of n / kBlock * kColumns<T>
// elements when n > kDirect.
template <typename V, typename T>
[[gnu::always_inline]] inline void all_stages(T* xr, T* xi, const T* wr, const T* wi, std::size_t n, T* br, T* bi,
                                              StagePart part) {
  const std::size_t block = n < kBlock ? n : kBlock;
  if (part.kind != StagePart::columns) {
    const std::size_t b0 = part.kind == StagePart::all ? 0 : part.begin * block;
    const std::size_t b1 = part.kind == StagePart::all ? n : part.end * block;
    for (std::size_t b = b0; b < b1; b += block) {
      first_two_stages<V>(xr + b, xi + b, wr + 1, wi + 1, block);
      for (std::size_t L = 4; 4 * L <= block; L *= 4)
        radix4_stages<V>(xr + b, xi + b, wr + L - 1, wi + L - 1, wr + 2 * L - 1, wi + 2 * L - 1, block, L);
    }
    if (part.kind == StagePart::blocks) return;
  }
  if (n > kDirect) {
    const bool all = part.kind == StagePart::all;
    large_stages<V>(xr, xi, wr, wi, n, br, bi, all ? 0 : part.begin, all ? kBlock / kColumns<T> : part.end);
    return;
  }
  std::size_t L = 4;  // the first half-length the blocks did not cover
  while (4 * L <= block) L *= 4;
  // Short transforms (L2-resident, at most one pass left): the remaining stages directly, two per pass.
  for (; 4 * L <= n; L *= 4)
    radix4_stages<V>(xr, xi, wr + L - 1, wi + L - 1, wr + 2 * L - 1, wi + 2 * L - 1, n, L);
  if (2 * L <= n) radix2_stage<V>(xr, xi, wr + L - 1, wi + L - 1, n, L);
}

template <typename T>
void stages_scalar(T* xr, T* xi, const T* wr, const T* wi, std::size_t n, T* br, T* bi, StagePart part) {
  all_stages<T>(xr, xi, wr, wi, n, br, bi, part);
}

void stages_sse2(double* xr, double* xi, const double* wr, const double* wi, std::size_t n, double* br,
                 double* bi, StagePart part) {
  all_stages<Double2>(xr, xi, wr, wi, n, br, bi, part);
}

__attribute__((target("avx2"))) void stages_avx2(double* xr, double* xi, const double* wr, const double* wi,
                                                 std::size_t n, double* br, double* bi, StagePart part) {
  all_stages<Double4>(xr, xi, wr, wi, n, br, bi, part);
}

__attribute__((target("avx2"))) void stages_double_word_avx2(DoubleWord* xr, DoubleWord* xi, const DoubleWord* wr,
                                                              const DoubleWord* wi, std::size_t n, DoubleWord* br,
                                                              DoubleWord* bi, StagePart part) {
  all_stages<DoubleWord4>(xr, xi, wr, wi, n, br, bi, part);
}

// From this length on, a transform runs its stages in two halves on two threads when the PLD's helper thread is
// free (pld_parallel.h): the blocks' small stages, then the column groups' large stages. Each half runs exactly
// the butterflies it ran in one piece, so the outputs are bit-identical.
constexpr std::size_t kTwoThreadLength = std::size_t{1} << 15;

// The transform with the double butterflies on AVX2 lanes (avx2 = true, the CPU must have AVX2) or SSE2 lanes.
template <typename T>
void transform(ComplexArray<T>& x, bool inverse, bool avx2) {
  const std::size_t n = x.re.size();
  if (n == 0 || (n & (n - 1)) != 0 || n > (std::size_t{1} << 30) || x.im.size() != n)
    throw std::invalid_argument("internal: radix2_fft needs a power-of-two length");
  // Bit-reversal permutation (exact: moves only).
  bit_reverse(x.re.data(), n);
  bit_reverse(x.im.data(), n);
  TwiddleTable<T>& tw = twiddles<T>();
  tw.ensure(n);
  T* xr = x.re.data();
  T* xi = x.im.data();
  const T* wr = tw.re.data();
  const T* wi = inverse ? tw.conj_im.data() : tw.im.data();
  thread_local std::vector<T> buffer;  // the column groups of large_stages (a second set for the other thread)
  const std::size_t rows = n > kDirect ? n / kBlock : 0;
  if (buffer.size() < 4 * rows * kColumns<T>) buffer.resize(4 * rows * kColumns<T>);
  T* buf_r = buffer.data();
  T* buf_i = buf_r + rows * kColumns<T>;
  auto stages = [&](StagePart part, T* br, T* bi) {
    if constexpr (std::is_same_v<T, double>) {
      if (avx2)
        stages_avx2(xr, xi, wr, wi, n, br, bi, part);
      else
        stages_sse2(xr, xi, wr, wi, n, br, bi, part);
    } else if constexpr (std::is_same_v<T, DoubleWord>) {
      if (avx2)
        stages_double_word_avx2(xr, xi, wr, wi, n, br, bi, part);
      else
        stages_scalar(xr, xi, wr, wi, n, br, bi, part);
    } else {
      stages_scalar(xr, xi, wr, wi, n, br, bi, part);
    }
  };
  if (n == 2) {  // stage 1 only (w = 1, multiplication skipped as in first_two_stages)
    const T ar = xr[0], ai = xi[0], br = xr[1], bi = xi[1];
    xr[0] = ar + br;
    xi[0] = ai + bi;
    xr[1] = ar - br;
    xi[1] = ai - bi;
  } else if (n >= kTwoThreadLength && n > kDirect) {
    // Two halves at a time (sequentially when the helper is busy); the second thread gets the second buffer set.
    T* buf2_r = buf_i + rows * kColumns<T>;
    T* buf2_i = buf2_r + rows * kColumns<T>;
    const std::size_t blocks = n / kBlock, groups = kBlock / kColumns<T>;
    run_pair([&] { stages(StagePart{StagePart::blocks, 0, blocks / 2}, buf_r, buf_i); },
             [&] { stages(StagePart{StagePart::blocks, blocks / 2, blocks}, buf2_r, buf2_i); });
    run_pair([&] { stages(StagePart{StagePart::columns, 0, groups / 2}, buf_r, buf_i); },
             [&] { stages(StagePart{StagePart::columns, groups / 2, groups}, buf2_r, buf2_i); });
  } else if (n >= 4) {
    stages(StagePart{}, buf_r, buf_i);
  }
}

}  // namespace

template <typename T>
void radix2_fft(ComplexArray<T>& x, bool inverse) {
  static const bool avx2 = __builtin_cpu_supports("avx2") && !pld_scalar_forced();
  transform(x, inverse, avx2);
}

void radix2_fft_sse2(ComplexArray<double>& x, bool inverse) { transform(x, inverse, false); }

void radix2_fft_double_word_scalar(ComplexArray<DoubleWord>& x, bool inverse) { transform(x, inverse, false); }

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
double working_unit_roundoff() {
  if constexpr (std::is_same_v<T, double>)
    return 0x1p-53;
  else if constexpr (std::is_same_v<T, long double>) {
    static_assert(std::numeric_limits<long double>::digits == 64, "x87 extended precision expected");
    return 0x1p-64;
  } else {
    static_assert(std::is_same_v<T, DoubleWord>);
    return kDoubleWordUnitRoundoff;
  }
}

template <typename T>
double working_underflow_error() {
  constexpr double eta0 = std::numeric_limits<double>::denorm_min();
  return std::is_same_v<T, DoubleWord> ? 8 * eta0 : eta0;
}

template <typename T>
double twiddle_error() {
  // Per component, before the final rounding: octant-angle error 8.5e-20 plus sincosl's documented 1 ulp
  // (<= 2^-63 = 1.1e-19), so |w_ld - w| <= sqrt(2) * 1.94e-19 = 2.8e-19 (about 5 long-double unit round-offs);
  // taken as 16 of them (3x margin). Rounding to double adds u |w_ld| <= u (1 + 3e-19).
  constexpr double u_ld = 0x1p-64;
  // DoubleWord holds the long-double values exactly (double_word.h): the same 16 u_ld.
  if constexpr (std::is_same_v<T, double>)
    return 2 * std::numeric_limits<double>::epsilon() / 2;  // u + 16 u_ld < 2u
  else
    return 16 * u_ld;
}

template <typename T>
double fft_error_factor(std::size_t n) {
  const double u = working_unit_roundoff<T>();
  const double t = portable::log2(static_cast<double>(n));
  const double mu = twiddle_error<T>();
  const double gamma4 = 4 * u / (1 - 4 * u);
  const double eta = mu + gamma4 * (std::sqrt(2.0) + mu);
  // The double evaluation of these few operations is covered by the 1e-6 relative slack.
  return t * eta / (1 - t * eta) * (1 + 1e-6);
}

template void radix2_fft<double>(ComplexArray<double>&, bool);
template void radix2_fft<long double>(ComplexArray<long double>&, bool);
template void radix2_fft<DoubleWord>(ComplexArray<DoubleWord>&, bool);
template void twiddle_table<double>(std::size_t, const double*&, const double*&);
template void twiddle_table<long double>(std::size_t, const long double*&, const long double*&);
template void twiddle_table<DoubleWord>(std::size_t, const DoubleWord*&, const DoubleWord*&);
template double working_unit_roundoff<double>();
template double working_unit_roundoff<long double>();
template double working_unit_roundoff<DoubleWord>();
template double working_underflow_error<double>();
template double working_underflow_error<long double>();
template double working_underflow_error<DoubleWord>();
template double twiddle_error<double>();
template double twiddle_error<long double>();
template double twiddle_error<DoubleWord>();
template double fft_error_factor<double>(std::size_t);
template double fft_error_factor<long double>(std::size_t);
template double fft_error_factor<DoubleWord>(std::size_t);

}  // namespace dpl
