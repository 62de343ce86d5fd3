// SPDX-License-Identifier: Apache-2.0
// Numeric core: interval enclosures, log-space helpers, directed decimal printing, certified threshold search.
#include "accounting/numeric/certified_threshold.h"
#include "accounting/numeric/decimal.h"
#include "accounting/numeric/interval.h"
#include "accounting/numeric/log_space.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <vector>

namespace dpl {
namespace {

TEST(Interval, ExactDoubleIsDegenerate) {
  const Interval x = exact(0.1);
  EXPECT_EQ(lo(x), hi(x));
  EXPECT_EQ(mid_double(x), 0.1);
}

TEST(Interval, DecimalEnclosesNonDyadic) {
  const Interval x = from_decimal("0.1");
  EXPECT_LT(lo(x), hi(x));
  EXPECT_TRUE(contains(x, Real("0.1")));
}

TEST(Interval, ErfcEnclosesKnownValue) {
  // erfc(1) = 0.157299207050285130658779364917390740703933002034...
  const Interval e = erfc(exact(1.0));
  EXPECT_LT(abs(mid(e) - Real("0.157299207050285130658779364917390740703933002034")), Real("1e-47"));
  EXPECT_LT(width(e), Real("1e-55"));
}

TEST(Interval, LogNormalCdfFarTailMatchesAsymptotic) {
  // log Phi(-1e5) = -5e9 - log(1e5 sqrt(2 pi)) - 1e-10 + ..., both branches enclose it.
  const Interval v = log_normal_cdf(exact(-1e5));
  EXPECT_TRUE(is_finite(v));
  const double expected = -5e9 - std::log(1e5 * std::sqrt(2 * M_PI));
  EXPECT_NEAR(mid_double(v), expected, 1e-6);
  // Continuity across the branch point at -1e4.
  const Interval a = log_normal_cdf(exact(-1e4 + 1e-9));
  const Interval b = log_normal_cdf(exact(-1e4 - 1e-9));
  EXPECT_NEAR(mid_double(a), mid_double(b), 1e-3);
}

TEST(LogSpace, LogAddExpNoOverflow) {
  const Interval r = log_add_exp(exact(1e6), exact(1e6));
  EXPECT_TRUE(contains(r, Real(1e6) + log(Real(2))));
}

TEST(LogSpace, Log1mexpBothBranches) {
  // log(1 - e^{-1e-20}) = log(1e-20) + O(1e-20) and log(1 - e^{-50}) = -e^{-50} + ...
  const Interval a = log1mexp(exact(-1e-20));
  EXPECT_NEAR(mid_double(a), std::log(1e-20), 1e-12);
  const Interval b = log1mexp(exact(-50.0));
  EXPECT_NEAR(mid_double(b), -std::exp(-50.0), 1e-35);
}

TEST(LogSpace, LogBinomialExactSmall) {
  EXPECT_TRUE(contains(log_binomial(10, 3), log(Real(120))));
  // log C(100000, 50000) = 69308.7357994094011001224707362... (mpmath, 30 digits)
  EXPECT_LT(abs(mid(log_binomial(100000, 50000)) - Real("69308.7357994094011001224707362")), Real("1e-24"));
}

TEST(LogSpace, LogErfcLargeArgument) {
  // log erfc(30) = -900 - log(30 sqrt(pi)) + log(1 - 1/1800 + ...)
  const Interval v = log_erfc(exact(30.0));
  EXPECT_NEAR(mid_double(v), -900 - std::log(30 * std::sqrt(M_PI)) + std::log1p(-1.0 / 1800 + 3.0 / (4 * 810000.0)),
              1e-8);
}

TEST(Decimal, DirectedRounding) {
  const Interval third = exact(1.0) / exact(3.0);
  EXPECT_EQ(format_upper(third), "0.333333333333334");
  EXPECT_EQ(format_lower(third), "0.333333333333333");
  EXPECT_EQ(format_upper(positive_infinity()), "inf");
}

TEST(CertifiedThreshold, FindsSquareRootOfTwoFromAbove) {
  const auto t = certified_threshold(Real(0), Real(2), [](const Real& x) {
    return certainly_at_most(exact(2.0) - make_interval(x, x) * make_interval(x, x), Real(0));
  }, Real("1e-30"));
  EXPECT_GE(t.yes * t.yes, Real(2));
  EXPECT_LT(t.yes - sqrt(Real(2)), Real("1e-29"));
}

RC_GTEST_PROP(LogSpace, LogSumExpEnclosesDoubleSum, (std::vector<int> raw)) {
  RC_PRE(!raw.empty() && raw.size() < 50);
  std::vector<Interval> xs;
  double s = 0;
  for (int v : raw) {
    const double x = (v % 2000) / 100.0;  // in (-20, 20)
    xs.push_back(exact(x));
    s += std::exp(x);
  }
  const Interval r = log_sum_exp(xs);
  RC_ASSERT(std::abs(mid_double(r) - std::log(s)) <= 1e-12 * std::max(1.0, std::abs(std::log(s))));
  RC_ASSERT(width(r) < Real("1e-50"));
}

RC_GTEST_PROP(Decimal, UpperNeverBelowLowerNeverAbove, (int a, int b)) {
  RC_PRE(b != 0);
  const Interval x = exact_int(a) / exact_int(b);
  RC_ASSERT(Real(format_upper(x)) >= hi(x));
  RC_ASSERT(Real(format_lower(x)) <= lo(x));
}

}  // namespace
}  // namespace dpl
