// SPDX-License-Identifier: Apache-2.0
// exp, expm1, log and log1p in binary64 arithmetic alone (docs/pld_accountant.md, "Elementary functions"): Tang's
// table-driven methods with every operation one IEEE double operation, so the same bits on every x86-64 CPU.
// No fused multiply-adds: the error analysis counts one rounding per operation.
#pragma GCC optimize("fp-contract=off")

#include "accounting/numeric/portable_math.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace dpl::portable::binary64 {

namespace {

#include "accounting/numeric/portable_math_binary64_tables.inc"

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// 2^k for -1022 <= k <= 1023, from its bits (exact).
double pow2(int k) { return std::bit_cast<double>(static_cast<std::uint64_t>(k + 1023) << 52); }

// y 2^k with one rounding: exact while the result is normal; below, the first factor keeps y 2^(k/2) normal and
// the second rounds once (gradual underflow); above, the second overflows to inf where the exact value does.
double scale2(double y, int k) {
  if (k >= -1022 && k <= 1023) return y * pow2(k);
  const int half = k / 2;
  return y * pow2(half) * pow2(k - half);
}

// The reduction of exp: x = (128 e + j) ln2/128 + r with 0 <= j < 128, |r| <= ln2/256 (1 + 2^-40). The product of
// n with the 35-bit head is exact (|n| < 2^18) and x - n head is exact by Sterbenz's lemma; the error of r is below
// u |r| + 2^-78.
struct ExpReduced {
  int e;
  int j;
  double r;
};
ExpReduced reduce(double x) {
  constexpr double kShift = 0x1.8p52;  // adding it rounds to an integer (|x 128/ln2| < 2^51)
  const double n = (x * kInvLn2Times128 + kShift) - kShift;
  const double r = (x - n * kLn2By128Hi) - n * kLn2By128Lo;
  const auto ni = static_cast<std::int64_t>(n);
  return {static_cast<int>(ni >> 7), static_cast<int>(ni & 127), r};  // >> is floor division (C++20)
}

// e^r - 1 - r for |r| <= 0.00271 by its Taylor terms of degree 2..5: truncation below r^6/720 < 2^-60.5 (relative to
// e^r), rounding below 3 u r^2/2.
double expm1_tail(double r) {
  constexpr double c2 = 0.5, c3 = 1.0 / 6, c4 = 1.0 / 24, c5 = 1.0 / 120;
  return r * r * (c2 + r * (c3 + r * (c4 + r * c5)));
}

// 2^(j/128) e^r as head + tail (head = the table's double, |tail| <= 0.0055 head): the tail's error is below
// 2^-59.5 head.
struct Scaled {
  double head;
  double tail;
};
Scaled exp_parts(const ExpReduced& red) {
  const double t = kExp2By128Hi[red.j];
  return {t, kExp2By128Lo[red.j] + (t * red.r + t * expm1_tail(red.r))};
}

// log(1 + r) - r for |r| <= 2^-7.5 by its Taylor terms of degree 2..8 in Estrin's form (pairs of terms, then powers
// r^2 and r^4: a shorter chain of dependent operations than Horner's): truncation below |r|^9/9 < 2^-70.5, rounding
// below 4 u r^2/2.
double log1p_tail(double r) {
  constexpr double c3 = 1.0 / 3, c5 = 1.0 / 5, c6 = 1.0 / 6, c7 = 1.0 / 7;
  const double r2 = r * r, r4 = r2 * r2;
  const double low = (-0.5 + c3 * r) + (-0.25 + c5 * r) * r2;
  const double high = (-c6 + c7 * r) + -0.125 * r2;
  return r2 * (low + high * r4);
}

// log1p(x) - x for |x| <= 2^-5 by its Taylor terms of degree 2..12 in Estrin's form: truncation below
// |x|^13/13 < 2^-63.7 |x|, rounding below 4 u x^2/2.
double log1p_small_tail(double x) {
  constexpr double c3 = 1.0 / 3, c5 = 1.0 / 5, c6 = 1.0 / 6, c7 = 1.0 / 7, c9 = 1.0 / 9, c10 = 1.0 / 10,
                   c11 = 1.0 / 11, c12 = 1.0 / 12;
  const double x2 = x * x, x4 = x2 * x2, x8 = x4 * x4;
  const double q0 = (-0.5 + c3 * x) + (-0.25 + c5 * x) * x2;
  const double q1 = (-c6 + c7 * x) + (-0.125 + c9 * x) * x2;
  const double q2 = (-c10 + c11 * x) + -c12 * x2;
  return x2 * ((q0 + q1 * x4) + q2 * x8);
}

// log x (x > 0 finite) as an unrounded sum head + tail, with |tail| <= ulp(head) and an error below 2^-62 |log x|
// (2^-62 |x - 1| near 1): x = 2^e m, m in [sqrt(1/2), sqrt 2), c = j/128 nearest m, f = m - c exact, r = f/c as
// rh + rl: rh = f (1/c) (within 2^-52 |r|), and f - rh c computed exactly (rh's high 26 bits and its low 27 times c
// are exact products, the first difference is exact by Sterbenz's lemma, and the remainder is a multiple of
// 2^(ulp exponent of rh - 7) below 2^9 of them), so rl = (f - rh c)/c within 2^-104 |r|; then log x = (e ln2_head +
// log c head) + rh + (rl + log1p_tail(rh) + e ln2_tail + log c tail); the heads are multiples of 2^-42, so their
// sum is exact, and its sum with rh is split exactly (Fast2Sum: the heads are 0 or at least 0.0077 >= |rh|).
Scaled log_parts(double x) {
  int bias = 0;
  if (x < 0x1p-1022) {  // subnormal: scale into the normal range (exact)
    x *= 0x1p54;
    bias = -54;
  }
  // x = 2^k m with m in [sqrt(1/2), sqrt 2) (the bounds are the doubles next to them), without a branch: the bits of x
  // minus those of sqrt(1/2) carry k in their exponent field, and m's bits are x's less k in that field.
  constexpr std::uint64_t kSqrtHalfBits = 0x3fe6a09e667f3bcdULL;
  const auto bits = std::bit_cast<std::uint64_t>(x);
  const std::int64_t k = static_cast<std::int64_t>(bits - kSqrtHalfBits) >> 52;
  const double m = std::bit_cast<double>(bits - (static_cast<std::uint64_t>(k) << 52));
  const int e = static_cast<int>(k) + bias;
  const int j = static_cast<int>(m * 128 + 0.5);  // 90..182; m * 128 + 0.5 exact
  const double c = static_cast<double>(j) * 0x1p-7, inv_c = kInvJ128[j - 90];
  const double f = m - c;  // exact: |f| <= 2^-8, a multiple of 2^-53
  const double rh = f * inv_c;
  const double rh_high = std::bit_cast<double>(std::bit_cast<std::uint64_t>(rh) & 0xfffffffff8000000ULL);  // 26 bits
  const double rl = ((f - rh_high * c) - (rh - rh_high) * c) * inv_c;  // f - rh c exact
  const double ed = static_cast<double>(e);
  const double heads = ed * kLn2Hi + kLogJ128Hi[j - 90];  // exact
  const double s = heads + rh;
  const double s_err = rh - (s - heads);  // Fast2Sum: exact
  return {s, s_err + (rl + log1p_tail(rh) + (ed * kLn2Lo + kLogJ128Lo[j - 90]))};
}

}  // namespace

double exp(double x) {
  if (std::isnan(x)) return x;
  if (x > 709.79) return kInf;   // e^709.79 > DBL_MAX (1 + 2^-54)
  if (x < -745.2) return 0.0;    // e^-745.2 < 2^-1075
  const ExpReduced red = reduce(x);
  const Scaled p = exp_parts(red);
  return scale2(p.head + p.tail, red.e);
}

double expm1(double x) {
  if (std::isnan(x) || x == 0) return x;  // expm1(-0) = -0, as C's
  if (std::fabs(x) <= 0x1p-5) {  // e^x - 1 = x + x^2/2 + ...: degree 10, truncation below 2^-66 |x|
    constexpr double c2 = 0.5, c3 = 1.0 / 6, c4 = 1.0 / 24, c5 = 1.0 / 120, c6 = 1.0 / 720, c7 = 1.0 / 5040,
                     c8 = 1.0 / 40320, c9 = 1.0 / 362880, c10 = 1.0 / 3628800;
    return x + x * x * (c2 + x * (c3 + x * (c4 + x * (c5 + x * (c6 + x * (c7 + x * (c8 + x * (c9 + x * c10))))))));
  }
  if (x > 709.79) return kInf;
  if (x < -38.0) return -1.0;  // e^-38 < 2^-54: -1 + e^x rounds to -1
  const ExpReduced red = reduce(x);
  const Scaled p = exp_parts(red);
  if (red.e >= -1 && red.e <= 1) {
    // 2^e head - 1 is exact for e in {-1, 0, 1} (Sterbenz, or a multiple of 2^-51 below 4).
    return (scale2(p.head, red.e) - 1) + scale2(p.tail, red.e);
  }
  if (red.e >= 54) return scale2(p.head + p.tail, red.e);  // 1 is below half an ulp of e^x
  if (red.e >= 2) return scale2(p.head + (p.tail - pow2(-red.e)), red.e);  // 2^e (head + tail - 2^-e)
  return scale2(p.head + p.tail, red.e) - 1;  // e <= -2: e^x <= 1/2 (within 2^-52), one rounding of -1 + e^x
}

double log(double x) {
  if (std::isnan(x) || x < 0) return kNaN;
  if (x == 0) return -kInf;
  if (std::isinf(x)) return x;
  const Scaled p = log_parts(x);
  return p.head + p.tail;
}

double log1p(double x) {
  if (std::isnan(x) || x < -1) return kNaN;
  if (x == -1) return -kInf;
  if (std::isinf(x) || x == 0) return x;  // log1p(-0) = -0, as C's
  if (std::fabs(x) <= 0x1p-5) return x + log1p_small_tail(x);
  // u + c = 1 + x exactly (Fast2Sum, ordered by magnitude): log(1 + x) = log u + c/u to within (c/u)^2/2 < 2^-100.
  const double u = 1 + x;
  const double c = std::fabs(x) <= 1 ? (1 - u) + x : (x - u) + 1;
  const Scaled p = log_parts(u);
  return p.head + (p.tail + c / u);
}

}  // namespace dpl::portable::binary64
