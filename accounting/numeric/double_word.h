// SPDX-License-Identifier: Apache-2.0
// Double-word ("double-double") numbers x = hi + lo, |lo| <= ulp(hi)/2, for the PLD accountant's extended-precision
// FFT convolutions (docs/pld_accountant.md, 3). The operations are those of Joldes, Muller and Popescu, "Tight and
// rigorous error bounds for basic building blocks of double-word arithmetic", ACM TOMS 44(2), 2017, with relative
// error bounds (u = 2^-53, no underflow or overflow):
//   DW + DW, DW - DW: Algorithm 6 (AccurateDWPlusDW), |error| <= (3u^2 + 13u^3) |exact|;
//   DW x DW:          Algorithm 10 (DWTimesDW1, exact products by Dekker's TwoProduct), |error| <= 7u^2 |exact|;
// so every operation below satisfies fl(x op y) = (x op y)(1 + d), |d| <= kDoubleWordUnitRoundoff = 8u^2 (upper
// bound). Negation, and scaling by a power of two, are exact (barring underflow). Every algorithm is a fixed
// sequence of IEEE double operations without fused multiply-adds (Dekker's products are exact, so contraction could
// not change them either), written once for a lane type L: double, or a GCC vector of doubles whose operations are
// lane-wise IEEE operations, so that the vector code computes, lane by lane, exactly the scalar results.
#pragma once

#include <cmath>
#include <cstddef>
#include <stdexcept>

namespace dpl {

// An upper bound on the relative error of every double-word operation below: max(3u^2 + 13u^3, 7u^2) <= 8u^2.
inline constexpr double kDoubleWordUnitRoundoff = 8 * 0x1p-106;

namespace double_word {

// Knuth's TwoSum: s + e = a + b exactly, s = fl(a + b) (no condition but overflow).
template <typename L>
[[gnu::always_inline]] inline void two_sum(L a, L b, L& s, L& e) {
  s = a + b;
  const L bb = s - a;
  e = (a - (s - bb)) + (b - bb);
}

// Fast2Sum (Dekker): s + e = a + b exactly when |a| >= |b| or a = 0 (or the exponent of a is at least that of b).
template <typename L>
[[gnu::always_inline]] inline void fast_two_sum(L a, L b, L& s, L& e) {
  s = a + b;
  e = b - (s - a);
}

// Dekker's TwoProduct with Veltkamp's splitting (factor 2^27 + 1): p + e = a b exactly, p = fl(a b), when no
// overflow occurs (|a|, |b| < 2^995) and no partial product underflows.
template <typename L>
[[gnu::always_inline]] inline void two_prod(L a, L b, L& p, L& e) {
  const L ca = 134217729.0 * a, cb = 134217729.0 * b;
  const L ah = ca - (ca - a), al = a - ah;
  const L bh = cb - (cb - b), bl = b - bh;
  p = a * b;
  e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
}

// Joldes-Muller-Popescu 2017, Algorithm 6 (AccurateDWPlusDW): relative error <= 3u^2 + 13u^3.
template <typename L>
[[gnu::always_inline]] inline void add(L xh, L xl, L yh, L yl, L& zh, L& zl) {
  L sh, sl, th, tl, vh, vl;
  two_sum(xh, yh, sh, sl);
  two_sum(xl, yl, th, tl);
  const L c = sl + th;
  fast_two_sum(sh, c, vh, vl);
  const L w = tl + vl;
  fast_two_sum(vh, w, zh, zl);
}

// Joldes-Muller-Popescu 2017, Algorithm 10 (DWTimesDW1): relative error <= 7u^2.
template <typename L>
[[gnu::always_inline]] inline void mul(L xh, L xl, L yh, L yl, L& zh, L& zl) {
  L ch, cl1;
  two_prod(xh, yh, ch, cl1);
  const L tl1 = xh * yl, tl2 = xl * yh;
  const L cl2 = tl1 + tl2;
  const L cl3 = cl1 + cl2;
  fast_two_sum(ch, cl3, zh, zl);
}

}  // namespace double_word

// A scalar double-word number. Conversions: from a double exactly; from a long double exactly (its 64-bit
// significand is hi's 53 bits plus an exactly representable remainder); to a double by its hi part (the nearest
// double to hi + lo, |lo| <= ulp(hi)/2: one rounding, relative error <= u); to a long double by hi + lo rounded once.
struct DoubleWord {
  double hi = 0, lo = 0;
  constexpr DoubleWord() = default;
  constexpr DoubleWord(double h, double l) : hi(h), lo(l) {}
  constexpr DoubleWord(double x) : hi(x), lo(0) {}  // NOLINT: implicit, as for a built-in floating type
  explicit DoubleWord(long double x) : hi(static_cast<double>(x)), lo(static_cast<double>(x - static_cast<long double>(hi))) {}
  explicit DoubleWord(int x) : hi(x), lo(0) {}
  explicit DoubleWord(std::size_t x) : hi(static_cast<double>(x)), lo(0) {
    if (static_cast<std::size_t>(hi) != x) throw std::invalid_argument("internal: DoubleWord from an inexact integer");
  }
  explicit operator double() const { return hi; }
  explicit operator long double() const { return static_cast<long double>(hi) + lo; }
};

inline DoubleWord operator-(DoubleWord x) { return {-x.hi, -x.lo}; }
inline DoubleWord operator+(DoubleWord x, DoubleWord y) {
  DoubleWord z;
  double_word::add(x.hi, x.lo, y.hi, y.lo, z.hi, z.lo);
  return z;
}
inline DoubleWord operator-(DoubleWord x, DoubleWord y) { return x + (-y); }
inline DoubleWord operator*(DoubleWord x, DoubleWord y) {
  DoubleWord z;
  double_word::mul(x.hi, x.lo, y.hi, y.lo, z.hi, z.lo);
  return z;
}
// Division only by a power of two (both parts scaled: exact barring underflow); anything else is not provided.
inline DoubleWord operator/(DoubleWord x, DoubleWord d) {
  int e = 0;
  if (d.lo != 0 || std::frexp(d.hi, &e) != 0.5) throw std::invalid_argument("internal: DoubleWord divided by a non-power of two");
  const double s = 1 / d.hi;  // exact: a power of two
  return {x.hi * s, x.lo * s};
}
inline DoubleWord operator/(DoubleWord x, int d) { return x / DoubleWord(d); }

}  // namespace dpl
