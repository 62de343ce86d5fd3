// SPDX-License-Identifier: Apache-2.0
// Exact Clopper-Pearson bounds: closed forms at k = 0 and k = n, the lower/upper symmetry, golden values, and
// coverage checked exactly against the binomial distribution.
#include "audit/clopper_pearson.h"

#include "accounting/errors.h"
#include "accounting/numeric/portable_distributions.h"

#include <boost/math/distributions/binomial.hpp>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

namespace dpl::audit {
namespace {

TEST(ClopperPearson, ClosedFormsAtTheEnds) {
  // k = 0: upper = 1 - alpha^{1/n}; k = n: lower = alpha^{1/n} (solve (1-p)^n = alpha and p^n = alpha).
  for (std::uint64_t n : {1u, 7u, 1000u, 1000000u}) {
    const double a = 0.025;
    const double exact_upper = -std::expm1(std::log(a) / static_cast<double>(n));  // 1 - a^{1/n}, no cancellation
    EXPECT_NEAR(clopper_pearson_upper(0, n, a), exact_upper, 1e-12 * exact_upper + 1e-15);
    EXPECT_GE(clopper_pearson_upper(0, n, a), exact_upper * (1 - 1e-14));
    EXPECT_NEAR(clopper_pearson_lower(n, n, a), std::pow(a, 1.0 / n), 1e-12);
    EXPECT_LE(clopper_pearson_lower(n, n, a), std::pow(a, 1.0 / n));
    EXPECT_EQ(clopper_pearson_lower(0, n, a), 0.0);
    EXPECT_EQ(clopper_pearson_upper(n, n, a), 1.0);
  }
}

TEST(ClopperPearson, GoldenValue) {
  // k = 5, n = 10, two-sided 95%: [0.187086, 0.812914] (Clopper and Pearson's table; R binom.test).
  EXPECT_NEAR(clopper_pearson_lower(5, 10, 0.025), 0.1870860, 1e-6);
  EXPECT_NEAR(clopper_pearson_upper(5, 10, 0.025), 0.8129140, 1e-6);
}

TEST(ClopperPearson, RejectsBadInput) {
  EXPECT_THROW(clopper_pearson_lower(1, 0, 0.05), InputError);
  EXPECT_THROW(clopper_pearson_lower(3, 2, 0.05), InputError);
  EXPECT_THROW(clopper_pearson_upper(1, 2, 0.0), InputError);
  EXPECT_THROW(clopper_pearson_upper(1, 2, 1.0), InputError);
  EXPECT_THROW(clopper_pearson_upper(1, 2, std::nan("")), InputError);
}

RC_GTEST_PROP(ClopperPearson, SymmetricAndOrdered, ()) {
  const auto n = *rc::gen::inRange<std::uint64_t>(1, 100000);
  const auto k = *rc::gen::inRange<std::uint64_t>(0, n + 1);
  const double a = *rc::gen::inRange(1, 499) / 1000.0;
  const double lo = clopper_pearson_lower(k, n, a), hi = clopper_pearson_upper(k, n, a);
  RC_ASSERT(lo <= double(k) / double(n));
  RC_ASSERT(hi >= double(k) / double(n));
  RC_ASSERT(std::fabs(lo - (1 - clopper_pearson_upper(n - k, n, a))) < 1e-9);
  // a smaller error probability gives a wider interval
  RC_ASSERT(clopper_pearson_lower(k, n, a / 2) <= lo);
  RC_ASSERT(clopper_pearson_upper(k, n, a / 2) >= hi);
}

TEST(ClopperPearson, ExactCoverage) {
  // For each p on a grid, P[lower(K) > p] <= alpha with K ~ Bin(n, p), summed exactly: the defining property.
  const std::uint64_t n = 40;
  const double a = 0.05;
  for (int i = 1; i < 100; ++i) {
    const double p = i / 100.0;
    const boost::math::binomial b(static_cast<double>(n), p);
    double miss_lo = 0, miss_hi = 0;
    for (std::uint64_t k = 0; k <= n; ++k) {
      if (clopper_pearson_lower(k, n, a) > p) miss_lo += boost::math::pdf(b, static_cast<double>(k));
      if (clopper_pearson_upper(k, n, a) < p) miss_hi += boost::math::pdf(b, static_cast<double>(k));
    }
    EXPECT_LE(miss_lo, a) << p;
    EXPECT_LE(miss_hi, a) << p;
  }
}

// The memo of computed bounds returns what the computation gives: a bound asked for again, before and after more
// than the memo's capacity of other bounds has passed through it, is the same double as the first time, and equals
// the beta quantile moved outward by its 1e-12.
TEST(ClopperPearson, RepeatedBoundsAreThoseComputedFirst) {
  const double first_lower = clopper_pearson_lower(37, 1000, 0.025), first_upper = clopper_pearson_upper(37, 1000, 0.025);
  EXPECT_EQ(clopper_pearson_lower(37, 1000, 0.025), first_lower);
  EXPECT_EQ(clopper_pearson_upper(37, 1000, 0.025), first_upper);
  EXPECT_EQ(first_lower, static_cast<double>(portable::beta_quantile(37, 964, static_cast<long double>(0.025)).x) * (1 - 1e-12));
  EXPECT_EQ(first_upper,
            static_cast<double>(portable::beta_quantile(963, 38, static_cast<long double>(0.025)).y) * (1 + 1e-12) + 1e-300);
  EXPECT_LT(clopper_pearson_lower(37, 1000, 0.01), first_lower);  // another alpha is another bound
  for (std::uint64_t k = 1; k < 270000; ++k) (void)clopper_pearson_lower(k % 999 + 1, 1000 + k / 999, 0.025);
  EXPECT_EQ(clopper_pearson_lower(37, 1000, 0.025), first_lower);
  EXPECT_EQ(clopper_pearson_upper(37, 1000, 0.025), first_upper);
}

}  // namespace
}  // namespace dpl::audit
