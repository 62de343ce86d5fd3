// SPDX-License-Identifier: Apache-2.0
// Double-word arithmetic (accounting/numeric/double_word.h) against 320-bit MPFR: every +, - and x of normalised
// operands is within kDoubleWordUnitRoundoff = 8u^2 (u = 2^-53) of the exact result, relative (Joldes, Muller and
// Popescu 2017: Algorithm 6 <= 3u^2 + 13u^3, Algorithm 10 <= 7u^2); results are normalised; the error-free
// transformations are exact; conversions from long double are exact and to double are one rounding. Cancellation-
// heavy operands are drawn on purpose. Miscalibrated twin: the "sloppy" double-word addition (Algorithm 5 of the same
// paper, no relative bound when the signs differ) must be caught breaking the 8u^2 bound on such operands.
#include "accounting/numeric/double_word.h"

#include <gtest/gtest.h>
#include <mpfr.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>

namespace dpl {
namespace {

struct M {
  mpfr_t v;
  M() { mpfr_init2(v, 320); mpfr_set_zero(v, 1); }
  explicit M(const DoubleWord& x) : M() {
    mpfr_set_d(v, x.hi, MPFR_RNDN);
    mpfr_add_d(v, v, x.lo, MPFR_RNDN);  // exact at 320 bits for the exponent ranges drawn
  }
  ~M() { mpfr_clear(v); }
  M(const M&) = delete;
  M& operator=(const M&) = delete;
};

// |computed - exact| <= bound |exact|, in MPFR.
bool within(const DoubleWord& computed, const M& exact, double bound) {
  M c(computed), diff, lim;
  mpfr_sub(diff.v, c.v, exact.v, MPFR_RNDN);
  mpfr_abs(diff.v, diff.v, MPFR_RNDN);
  mpfr_abs(lim.v, exact.v, MPFR_RNDN);
  mpfr_mul_d(lim.v, lim.v, bound, MPFR_RNDU);
  return mpfr_cmp(diff.v, lim.v) <= 0;
}

bool normalised(const DoubleWord& x) { return x.hi + x.lo == x.hi; }

// A normalised double-word number: a double of magnitude 2^e (e in [-300, 300]) and a low part below half its ulp.
DoubleWord gen_dw(int e, std::int64_t m1, std::int64_t m2, bool neg) {
  const double hi = std::ldexp(1.0 + static_cast<double>(m1 & ((std::int64_t{1} << 52) - 1)) * 0x1p-52, e);
  const double lo = hi * 0x1p-54 * (static_cast<double>(m2 % 1000001) / 1000000.0);
  DoubleWord x;
  double_word::fast_two_sum(neg ? -hi : hi, lo, x.hi, x.lo);
  return x;
}

rc::Gen<DoubleWord> arbitrary_dw() {
  return rc::gen::apply(gen_dw, rc::gen::inRange(-300, 301), rc::gen::arbitrary<std::int64_t>(),
                        rc::gen::arbitrary<std::int64_t>(), rc::gen::arbitrary<bool>());
}

// y close to -x (or to x for subtraction): the sums cancel to a few ulps of the low parts.
DoubleWord near_negation(const DoubleWord& x, std::int64_t k) {
  DoubleWord y;
  double_word::fast_two_sum(-x.hi, -x.lo + std::ldexp(static_cast<double>(k % 4096), std::ilogb(x.hi) - 100), y.hi, y.lo);
  return y;
}

RC_GTEST_PROP(DoubleWord, AdditionWithinEightUSquared, ()) {
  const DoubleWord x = *arbitrary_dw();
  const bool cancel = *rc::gen::arbitrary<bool>();
  const DoubleWord y = cancel ? near_negation(x, *rc::gen::arbitrary<std::int64_t>()) : *arbitrary_dw();
  for (const bool subtract : {false, true}) {
    const DoubleWord z = subtract ? x - y : x + y;
    M ex(x), ey(y), exact;
    (subtract ? mpfr_sub : mpfr_add)(exact.v, ex.v, ey.v, MPFR_RNDN);
    RC_ASSERT(within(z, exact, kDoubleWordUnitRoundoff));
    RC_ASSERT(normalised(z));
  }
}

RC_GTEST_PROP(DoubleWord, MultiplicationWithinEightUSquared, ()) {
  const DoubleWord x = *arbitrary_dw(), y = *arbitrary_dw();
  const DoubleWord z = x * y;
  M ex(x), ey(y), exact;
  mpfr_mul(exact.v, ex.v, ey.v, MPFR_RNDN);
  RC_ASSERT(within(z, exact, kDoubleWordUnitRoundoff));
  RC_ASSERT(normalised(z));
}

RC_GTEST_PROP(DoubleWord, ErrorFreeTransformationsAreExact, (std::int64_t a, std::int64_t b, int ea, int eb)) {
  const double x = std::ldexp(static_cast<double>(a >> 11), ea % 400), y = std::ldexp(static_cast<double>(b >> 11), eb % 400);
  double s, e, p, f;
  double_word::two_sum(x, y, s, e);
  double_word::two_prod(x, y, p, f);
  M sum, prod, mx, my, got;
  mpfr_set_d(mx.v, x, MPFR_RNDN);
  mpfr_set_d(my.v, y, MPFR_RNDN);
  mpfr_add(sum.v, mx.v, my.v, MPFR_RNDN);
  mpfr_mul(prod.v, mx.v, my.v, MPFR_RNDN);
  mpfr_set_d(got.v, s, MPFR_RNDN);
  mpfr_add_d(got.v, got.v, e, MPFR_RNDN);
  RC_ASSERT(mpfr_equal_p(got.v, sum.v) != 0);
  mpfr_set_d(got.v, p, MPFR_RNDN);
  mpfr_add_d(got.v, got.v, f, MPFR_RNDN);
  RC_ASSERT(mpfr_equal_p(got.v, prod.v) != 0);
}

TEST(DoubleWord, ConversionsAndPowerOfTwoScalingAreExact) {
  const long double x = 0.1L;  // 64 significant bits
  const DoubleWord d(x);
  EXPECT_EQ(static_cast<long double>(d.hi) + static_cast<long double>(d.lo), x);
  EXPECT_EQ(static_cast<double>(d), static_cast<double>(x));
  const DoubleWord q = d / DoubleWord(std::size_t{1024});
  EXPECT_EQ(q.hi, d.hi / 1024);
  EXPECT_EQ(q.lo, d.lo / 1024);
  EXPECT_THROW(d / DoubleWord(3.0), std::invalid_argument);
  EXPECT_EQ(kDoubleWordUnitRoundoff, 8 * 0x1p-53 * 0x1p-53);
}

// The miscalibrated twin: Algorithm 5 (SloppyDWPlusDW) drops the low parts' TwoSum, and under cancellation its
// relative error is unbounded; the same check must catch it on cancelling operands (fixed seed: deterministic).
TEST(DoubleWord, TheCheckCatchesTheSloppyAddition) {
  auto sloppy_add = [](const DoubleWord& x, const DoubleWord& y) {
    double sh, sl, vh, vl;
    double_word::two_sum(x.hi, y.hi, sh, sl);
    const double v = sl + (x.lo + y.lo);
    double_word::fast_two_sum(sh, v, vh, vl);
    return DoubleWord{vh, vl};
  };
  int caught = 0;
  std::uint64_t s = 12345;
  auto next = [&] { s ^= s << 13, s ^= s >> 7, s ^= s << 17; return static_cast<std::int64_t>(s); };
  for (int i = 0; i < 2000; ++i) {
    const DoubleWord x = gen_dw(static_cast<int>(next() % 100), next(), next(), false);
    // y = -x.hi exactly with a low part 2^-60 times smaller than x.lo: the exact sum x.lo + y.lo needs ~113 bits,
    // which Algorithm 5 rounds to one double (relative error up to u), Algorithm 6 keeps as a double word.
    if (x.lo == 0) continue;
    const DoubleWord y{-x.hi, x.lo * 0x1p-60 * (1 + static_cast<double>(next() % 1000) * 0x1p-20)};
    M ex(x), ey(y), exact;
    mpfr_add(exact.v, ex.v, ey.v, MPFR_RNDN);
    if (!within(sloppy_add(x, y), exact, kDoubleWordUnitRoundoff)) ++caught;
    EXPECT_TRUE(within(x + y, exact, kDoubleWordUnitRoundoff));
  }
  EXPECT_GT(caught, 0);
}

}  // namespace
}  // namespace dpl
