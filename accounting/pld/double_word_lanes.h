// SPDX-License-Identifier: Apache-2.0
// Four double-word numbers (and, for the passes between double transforms, four doubles) on AVX2 lanes, for the PLD's
// transforms and their pointwise passes (radix2_fft.cpp, discrete_pld.cpp). Use only inside functions compiled for AVX2 (__attribute__((target("avx2"))))
// that run after a CPU check. The high parts sit in one vector and the low parts in another; the operations are
// double_word.h's algorithms lane by lane, so each lane computes exactly what the scalar DoubleWord operators
// compute on the same operands (no fused multiply-adds: the translation units set fp-contract=off, and AVX2 alone
// has no FMA instructions).
#pragma once

#include "accounting/numeric/double_word.h"

namespace dpl {

typedef double Double4 __attribute__((vector_size(32)));

struct DoubleWord4 {
  Double4 hi, lo;
};
[[gnu::always_inline]] inline DoubleWord4 operator+(DoubleWord4 x, DoubleWord4 y) {
  DoubleWord4 z;
  double_word::add(x.hi, x.lo, y.hi, y.lo, z.hi, z.lo);
  return z;
}
[[gnu::always_inline]] inline DoubleWord4 operator-(DoubleWord4 x) { return {-x.hi, -x.lo}; }
[[gnu::always_inline]] inline DoubleWord4 operator-(DoubleWord4 x, DoubleWord4 y) { return x + (-y); }
[[gnu::always_inline]] inline DoubleWord4 operator*(DoubleWord4 x, DoubleWord4 y) {
  DoubleWord4 z;
  double_word::mul(x.hi, x.lo, y.hi, y.lo, z.hi, z.lo);
  return z;
}
// x / 2, both parts halved: exact (barring underflow), as DoubleWord's division by 2.
[[gnu::always_inline]] inline DoubleWord4 half(DoubleWord4 x) { return {x.hi * 0.5, x.lo * 0.5}; }
[[gnu::always_inline]] inline DoubleWord half(DoubleWord x) { return x / 2; }
[[gnu::always_inline]] inline double half(double x) { return x / 2; }  // exact but for underflow

// Four consecutive DoubleWords (h0 l0 h1 l1 h2 l2 h3 l3) by one in-lane unpack per part, which leaves the elements
// in the lane order 0, 2, 1, 3; store_lanes undoes it. Lane-wise work is unaffected by the order; code that mixes
// lanes (a transpose, a reversal) must account for it.
[[gnu::always_inline]] inline DoubleWord4 load_lanes(const DoubleWord* p) {
  typedef long long Mask __attribute__((vector_size(32)));
  Double4 a, b;
  __builtin_memcpy(&a, static_cast<const void*>(p), sizeof a);
  __builtin_memcpy(&b, static_cast<const void*>(p + 2), sizeof b);
  return {__builtin_shuffle(a, b, Mask{0, 4, 2, 6}), __builtin_shuffle(a, b, Mask{1, 5, 3, 7})};
}
[[gnu::always_inline]] inline void store_lanes(DoubleWord* p, DoubleWord4 v) {
  typedef long long Mask __attribute__((vector_size(32)));
  const Double4 a = __builtin_shuffle(v.hi, v.lo, Mask{0, 4, 2, 6}), b = __builtin_shuffle(v.hi, v.lo, Mask{1, 5, 3, 7});
  __builtin_memcpy(static_cast<void*>(p), &a, sizeof a);
  __builtin_memcpy(static_cast<void*>(p + 2), &b, sizeof b);
}
// The lanes in reverse order. For a load from p - 3 (lanes: elements p - 3, p - 1, p - 2, p) it gives p, p - 2,
// p - 1, p - 3: the partners, lane by lane, of a load from q (q, q + 2, q + 1, q + 3) when the pairs are q + i and
// p - i; its own inverse.
[[gnu::always_inline]] inline DoubleWord4 reverse_lanes(DoubleWord4 v) {
  typedef long long Mask __attribute__((vector_size(32)));
  return {__builtin_shuffle(v.hi, Mask{3, 2, 1, 0}), __builtin_shuffle(v.lo, Mask{3, 2, 1, 0})};
}

// Four doubles in memory order: the same loads, stores, reversal and halving (a GCC vector type: lane-wise IEEE
// operations).
[[gnu::always_inline]] inline Double4 load_lanes(const double* p) {
  Double4 v;
  __builtin_memcpy(&v, static_cast<const void*>(p), sizeof v);
  return v;
}
[[gnu::always_inline]] inline void store_lanes(double* p, Double4 v) { __builtin_memcpy(static_cast<void*>(p), &v, sizeof v); }
[[gnu::always_inline]] inline Double4 reverse_lanes(Double4 v) {
  typedef long long Mask __attribute__((vector_size(32)));
  return __builtin_shuffle(v, Mask{3, 2, 1, 0});
}
[[gnu::always_inline]] inline Double4 half(Double4 x) { return x * 0.5; }  // exact but for underflow, as x / 2

}  // namespace dpl
