// SPDX-License-Identifier: Apache-2.0
// portable_math (docs/pld_accountant.md, "Elementary functions"): every function within its stated bound of the
// MPFR value (200 bits) on random arguments over the ranges the PLD uses, the tables equal to MPFR's correctly
// rounded constants, and a miscalibrated twin (glibc-independent: exp with its polynomial cut to degree 4) caught.
#include "accounting/numeric/portable_math.h"

#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
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

// The double functions: |error| <= (1 + slack) u with u = 2^-53 relative (absolute for sin and cos, whose values
// are at most 1), slack = k u_ld / u = k 2^-11 from the stated bounds.
double error_u(double got, double x, MpfrFn f, bool absolute = false) { return error_uld(got, x, f, absolute) / 2048; }

int mpfr_log10_fn(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m) { return mpfr_log10(r, x, m); }

TEST(PortableMath, DoubleFunctionsWithinStatedBoundsOfMpfr) {
  std::mt19937_64 rng(20261208);
  std::uniform_real_distribution<double> unit(0, 1);
  double tanh_worst = 0, erfc_worst = 0, log10_worst = 0, trig_worst = 0, pow_worst = 0;
  for (int i = 0; i < 6000; ++i) {
    const double t = -25 + 50 * unit(rng), z = -5 + 30 * unit(rng), w = std::ldexp(1 + unit(rng), static_cast<int>(-1000 + 2000 * unit(rng)));
    const double a = (unit(rng) < 0.5 ? 7 : 26353580) * (2 * unit(rng) - 1);
    tanh_worst = std::max({tanh_worst, error_u(dpl::portable::tanh(t), t, mpfr_tanh), error_u(dpl::portable::tanh(t * 1e-6), t * 1e-6, mpfr_tanh)});
    erfc_worst = std::max(erfc_worst, error_u(dpl::portable::erfc(z), z, mpfr_erfc));
    log10_worst = std::max(log10_worst, error_u(dpl::portable::log10(w), w, mpfr_log10_fn));
    trig_worst = std::max({trig_worst, error_u(dpl::portable::sin(a), a, mpfr_sin, true), error_u(dpl::portable::cos(a), a, mpfr_cos, true)});
    // x^y against MPFR: x in (0, 100), y in (-40, 40), |y log x| <= 184.
    const double x = 100 * unit(rng), y = -40 + 80 * unit(rng);
    mpfr_t mx, my, r;
    mpfr_inits2(200, mx, my, r, static_cast<mpfr_ptr>(nullptr));
    mpfr_set_d(mx, x, MPFR_RNDN);
    mpfr_set_d(my, y, MPFR_RNDN);
    mpfr_pow(r, mx, my, MPFR_RNDN);
    const double got = dpl::portable::pow(x, y);
    mpfr_sub_d(mx, r, got, MPFR_RNDN);
    mpfr_div(mx, mx, r, MPFR_RNDN);
    pow_worst = std::max(pow_worst, std::fabs(mpfr_get_d(mx, MPFR_RNDN)) / 0x1p-53);
    mpfr_clears(mx, my, r, static_cast<mpfr_ptr>(nullptr));
  }
  EXPECT_LE(tanh_worst, 1 + 12.0 / 2048);
  EXPECT_LE(erfc_worst, 1 + 131.0 / 2048);
  EXPECT_LE(log10_worst, 1 + 6.0 / 2048);
  EXPECT_LE(trig_worst, 1 + 4.0 / 2048);
  EXPECT_LE(pow_worst, 1 + 192.0 / 2048);
}

// The binary64 versions: relative error in units of u = 2^-53 against MPFR, over wide and near-critical ranges.
struct Binary64Case {
  const char* name;
  double (*fn)(double);
  MpfrFn reference;
  double lo, hi, bound;
  bool log_spaced;
};

double binary64_worst(const Binary64Case& c, std::mt19937_64& rng, int n) {
  std::uniform_real_distribution<double> unit(0, 1);
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    const double x = c.log_spaced ? std::exp(std::log(c.lo) + (std::log(c.hi) - std::log(c.lo)) * unit(rng))
                                  : c.lo + (c.hi - c.lo) * unit(rng);
    if (x == 0) continue;
    const double err = error_u(c.fn(x), x, c.reference);
    if (std::isnan(err)) return std::numeric_limits<double>::infinity();  // never a silent pass
    worst = std::max(worst, err);
  }
  return worst;
}

const Binary64Case kBinary64Cases[] = {
    {"exp", dpl::portable::binary64::exp, mpfr_exp, -708, 709.7, 1.0625, false},
    {"exp near 0", dpl::portable::binary64::exp, mpfr_exp, -0.01, 0.01, 1.0625, false},
    {"expm1", dpl::portable::binary64::expm1, mpfr_expm1, -40, 709, 2, false},
    {"expm1 near 0", dpl::portable::binary64::expm1, mpfr_expm1, -0.2, 0.2, 2, false},
    {"expm1 tiny", dpl::portable::binary64::expm1, mpfr_expm1, 1e-300, 0.05, 2, true},
    {"log", dpl::portable::binary64::log, mpfr_log, 1e-320, 1e308, 1.0625, true},
    {"log near 1", dpl::portable::binary64::log, mpfr_log, 0.75, 1.4, 1.0625, false},
    {"log1p", dpl::portable::binary64::log1p, mpfr_log1p, -0.9999, 1e300, 1.0625, false},
    {"log1p positive", dpl::portable::binary64::log1p, mpfr_log1p, 1e-300, 1e300, 1.0625, true},
    {"log1p near 0", dpl::portable::binary64::log1p, mpfr_log1p, -0.1, 0.1, 1.0625, false},
};

TEST(PortableMath, Binary64WithinStatedBoundsOfMpfr) {
  std::mt19937_64 rng(20261209);
  for (const Binary64Case& c : kBinary64Cases) EXPECT_LE(binary64_worst(c, rng, 20000), c.bound) << c.name;
  // Exactly representable neighbours of the branch points (2^-5, sqrt 2, 1, the table's cells) and ties.
  double worst = 0;
  for (double x : {0x1p-5, -0x1p-5, 0x1.0000000000001p-5, 0x1.6a09e667f3bccp+0, 0x1.6a09e667f3bcdp+0, 1.0, 0x1.fffffffffffffp-1,
                   0x1.0000000000001p+0, 1.0 + 1.0 / 256, 1.0 - 1.0 / 512, 0x1p-1022, 0x1p-1074, 1e-310}) {
    worst = std::max({worst, error_u(dpl::portable::binary64::log(x), x, mpfr_log),
                      error_u(dpl::portable::binary64::log1p(x), x, mpfr_log1p),
                      error_u(dpl::portable::binary64::expm1(x), x, mpfr_expm1), error_u(dpl::portable::binary64::exp(x), x, mpfr_exp)});
  }
  EXPECT_LE(worst, 2);
}

TEST(PortableMath, Binary64AtTheirEdges) {
  namespace b64 = dpl::portable::binary64;
  constexpr double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(b64::exp(0.0), 1.0);
  EXPECT_EQ(b64::exp(709.79), inf);
  EXPECT_EQ(b64::exp(-746.0), 0.0);
  EXPECT_GT(b64::exp(-745.1), 0.0);
  EXPECT_EQ(b64::exp(-inf), 0.0);
  EXPECT_EQ(b64::exp(inf), inf);
  EXPECT_EQ(b64::log(1.0), 0.0);
  EXPECT_EQ(b64::log(0.0), -inf);
  EXPECT_EQ(b64::log(inf), inf);
  EXPECT_TRUE(std::isnan(b64::log(-1.0)));
  EXPECT_EQ(b64::log1p(0.0), 0.0);
  EXPECT_EQ(b64::log1p(-1.0), -inf);
  EXPECT_EQ(b64::log1p(1e-300), 1e-300);
  EXPECT_TRUE(std::isnan(b64::log1p(-1.5)));
  EXPECT_EQ(b64::expm1(0.0), 0.0);
  EXPECT_TRUE(std::signbit(b64::expm1(-0.0)));
  EXPECT_TRUE(std::signbit(b64::log1p(-0.0)));
  EXPECT_EQ(b64::expm1(-50.0), -1.0);
  EXPECT_EQ(b64::expm1(1e-300), 1e-300);
  EXPECT_EQ(b64::expm1(710.0), inf);
  EXPECT_TRUE(std::isnan(b64::exp(std::numeric_limits<double>::quiet_NaN())));
}

// The twin: log with its polynomial cut to degree 4 (truncation up to r^5/5 ~ 2^-40 relative) must be caught by
// the same comparison.
TEST(PortableMath, Binary64TruncatedTwinIsCaught) {
  auto twin = [](double x) {
    int e = 0;
    const double m = std::frexp(x, &e);  // [1/2, 1)
    const double r = (m - 0.75) / 0.75;
    return e * 0.69314718055994530942 + std::log(0.75) + r * (1 + r * (-0.5 + r * (1.0 / 3 + r * -0.25)));
  };
  std::mt19937_64 rng(11);
  const Binary64Case c{"twin log", +twin, mpfr_log, 1e-300, 1e300, 1.0625, true};
  EXPECT_GT(binary64_worst(c, rng, 2000), c.bound);
}

TEST(PortableMath, DoubleFunctionsAtTheirEdges) {
  using dpl::portable::pow;
  EXPECT_EQ(pow(-2.0, 3.0), -8.0);
  EXPECT_EQ(pow(-2.0, 2.0), 4.0);
  EXPECT_TRUE(std::isnan(pow(-2.0, 0.5)));
  EXPECT_EQ(pow(0.0, -1.0), std::numeric_limits<double>::infinity());
  EXPECT_EQ(pow(-0.0, -1.0), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(pow(0.0, 2.0), 0.0);
  EXPECT_EQ(pow(-std::numeric_limits<double>::infinity(), 3.0), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(pow(0.5, std::numeric_limits<double>::infinity()), 0.0);
  EXPECT_EQ(pow(-1.0, std::numeric_limits<double>::infinity()), 1.0);
  EXPECT_EQ(pow(7.0, 0.0), 1.0);
  const auto power_of_ten = [](int k) {
    char text[16];
    std::snprintf(text, sizeof text, "1e%d", k);
    return std::strtod(text, nullptr);  // correctly rounded
  };
  for (int k = -20; k <= 22; ++k) EXPECT_EQ(pow(10.0, k), power_of_ten(k)) << k;
  for (int k = 0; k <= 22; ++k) EXPECT_EQ(dpl::portable::log10(power_of_ten(k)), k) << k;
  EXPECT_EQ(dpl::portable::tanh(50.0), 1.0);
  EXPECT_EQ(dpl::portable::tanh(-50.0), -1.0);
  EXPECT_EQ(dpl::portable::tanh(0.0), 0.0);
  EXPECT_EQ(dpl::portable::sin(0.0), 0.0);
  EXPECT_EQ(dpl::portable::cos(0.0), 1.0);
  EXPECT_TRUE(std::isnan(dpl::portable::sin(3e7)));
  EXPECT_TRUE(std::isnan(dpl::portable::cos(std::numeric_limits<double>::infinity())));
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
