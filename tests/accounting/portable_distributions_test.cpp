// SPDX-License-Identifier: Apache-2.0
// portable_distributions: the Clopper-Pearson beta quantiles (both tails, n to 10^12, alpha to 1e-15), the gamma,
// normal and Student t quantiles and log Gamma within 1e-14 relative of Boost.Math evaluated in 30-digit MPFR (an
// independent implementation at twice the precision), the quantiles inverting their distribution functions, and a
// miscalibrated twin (alpha moved by a relative 1e-6) caught by the same comparison.
#include "accounting/numeric/portable_distributions.h"

#include <boost/math/distributions/students_t.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <boost/math/special_functions/erf.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <boost/multiprecision/mpfr.hpp>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>

namespace {

using Ref = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<30>,
                                          boost::multiprecision::et_off>;
namespace P = dpl::portable;

constexpr double kTolerance = 1e-14;

double relative_error(long double got, const Ref& exact) {
  return static_cast<double>(boost::multiprecision::abs((Ref(got) - exact) / exact));
}

// n in [1, 10^12] log-uniformly, k anywhere in [0, n] or among the smallest counts, alpha in [1e-15, 0.45].
struct BinomialCase {
  std::uint64_t k, n;
  double alpha;
};

void showValue(const BinomialCase& c, std::ostream& os) { os << "k=" << c.k << " n=" << c.n << " alpha=" << c.alpha; }

rc::Gen<BinomialCase> binomial_cases() {
  return rc::gen::apply(
      [](int log_n_thousandths, int position_millionths, bool small_k, int small, int log_alpha_thousandths) {
        const auto n = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::exp(log_n_thousandths / 1000.0)));
        const std::uint64_t k = small_k ? std::min<std::uint64_t>(n, static_cast<std::uint64_t>(small))
                                        : static_cast<std::uint64_t>(static_cast<long double>(n) *
                                                                     position_millionths / 1e6L);
        return BinomialCase{k, n, std::exp(log_alpha_thousandths / 1000.0)};
      },
      rc::gen::inRange(0, 27632), rc::gen::inRange(0, 1000001), rc::gen::arbitrary<bool>(), rc::gen::inRange(0, 6),
      rc::gen::inRange(-34538, -798));
}

// The lower Clopper-Pearson bound: the alpha quantile of Beta(k, n - k + 1); the upper: 1 minus the alpha quantile
// of Beta(n - k, k + 1), read from its complement y.
double lower_error(const BinomialCase& c, double alpha) {
  const long double got = P::beta_quantile(c.k, c.n - c.k + 1, alpha).x;
  return relative_error(got, boost::math::ibeta_inv(Ref(c.k), Ref(c.n - c.k + 1), Ref(c.alpha)));
}

double upper_error(const BinomialCase& c, double alpha) {
  const long double got = P::beta_quantile(c.n - c.k, c.k + 1, alpha).y;
  return relative_error(got, boost::math::ibetac_inv(Ref(c.k + 1), Ref(c.n - c.k), Ref(c.alpha)));
}

RC_GTEST_PROP(PortableDistributions, ClopperPearsonQuantilesMatchMpfr, ()) {
  const BinomialCase c = *binomial_cases();
  if (c.k > 0) RC_ASSERT(lower_error(c, c.alpha) < kTolerance);
  if (c.k < c.n) RC_ASSERT(upper_error(c, c.alpha) < kTolerance);
}

// The twin: the same quantiles at alpha (1 + 1e-6), compared with the exact ones at alpha, must be caught.
TEST(PortableDistributions, MiscalibratedQuantileTwinIsCaught) {
  const BinomialCase cases[] = {{1, 10, 0.025},       {3, 1000000, 1e-6},          {500, 1000, 0.05},
                                {4, 736227862, 3e-4}, {70380615, 132833637, 0.38}, {0, 248815556, 6e-4}};
  for (const BinomialCase& c : cases) {
    const double twin = c.alpha * (1 + 1e-6);
    if (c.k > 0) {
      EXPECT_LT(lower_error(c, c.alpha), kTolerance);
      EXPECT_GT(lower_error(c, twin), kTolerance) << c.k << " " << c.n;
    }
    if (c.k < c.n) {
      EXPECT_LT(upper_error(c, c.alpha), kTolerance);
      EXPECT_GT(upper_error(c, twin), kTolerance) << c.k << " " << c.n;
    }
  }
}

// log I_x(a, b) at the quantile equals MPFR's at the same x to within its forward error, about a u_ld |log x| (a
// relative perturbation of x by a few u_ld: what the quantile comparison above measures), and equals log alpha.
RC_GTEST_PROP(PortableDistributions, BetaQuantileInvertsTheDistributionFunction, ()) {
  const BinomialCase c = *binomial_cases();
  RC_PRE(c.k > 0);
  const P::UnitPoint q = P::beta_quantile(c.k, c.n - c.k + 1, c.alpha);
  const long double at = P::log_beta_cdf(c.k, c.n - c.k + 1, q);
  const Ref exact = log(boost::math::ibeta(Ref(c.k), Ref(c.n - c.k + 1), Ref(q.x)));
  const double forward = 1e-17 * static_cast<double>(c.n) + 1e-13;
  RC_ASSERT(std::fabs(static_cast<double>(Ref(at) - exact)) < forward);
  RC_ASSERT(std::fabs(static_cast<double>(at) - std::log(c.alpha)) < forward);
}

RC_GTEST_PROP(PortableDistributions, ClopperPearsonBoundsAreMonotoneInTheCount, ()) {
  const BinomialCase c = *binomial_cases();
  RC_PRE(c.k > 0 && c.k + 1 < c.n);
  RC_ASSERT(P::beta_quantile(c.k, c.n - c.k + 1, c.alpha).x <= P::beta_quantile(c.k + 1, c.n - c.k, c.alpha).x);
  RC_ASSERT(P::beta_quantile(c.n - c.k, c.k + 1, c.alpha).y <= P::beta_quantile(c.n - c.k - 1, c.k + 2, c.alpha).y);
}

RC_GTEST_PROP(PortableDistributions, GammaQuantileAndLogGammaMatchMpfr, ()) {
  const double a = std::exp(*rc::gen::inRange(-693, 20723) / 1000.0);      // 0.5 .. 1e9
  const double alpha = std::exp(*rc::gen::inRange(-34538, -798) / 1000.0);  // 1e-15 .. 0.45
  RC_ASSERT(relative_error(P::gamma_quantile(a, alpha), boost::math::gamma_p_inv(Ref(a), Ref(alpha))) < kTolerance);
  const Ref lg = boost::math::lgamma(Ref(a));
  RC_ASSERT(static_cast<double>(abs(Ref(P::log_gamma(a)) - lg) / (abs(lg) + 1)) < kTolerance);
}

// Phi^{-1}(q) for q <= 1/2 by Newton's method in 30-digit MPFR from the value under test (quadratic convergence: four
// steps from a start within 1e-3 reach 1e-25).
Ref exact_lower_normal_quantile(const Ref& q, double start) {
  Ref x = start;
  const Ref root2 = sqrt(Ref(2)), root2pi = sqrt(2 * boost::math::constants::pi<Ref>());
  for (int i = 0; i < 6; ++i) x -= (erfc(-x / root2) / 2 - q) / (exp(-x * x / 2) / root2pi);
  return x;
}

RC_GTEST_PROP(PortableDistributions, NormalQuantileMatchesMpfrInBothTails, ()) {
  const double tail = std::exp(*rc::gen::inRange(-690000, -694) / 1000.0);  // 1e-300 .. 0.4995
  const bool upper = *rc::gen::arbitrary<bool>();
  const double p = upper ? 1 - tail : tail;
  RC_PRE(p < 1);
  const Ref exact = upper ? -exact_lower_normal_quantile(1 - Ref(p), -P::normal_quantile(p))
                          : exact_lower_normal_quantile(Ref(p), P::normal_quantile(p));
  RC_ASSERT(relative_error(P::normal_quantile(p), exact) < kTolerance);
  RC_ASSERT(std::fabs(P::normal_cdf(P::normal_quantile(tail)) / tail - 1) < 1e-12);
}

RC_GTEST_PROP(PortableDistributions, StudentTQuantileMatchesMpfr, ()) {
  const double df = *rc::gen::inRange(1, 200);
  const double p = std::exp(*rc::gen::inRange(-20723, -694) / 1000.0);  // 1e-9 .. 0.4995
  const boost::math::students_t_distribution<Ref> t{Ref(df)};
  RC_ASSERT(relative_error(P::student_t_upper_quantile(df, p), quantile(complement(t, Ref(p)))) < kTolerance);
  const double lower_tail = 1 - p;  // t < 0
  RC_ASSERT(relative_error(P::student_t_upper_quantile(df, lower_tail), quantile(complement(t, Ref(lower_tail)))) <
            kTolerance);
}

// Over the whole range (a, b from 1e-5 to 1e13, alpha from 1e-300 to 1 - 1e-16, where log I is flat within u_ld of
// 0 and a Newton step can leave the range by thousands of orders of magnitude) every quantile answers, in [0, 1],
// with x + y = 1.
RC_GTEST_PROP(PortableDistributions, BetaAndGammaQuantilesAnswerOverTheWholeRange, ()) {
  const double a = std::pow(10.0, *rc::gen::inRange(-5000, 13000) / 1000.0);
  const double b = std::pow(10.0, *rc::gen::inRange(-5000, 13000) / 1000.0);
  const double tail = std::pow(10.0, *rc::gen::inRange(-300000, -1) / 1000.0);
  const double alpha = *rc::gen::arbitrary<bool>() ? tail : 1 - tail;
  RC_PRE(alpha > 0 && alpha < 1);
  const P::UnitPoint q = P::beta_quantile(a, b, alpha);
  RC_ASSERT(q.x >= 0 && q.x <= 1 && q.y >= 0 && q.y <= 1);
  RC_ASSERT(std::fabs(static_cast<double>(q.x + q.y) - 1) < 1e-15);
  const long double g = P::gamma_quantile(a, alpha);
  RC_ASSERT(g >= 0 && std::isfinite(static_cast<double>(g)));
}

TEST(PortableDistributions, RefusesOutOfRangeArguments) {
  EXPECT_THROW(P::beta_quantile(0, 1, 0.1), std::invalid_argument);
  EXPECT_THROW(P::beta_quantile(1, 1, 1.0), std::invalid_argument);
  EXPECT_THROW(P::gamma_quantile(1, 0.0), std::invalid_argument);
  EXPECT_THROW(P::normal_quantile(1.0), std::invalid_argument);
  EXPECT_THROW(P::student_t_upper_quantile(0, 0.1), std::invalid_argument);
  EXPECT_EQ(P::normal_quantile(0.5), 0.0);
}

}  // namespace
