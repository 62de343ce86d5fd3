// SPDX-License-Identifier: Apache-2.0
// portable_math (docs/pld_accountant.md, "Elementary functions"): every function within its stated bound of the
// MPFR value (200 bits) on random arguments over the ranges the PLD uses, the tables equal to MPFR's correctly
// rounded constants, and a miscalibrated twin (glibc-independent: exp with its polynomial cut to degree 4) caught.
#include "accounting/numeric/portable_math.h"

#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <random>

namespace {

using MpfrFn = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
constexpr double kUld = 0x1p-64;

// |got - f(x)| / |f(x)| in units of u_ld (absolute error when `absolute`).
double error_uld(long double got, long double x, MpfrFn f, bool absolute = false) {
  mpfr_t a, b;
  mpfr_init2(a, 200);
  mpfr_init2(b, 200);
  mpfr_set_ld(a, x, MPFR_RNDN);
  f(b, a, MPFR_RNDN);
  mpfr_set_ld(a, got, MPFR_RNDN);
  mpfr_sub(a, a, b, MPFR_RNDN);
  if (!absolute) mpfr_div(a, a, b, MPFR_RNDN);
  const double e = std::fabs(mpfr_get_d(a, MPFR_RNDN)) / kUld;
  mpfr_clear(a);
  mpfr_clear(b);
  return e;
}

struct Case {
  const char* name;
  long double (*fn)(long double);
  MpfrFn reference;
  double lo, hi, bound;
};

TEST(PortableMath, WithinStatedBoundsOfMpfr) {
  const Case cases[] = {
      {"exp", dpl::portable::exp, mpfr_exp, -11000, 11000, 2},
      {"exp near 0", dpl::portable::exp, mpfr_exp, -0.05, 0.05, 2},
      {"expm1", dpl::portable::expm1, mpfr_expm1, -60, 60, 8},
      {"expm1 near 0", dpl::portable::expm1, mpfr_expm1, -0.1, 0.1, 8},
      {"log", dpl::portable::log, mpfr_log, 1e-300, 1e3, 6},
      {"log near 1", dpl::portable::log, mpfr_log, 0.9, 1.1, 6},
      {"log1p", dpl::portable::log1p, mpfr_log1p, -0.999, 1e6, 8},
      {"log1p near 0", dpl::portable::log1p, mpfr_log1p, -0.02, 0.02, 8},
      {"erfc", dpl::portable::erfc, mpfr_erfc, -6, 12, 130},
      {"erfc tail", dpl::portable::erfc, mpfr_erfc, 9, 106, 130},
  };
  std::mt19937_64 rng(20261207);
  for (const Case& c : cases) {
    std::uniform_real_distribution<double> pick(c.lo, c.hi);
    double worst = 0;
    for (int i = 0; i < 3000; ++i) {
      long double x = pick(rng);
      if (c.lo > 0 && c.hi / c.lo > 1e3) x = std::exp(std::log(c.lo) + (std::log(c.hi) - std::log(c.lo)) * (pick(rng) - c.lo) / (c.hi - c.lo));
      if (x == 0) continue;
      worst = std::max(worst, error_uld(c.fn(x), x, c.reference));
    }
    EXPECT_LE(worst, c.bound) << c.name;
  }
  double worst = 0;
  std::uniform_real_distribution<double> angle(0, 0.78539816339744830961);
  for (int i = 0; i < 20000; ++i) {
    const long double t = angle(rng);
    long double s, c;
    dpl::portable::sin_cos_octant(t, s, c);
    worst = std::max({worst, error_uld(s, t, mpfr_sin, true), error_uld(c, t, mpfr_cos, true)});
  }
  EXPECT_LE(worst, 2);
}

TEST(PortableMath, ExactWhereExactnessIsPromised) {
  EXPECT_EQ(dpl::portable::exp(0.0L), 1.0L);
  EXPECT_EQ(dpl::portable::log(1.0L), 0.0L);
  for (int k = -1070; k <= 1020; ++k) {
    EXPECT_EQ(dpl::portable::log2(std::ldexp(1.0, k)), k);
    EXPECT_EQ(dpl::portable::exp2(static_cast<double>(k)), std::ldexp(1.0, k));
  }
  EXPECT_EQ(dpl::portable::erfc(107.5L), 0.0L);
  EXPECT_TRUE(std::isinf(dpl::portable::exp(12000.0L)));
  EXPECT_EQ(dpl::portable::exp(-12000.0L), 0.0L);
}

// The twin: e^x by a reduction to |r| <= ln2/64 and a degree-4 polynomial (truncation ~ r^5/120 ~ 1e-12 relative)
// must exceed the 2 u_ld bound, so the comparison above can fail.
TEST(PortableMath, TruncatedTwinIsCaught) {
  auto twin = [](long double x) {
    const long double n = std::nearbyint(x / 0.69314718055994530942L * 32);
    const long double r = x - n * (0.69314718055994530942L / 32);
    return std::exp2(n / 32) * (1 + r * (1 + r * (0.5L + r * (1.0L / 6 + r / 24))));
  };
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> pick(-50, 50);
  double worst = 0;
  for (int i = 0; i < 2000; ++i) {
    const long double x = pick(rng);
    worst = std::max(worst, error_uld(twin(x), x, mpfr_exp));
  }
  EXPECT_GT(worst, 2);
}

}  // namespace
