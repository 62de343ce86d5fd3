// SPDX-License-Identifier: Apache-2.0
// Golden values and properties of the classic accountants: analytic Gaussian, advanced (DRV, KOV), optimal
// homogeneous composition (KOV), amplification by subsampling, and their ordering.
#include "accounting/composition/advanced_composition.h"
#include "accounting/composition/basic_composition.h"
#include "accounting/composition/compose.h"
#include "accounting/composition/optimal_composition.h"
#include "accounting/errors.h"
#include "accounting/mechanisms/analytic_gaussian.h"
#include "accounting/mechanisms/subsampling_amplification.h"
#include "accounting/numeric/decimal.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <boost/multiprecision/mpfr.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace dpl {
namespace {

// The certified bracket [lower, upper] must contain the exact value and be tighter than tol. The references
// carry 20-25 significant digits, so containment is checked up to 1e-18 relative (their own rounding).
void expect_bracket(const AccountingResult& r, const char* exact_decimal, double tol) {
  const Real exact_value(exact_decimal);
  const Real slack = Real(1e-18) * exact_value;
  EXPECT_GE(hi(r.epsilon), exact_value - slack) << format_upper(r.epsilon);
  EXPECT_LE(hi(r.epsilon) - exact_value, Real(tol)) << format_upper(r.epsilon);
  if (r.lower) {
    EXPECT_LE(lo(*r.lower), exact_value + slack);
  }
}

// The enclosure x contains the reference value up to the reference's own last digit.
bool near_contains(const Interval& x, const char* ref, double rel = 1e-20) {
  const Real v(ref);
  return lo(x) <= v * (1 + Real(rel)) && hi(x) >= v * (1 - Real(rel));
}

Ledger ledger(const std::string& spec) { return {parse_entry(spec)}; }

AccountingResult eps_for(const std::string& spec, double delta, AccountantKind k) {
  return compose(ledger(spec), Target::for_delta(delta), k);
}

TEST(AnalyticGaussian, ReferenceValues) {
  // Public reference value, analytic Gaussian (Balle-Wang 2018), exact.
  expect_bracket(eps_for("gaussian:sigma=1", 1e-5, AccountantKind::optimal), "4.377178095681224608553986", 1e-14);
  expect_bracket(eps_for("gaussian:sigma=2", 1e-10, AccountantKind::optimal), "3.099430330243196047725763", 1e-14);
  expect_bracket(eps_for("gaussian:sigma=10,steps=1000", 1e-5, AccountantKind::optimal), "17.85658683010761386",
                 1e-13);
  const Interval d = analytic_gaussian_delta(exact(1.0), exact(1.0));
  EXPECT_TRUE(near_contains(d, "0.1269367375066439458008296"));
  EXPECT_LT(width(d), Real(1e-40));
  EXPECT_EQ(format_upper(eps_for("gaussian:sigma=1", 1e-5, AccountantKind::automatic).epsilon), "4.37717809568123");
}

TEST(AnalyticGaussian, HeterogeneousGaussiansComposeToOne) {
  // sigma=1 (sens 2) and 3 steps of sigma=2: mu^2 = 4 + 3/4, the same as one Gaussian with mu = sqrt(4.75).
  const Ledger l{parse_entry("gaussian:sigma=1,sens=2"), parse_entry("gaussian:sigma=2,steps=3")};
  const auto mu = composed_gaussian_mu(l);
  ASSERT_TRUE(mu);
  EXPECT_TRUE(contains(*mu, sqrt(Real("4.75"))));
  const auto r = compose(l, Target::for_delta(1e-6), AccountantKind::optimal);
  const auto s = analytic_gaussian_epsilon(sqrt(exact(4.75)), 1e-6);
  EXPECT_LE(abs(hi(r.epsilon) - hi(s.epsilon)), Real(1e-20));
  // Subsampled Gaussians have no exact closed form here.
  EXPECT_THROW(eps_for("gaussian:sigma=1,q=0.5", 1e-5, AccountantKind::optimal), NotApplicable);
}

TEST(OptimalComposition, ReferenceAndIndependentValues) {
  // Public reference value: KOV 2015 optimal, eps0=0.1, k=100, delta=1e-5 (exact).
  const auto r = eps_for("pure:eps=0.1,steps=100", 1e-5, AccountantKind::optimal);
  expect_bracket(r, "4.306791372516507044737851", 1e-13);
  EXPECT_EQ(format_upper(r.epsilon), "4.30679137251651");
  // Computed independently by 50-digit bisection on the KOV sum (mpmath), inputs as binary64.
  expect_bracket(eps_for("pure:eps=0.1,steps=1000", 1e-3, AccountantKind::optimal), "14.044466996837434457", 1e-12);
  expect_bracket(eps_for("approx:eps=0.1,delta=" + format_guarantee(1e-7) + ",steps=100", 1e-5, AccountantKind::optimal),
                 "6.3780691034395254127", 1e-12);
  expect_bracket(eps_for("rr:eps=0.5,steps=20", 1e-6, AccountantKind::optimal), "9.9867978696401640566", 1e-12);
  // delta = 0: exactly k eps0 (0.1 as binary64 is slightly above 0.1).
  const auto z = eps_for("pure:eps=0.1,steps=100", 0.0, AccountantKind::optimal);
  EXPECT_GE(hi(z.epsilon), Real(100) * Real(0.1));
}

TEST(OptimalComposition, OneStepClosedForm) {
  // k = 1: delta(eps) = (e^eps0 - e^eps)/(1 + e^eps0), so eps = log(e^eps0 - delta (1 + e^eps0)) exactly.
  for (double eps0 : {0.01, 0.5, 2.0, 7.0}) {
    for (double delta : {1e-9, 1e-3, 0.1}) {
      const Interval e0 = exact(eps0);
      const Interval closed = log(exp(e0) - exact(delta) * (1 + exp(e0)));
      if (!certainly_gt(closed, exact(0.0))) continue;
      const auto s = kov_optimal_epsilon(e0, exact(0.0), 1, delta);
      EXPECT_GE(hi(s.epsilon), lo(closed)) << eps0 << " " << delta;
      EXPECT_LE(hi(s.epsilon) - hi(closed), Real(1e-20)) << eps0 << " " << delta;
    }
  }
}

TEST(AdvancedComposition, ReferenceValue) {
  // Public reference value: DRV bound, eps0=0.1, k=100, delta'=1e-5: 5.850235092944557824739504.
  const auto steps = step_profiles(ledger("pure:eps=0.1,steps=100"), "advanced");
  const Interval drv = drv_epsilon(steps, exact(1e-5));
  EXPECT_TRUE(near_contains(drv, "5.850235092944557824739504"));
  const auto r = eps_for("pure:eps=0.1,steps=100", 1e-5, AccountantKind::advanced);
  EXPECT_LE(hi(r.epsilon), Real("5.85023509294456"));
  // KOV's third branch: 100*0.1*tanh(0.05) + 0.1*sqrt(200 ln 1e5) is smaller here.
  const Interval kov = exact(10.0) * tanh(exact(0.05)) + exact(0.1) * sqrt(exact(200.0) * log(exact(1e5)));
  EXPECT_LE(abs(hi(r.epsilon) - mid(kov)), Real(1e-12));
}

TEST(Amplification, PoissonReferenceValue) {
  // Public reference value: log(1 + q(e^eps - 1)), q=0.001, eps=0.1.
  const auto r = eps_for("pure:eps=0.1,q=0.001", 0.0, AccountantKind::pure);
  EXPECT_EQ(format_upper(r.epsilon).substr(0, 16), "0.00010516538800");
  EXPECT_TRUE(contains(r.epsilon, Real("0.000105165388002375")) || abs(hi(r.epsilon) - Real("0.000105165388002375")) < Real(1e-18));
}

// --- properties ---------------------------------------------------------------------------------------------

double unit(unsigned v, double lo, double hi) { return lo + (hi - lo) * (v % 10001) / 10000.0; }

RC_GTEST_PROP(ClassicAccountants, OptimalBelowAdvancedBelowBasic, (unsigned a, unsigned b, unsigned c)) {
  const double eps0 = unit(a, 0.01, 1.5);
  const int k = 1 + static_cast<int>(b % 1500);
  const double delta = std::pow(10.0, -unit(c, 1, 12));
  const std::string spec = "pure:eps=" + format_guarantee(eps0) + ",steps=" + std::to_string(k);
  const auto opt = eps_for(spec, delta, AccountantKind::optimal);
  const auto adv = eps_for(spec, delta, AccountantKind::advanced);
  const auto bas = eps_for(spec, delta, AccountantKind::basic);
  RC_ASSERT(hi(opt.epsilon) <= hi(adv.epsilon));
  RC_ASSERT(hi(adv.epsilon) <= hi(bas.epsilon));
  // auto is the smallest of them.
  RC_ASSERT(hi(eps_for(spec, delta, AccountantKind::automatic).epsilon) <= hi(opt.epsilon));
}

RC_GTEST_PROP(ClassicAccountants, OptimalMonotone, (unsigned a, unsigned b, unsigned c)) {
  const double eps0 = unit(a, 0.01, 1.0);
  const int k = 1 + static_cast<int>(b % 800);
  const double delta = std::pow(10.0, -unit(c, 1, 10));
  const auto base = kov_optimal_epsilon(exact(eps0), exact(0.0), k, delta);
  RC_ASSERT(hi(base.epsilon) <= hi(kov_optimal_epsilon(exact(eps0 * 1.1), exact(0.0), k, delta).epsilon));
  RC_ASSERT(hi(base.epsilon) <= hi(kov_optimal_epsilon(exact(eps0), exact(0.0), k + 7, delta).epsilon));
  RC_ASSERT(hi(kov_optimal_epsilon(exact(eps0), exact(0.0), k, delta * 2).epsilon) <= hi(base.epsilon));
}

RC_GTEST_PROP(ClassicAccountants, OptimalRoundTripEpsDeltaEps, (unsigned a, unsigned b, unsigned c)) {
  const double eps0 = unit(a, 0.02, 1.0);
  const int k = 2 + static_cast<int>(b % 500);
  const double eps = unit(c, 0.0, 1.0) * k * eps0;
  const Interval d = kov_optimal_delta(exact(eps0), exact(0.0), k, exact(eps));
  RC_PRE(hi(d) > 1e-300 && hi(d) < 1);
  // Meeting delta(eps) needs at most eps; strictly less than delta(eps) needs at least eps.
  const auto up = kov_optimal_epsilon(exact(eps0), exact(0.0), k, hi_up(d));
  RC_ASSERT(hi(up.epsilon) <= Real(eps) * (1 + Real(1e-20)) + Real(1e-20));
  const auto down = kov_optimal_epsilon(exact(eps0), exact(0.0), k, lo_down(d) * (1 - 1e-12));
  RC_ASSERT(hi(down.epsilon) >= Real(eps));
}

RC_GTEST_PROP(ClassicAccountants, GaussianRoundTripAndMonotone, (unsigned a, unsigned c)) {
  const double sigma = unit(a, 0.3, 50.0);
  const double delta = std::pow(10.0, -unit(c, 1, 14));
  const Interval mu = exact(1.0) / exact(sigma);
  const auto s = analytic_gaussian_epsilon(mu, delta);
  RC_ASSERT(s.lower.has_value());
  // delta at the certified upper end is at most the target; at the lower end above it (unless eps = 0 works).
  RC_ASSERT(hi(analytic_gaussian_delta(mu, make_interval(hi(s.epsilon), hi(s.epsilon)))) <= Real(delta));
  if (hi(s.epsilon) > 0) RC_ASSERT(lo(analytic_gaussian_delta(mu, *s.lower)) > Real(delta));
  // Monotone: more noise, less epsilon; larger delta, less epsilon.
  RC_ASSERT(hi(analytic_gaussian_epsilon(exact(1.0) / exact(sigma * 1.05), delta).epsilon) <= hi(s.epsilon));
  RC_ASSERT(hi(analytic_gaussian_epsilon(mu, std::min(0.5, delta * 3)).epsilon) <= hi(s.epsilon));
}

// The long-double estimate that starts the certified Newton iteration and aims calibration steps agrees with the
// certified bracket to 1e-13 relatively (it is not a bound, but a wrong one would slow or misdirect both).
RC_GTEST_PROP(ClassicAccountants, GaussianEpsilonEstimateWithinTheBracket, (unsigned a, unsigned c)) {
  const double sigma = unit(a, 0.05, 200.0);
  const double delta = std::pow(10.0, -unit(c, 0.5, 14));
  const auto s = analytic_gaussian_epsilon(exact(1.0) / exact(sigma), delta);
  const auto e = analytic_gaussian_epsilon_estimate(1 / sigma, delta);
  RC_ASSERT(e.has_value());
  const double up = hi_up(s.epsilon), down = s.lower ? lo_down(*s.lower) : 0.0;
  RC_ASSERT(*e <= up * (1 + 1e-13) + 1e-300);
  RC_ASSERT(*e >= down * (1 - 1e-13));
}

RC_GTEST_PROP(ClassicAccountants, AmplificationMonotoneInQ, (unsigned a, unsigned b)) {
  const double q = unit(a, 0.001, 0.9);
  const double eps = unit(b, 0.01, 5.0);
  const auto spec = [&](double qq) { return "laplace:b=" + format_input(1 / eps) + ",q=" + format_input(qq); };
  const auto lo_q = eps_for(spec(q), 0.0, AccountantKind::pure);
  const auto hi_q = eps_for(spec(std::min(1.0, q * 1.1)), 0.0, AccountantKind::pure);
  RC_ASSERT(hi(lo_q.epsilon) <= hi(hi_q.epsilon));
  RC_ASSERT(hi(lo_q.epsilon) <= Real(eps) * (1 + Real(1e-15)));
}

RC_GTEST_PROP(ClassicAccountants, AdvancedDeltaDirectionConsistent, (unsigned a, unsigned b, unsigned c)) {
  // delta at the epsilon that advanced reports for delta D is at most D (within the interval width).
  const double eps0 = unit(a, 0.01, 0.5);
  const int k = 10 + static_cast<int>(b % 5000);
  const double delta = std::pow(10.0, -unit(c, 2, 12));
  const std::string spec = "pure:eps=" + format_guarantee(eps0) + ",steps=" + std::to_string(k);
  const auto e = eps_for(spec, delta, AccountantKind::advanced);
  const auto d = compose(ledger(spec), Target::for_epsilon(hi_up(e.epsilon) * (1 + 1e-12)), AccountantKind::advanced);
  RC_ASSERT(hi(d.delta) <= Real(delta) * (1 + Real(1e-9)));
}


// --- against an independent high-precision computation (100 digits, direct formulas, no shared code) ----------

namespace independent {

using R = boost::multiprecision::mpfr_float_100;

// KOV 2015 Thm 3.3, the direct sum with exact binomial coefficients (no window, no recurrence).
R kov_delta(double eps0_d, int k, const R& eps) {
  const R eps0(eps0_d);
  R sum = 0, binom = 1;
  for (int l = 0; l <= k; ++l) {
    const R t = exp(R(k - l) * eps0) - exp(eps + R(l) * eps0);
    if (t > 0) sum += binom * t;
    binom = binom * R(k - l) / R(l + 1);
  }
  return sum / pow(1 + exp(eps0), k);
}

// Balle and Wang 2018, Thm 8 directly: Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu), Phi(x) = erfc(-x/sqrt2)/2.
R gaussian_delta(const R& mu, const R& eps) {
  auto phi = [](const R& x) { return boost::multiprecision::erfc(-x / sqrt(R(2))) / 2; };
  return phi(mu / 2 - eps / mu) - exp(eps) * phi(-mu / 2 - eps / mu);
}

// KOV 2017 Thm 3.5, homogeneous: min{k e, M + sqrt(2V log(e + sqrt(V)/d)), M + sqrt(2V log(1/d))}.
R kov2017_epsilon(double eps0_d, int k, double delta) {
  const R e(eps0_d), d(delta);
  const R v = R(k) * e * e;
  const R m = R(k) * e * (exp(e) - 1) / (exp(e) + 1);
  const R b2 = m + sqrt(2 * v * log(exp(R(1)) + sqrt(v) / d));
  const R b3 = m + sqrt(2 * v * log(1 / d));
  return std::min({R(k) * e, b2, b3});
}

R real_of(const Real& x) { return R(x.str(0, std::ios_base::scientific)); }

}  // namespace independent

RC_GTEST_PROP(ClassicAccountants, OptimalAgainstIndependentSum, (unsigned a, unsigned b, unsigned c)) {
  const double eps0 = unit(a, 0.01, 2.0);
  const int k = 1 + static_cast<int>(b % 200);
  const double delta = std::pow(10.0, -unit(c, 1, 12));
  const auto r = eps_for("pure:eps=" + format_guarantee(eps0) + ",steps=" + std::to_string(k), delta,
                         AccountantKind::optimal);
  // Upper bound: the exact profile at it is <= delta (up to the 100-digit evaluation's own error).
  const independent::R at_up = independent::kov_delta(eps0, k, independent::real_of(hi(r.epsilon)));
  RC_ASSERT(at_up <= independent::R(delta) * (1 + independent::R("1e-40")));
  if (hi(r.epsilon) > 0 && r.lower) {
    // Lower bound: the exact profile at it is >= delta, and the bracket is narrow.
    RC_ASSERT(independent::kov_delta(eps0, k, independent::real_of(lo(*r.lower))) >=
              independent::R(delta) * (1 - independent::R("1e-40")));
    RC_ASSERT(hi(r.epsilon) - lo(*r.lower) <= Real(1e-12) * (1 + hi(r.epsilon)));
  }
}

RC_GTEST_PROP(ClassicAccountants, AnalyticGaussianAgainstIndependentFormula, (unsigned a, unsigned b, unsigned c)) {
  // sigma and sens over several orders of magnitude (sens != 1), delta from 1e-2 to 1e-14.
  const double sigma = std::pow(10.0, unit(a, -1, 2)), sens = std::pow(10.0, unit(b, -1, 1));
  const double delta = std::pow(10.0, -unit(c, 2, 14));
  const auto r = eps_for("gaussian:sigma=" + format_input(sigma) + ",sens=" + format_input(sens), delta,
                         AccountantKind::optimal);
  const independent::R mu = independent::R(sens) / independent::R(sigma);
  RC_ASSERT(independent::gaussian_delta(mu, independent::real_of(hi(r.epsilon))) <=
            independent::R(delta) * (1 + independent::R("1e-40")));
  RC_ASSERT(r.lower.has_value());
  if (lo(*r.lower) > 0)
    RC_ASSERT(independent::gaussian_delta(mu, independent::real_of(lo(*r.lower))) >=
              independent::R(delta) * (1 - independent::R("1e-40")));
}

RC_GTEST_PROP(ClassicAccountants, AdvancedAgainstIndependentKov2017, (unsigned a, unsigned b, unsigned c)) {
  const double eps0 = unit(a, 0.001, 1.0);
  const int k = 2 + static_cast<int>(b % 5000);
  const double delta = std::pow(10.0, -unit(c, 2, 12));
  const auto r = eps_for("pure:eps=" + format_guarantee(eps0) + ",steps=" + std::to_string(k), delta,
                         AccountantKind::advanced);
  // Advanced reports the smaller of DRV and KOV 2017, so it is <= KOV 2017 and, being a valid bound, >= the
  // exact optimum; here: two-sided against KOV 2017 computed independently when KOV is the one reported.
  const independent::R kov = independent::kov2017_epsilon(eps0, k, delta);
  const independent::R up = independent::real_of(hi(r.epsilon));
  RC_ASSERT(up <= kov * (1 + independent::R("1e-12")));
  if (r.note.find("Kairouz-Oh-Viswanath") != std::string::npos) RC_ASSERT(up >= kov * (1 - independent::R("1e-30")));
  // Never below the exact optimal composition.
  if (k <= 200)
    RC_ASSERT(independent::kov_delta(eps0, k, up) <= independent::R(delta) * (1 + independent::R("1e-40")));
}

}  // namespace
}  // namespace dpl
