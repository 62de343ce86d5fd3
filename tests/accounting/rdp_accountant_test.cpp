// SPDX-License-Identifier: Apache-2.0
// RDP curves, composition and conversion: golden values, the integer formula against the fractional series,
// and the invariants (monotone in alpha, (a-1) eps(a) convex, monotone in q and sigma, subsampled <= plain,
// q = 1 equals plain, composition additive, conversion monotone in delta).
#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/numeric/decimal.h"
#include "accounting/rdp/rdp_accountant.h"
#include "accounting/rdp/rdp_basic_mechanisms.h"
#include "accounting/rdp/rdp_conversion.h"
#include "accounting/rdp/rdp_iteration.h"
#include "accounting/rdp/rdp_subsampled_gaussian.h"
#include "accounting/rdp/rdp_subsampled_general.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

namespace dpl {
namespace {

Interval curve_at(const std::string& spec, double alpha) { return make_rdp_curve(parse_entry(spec))->at(Real(alpha)); }

// hi is an upper bound on the reference (up to the reference's own last digit) and within tol of it.
void expect_upper(const Interval& v, const char* ref, double rel_tol) {
  const Real r(ref);
  EXPECT_GE(hi(v), r * (1 - Real(1e-18))) << format_upper(v) << " vs " << ref;
  EXPECT_LE(hi(v) - r, r * Real(rel_tol)) << format_upper(v) << " vs " << ref;
}

TEST(Rdp, ReferenceValues) {
  // Public reference values.
  expect_upper(curve_at("gaussian:sigma=2", 4), "0.5", 1e-40);
  expect_upper(curve_at("laplace:b=1", 2), "0.6191236299985928834", 1e-18);
  expect_upper(curve_at("gaussian:sigma=1.1,q=0.01", 2), "0.0001285100816051610", 1e-14);
  // Fractional orders near 1 converge slowly: the proven tail keeps ~12 digits there.
  expect_upper(curve_at("gaussian:sigma=1.1,q=0.01", 1.5), "9.554528571874829949e-05", 1e-11);
  // Independent 40-digit quadrature of D_a((1-q)N(0,z^2) + qN(1,z^2) || N(0,z^2)) (mpmath), at the doubles nearest
  // to 1.1 and 0.01 (the curve's own accuracy)...
  expect_upper(SubsampledGaussianRdp(0.01, 1.1).at(Real(2)), "0.000128510081605161802909099", 1e-18);
  expect_upper(SubsampledGaussianRdp(0.01, 1.1).at(Real(4.671447211487244)), "0.0003156745528318701312680002", 1e-16);
  // ... and at the decimals typed, which the spec holds by their enclosure (sigma at the double below 1.1): an upper
  // bound at the decimal, within the enclosure's width (~4e-16 relative) of it.
  expect_upper(curve_at("gaussian:sigma=1.1,q=0.01", 2), "0.000128510081605161828053347111", 2e-15);
  expect_upper(curve_at("gaussian:sigma=1.1,q=0.01", 4.671447211487244), "0.000315674552831870197856495544", 2e-15);
  expect_upper(curve_at("gaussian:sigma=1,q=0.1", 2.5), "0.02350372726100308110488724", 1e-12);
  expect_upper(curve_at("gaussian:sigma=2,q=0.05", 7.3), "0.002814525109916325959498706", 1e-18);
}

TEST(Rdp, DpSgdAcceptance) {
  const Ledger l{parse_entry("gaussian:sigma=1.1,q=0.01,steps=10000")};
  const auto r = compose(l, Target::for_delta(1e-5), AccountantKind::rdp);
  EXPECT_LE(hi(r.epsilon), Real("5.63199236868181"));
  EXPECT_GT(hi(r.epsilon), Real("5.6"));
  ASSERT_TRUE(r.order.has_value());
  // The order is a (near-)minimiser: nearby orders give no smaller certified bound than 1e-9 below.
  const ComposedRdp rdp(l);
  for (double a : {*r.order * 0.98, *r.order * 1.02}) {
    const Interval e = rdp_to_epsilon(rdp.at(Real(a)), Real(a), 1e-5);
    EXPECT_GE(hi(e), hi(r.epsilon) - Real(1e-9));
  }
}

TEST(Rdp, IterationAcceptanceAndContraction) {
  // a s^2 / (2 sigma^2 m) at m = 10: exactly 0.1 (printed exactly via the rational path).
  const auto c = make_rdp_curve(parse_entry("iteration:sigma=1,sens=1,steps=10,index=1"));
  ASSERT_TRUE(c->exact_at(2.0).has_value());
  EXPECT_EQ(format_up_rational(*c->exact_at(2.0)), "0.1");
  EXPECT_TRUE(contains(c->at(Real(2)), Real("0.1")) || hi(c->at(Real(2))) - Real("0.1") < Real(1e-50));
  // Seed 003 notes, check C6 (exact for linear contractions): c = 0.9, alpha = 2, s = sigma = 1:
  // 0.4475, 0.1256, 0.003519, 1.65e-10 for m = 2, 5, 20, 100.
  const double expect[] = {0.4475, 0.1256, 0.003519, 1.65e-10};
  const int ms[] = {2, 5, 20, 100};
  for (int i = 0; i < 4; ++i) {
    const IterationRdp r(1.0, 1.0, ms[i], 0.9);
    EXPECT_NEAR(hi(r.at(Real(2))).convert_to<double>(), expect[i], expect[i] * 4e-3) << ms[i];  // notes give 3-4 digits
  }
  // The record's step matters: used later, fewer noisy steps follow, more loss.
  EXPECT_LT(hi(curve_at("iteration:sigma=1,sens=1,steps=10,index=1", 2)),
            hi(curve_at("iteration:sigma=1,sens=1,steps=10,index=9", 2)));
}

TEST(Rdp, IntegerFormulaEqualsFractionalSeries) {
  for (double q : {0.001, 0.01, 0.2}) {
    for (double z : {0.7, 1.1, 3.0}) {
      const SubsampledGaussianRdp c(q, z);
      for (int a : {2, 3, 7, 16}) {
        const Interval i = c.integer_moment(a);
        const Interval f = c.fractional_moment(Real(a));
        EXPECT_LE(abs(mid(i) - mid(f)), mid(i) * Real(1e-25)) << q << " " << z << " " << a;
      }
    }
  }
}

TEST(Rdp, ExtremeOrdersAreFinite) {
  const auto c = make_rdp_curve(parse_entry("gaussian:sigma=1.1,q=0.01"));
  for (double a : {1.000001, 1.01, 1e3, 1e5, 100000.0}) {
    const Interval v = c->at(Real(a));
    EXPECT_TRUE(is_finite(v)) << a;
    EXPECT_GE(lo(v), Real(0)) << a;
  }
  // At huge integer orders the subsampled Gaussian approaches the plain one (alpha / (2 z^2) - O(log(1/q)/alpha)), z
  // the noise the entry holds (the double below 1.1).
  const double z = parse_entry("gaussian:sigma=1.1").mechanism.sigma;
  EXPECT_LE(hi(c->at(Real(1e5))), Real(1e5) / (2 * Real(z) * Real(z)) * (1 + Real("1e-50")));  // + outward rounding
}

TEST(Rdp, NotApplicable) {
  EXPECT_THROW(make_rdp_curve(parse_entry("approx:eps=1,delta=1e-5")), NotApplicable);
  EXPECT_THROW(make_rdp_curve(parse_entry("iteration:sigma=1,steps=3,q=0.5")), InputError);  // no q key
  const Ledger l{parse_entry("gaussian:sigma=1")};
  EXPECT_THROW(compose(l, Target::for_delta(0), AccountantKind::rdp), NotApplicable);
}

// --- properties ---------------------------------------------------------------------------------------------

double unit(unsigned v, double lo, double hi) { return lo + (hi - lo) * (v % 10001) / 10000.0; }

std::string sgm(double q, double sigma) {
  return "gaussian:sigma=" + format_input(sigma) + ",q=" + format_input(q);
}

RC_GTEST_PROP(Rdp, SubsampledGaussianInvariants, (unsigned a, unsigned b, unsigned c)) {
  const double q = unit(a, 0.001, 0.5), sigma = unit(b, 0.6, 5.0);
  const double alpha = c % 2 ? std::floor(unit(c, 2, 60)) : unit(c, 4.0, 40.0);
  const auto curve = make_rdp_curve(parse_entry(sgm(q, sigma)));
  const Interval v = curve->at(Real(alpha));
  // Non-decreasing in alpha; (a-1) eps(a) convex (midpoint); monotone in q and sigma; below the plain Gaussian.
  RC_ASSERT(hi(v) <= hi(curve->at(Real(alpha * 1.1))) + Real(1e-30));
  const double a1 = alpha, a2 = alpha + 2, am = (a1 + a2) / 2;
  const Interval g1 = (exact(a1) - 1) * curve->at(Real(a1)), g2 = (exact(a2) - 1) * curve->at(Real(a2));
  RC_ASSERT(lo((exact(am) - 1) * curve->at(Real(am))) <= hi((g1 + g2) / 2) + Real(1e-30));
  RC_ASSERT(hi(v) <= hi(curve_at(sgm(std::min(1.0, q * 1.2), sigma), alpha)) + Real(1e-30));
  RC_ASSERT(hi(curve_at(sgm(q, sigma * 1.2), alpha)) <= hi(v) + Real(1e-30));
  RC_ASSERT(hi(v) <= hi(curve_at("gaussian:sigma=" + format_input(sigma), alpha)));
}

RC_GTEST_PROP(Rdp, ZhuWangIsAboveTheExactSubsampledGaussian, (unsigned a, unsigned b, unsigned c)) {
  // The general Poisson bound applied to a Gaussian base must lie above MTZ's exact value (sandwich).
  const double q = unit(a, 0.001, 0.3), sigma = unit(b, 0.8, 4.0);
  const int alpha = 2 + static_cast<int>(c % 30);
  const SubsampledGeneralRdp general(std::make_unique<GaussianRdp>(sigma, 1.0), q,
                                     SubsampledGeneralRdp::Scheme::poisson);
  const SubsampledGaussianRdp exact_curve(q, sigma);
  RC_ASSERT(lo(general.at(Real(alpha))) >= lo(exact_curve.at(Real(alpha))) - Real(1e-30));
}

RC_GTEST_PROP(Rdp, GeneralSubsamplingInvariants, (unsigned a, unsigned b, unsigned c, bool wor)) {
  const double q = unit(a, 0.001, 0.9), eps = unit(b, 0.05, 3.0), alpha = unit(c, 1.2, 30.0);
  const std::string base = "laplace:b=" + format_input(1 / eps);
  const std::string sampled = base + ",q=" + format_input(q) + (wor ? ",sampling=wor" : "");
  const Interval v = curve_at(sampled, alpha);
  RC_ASSERT(hi(v) <= hi(curve_at(base, alpha)));  // subsampled <= plain
  RC_ASSERT(hi(v) <= hi(curve_at(base + ",q=" + format_input(std::min(1.0, q * 1.3)) + (wor ? ",sampling=wor" : ""), alpha)) + Real(1e-25));
  RC_ASSERT(lo(v) >= 0);
  // q = 1 is the plain mechanism.
  RC_ASSERT(hi(curve_at(base + ",q=1", alpha)) == hi(curve_at(base, alpha)));
  // Randomized response: never above min(eps, alpha eps^2 / 2).
  const Interval rr = curve_at("rr:eps=" + format_guarantee(eps), alpha);
  RC_ASSERT(hi(rr) <= std::min(eps, alpha * eps * eps / 2) * (1 + 1e-12));
}

RC_GTEST_PROP(Rdp, CompositionAdditiveAndConversionMonotone, (unsigned a, unsigned b, unsigned c)) {
  const double sigma = unit(a, 0.5, 5.0), alpha = b % 2 ? std::floor(unit(b, 2, 50)) : unit(b, 4.0, 50.0);
  const int k = 1 + static_cast<int>(c % 1000);
  const std::string spec = sgm(0.02, sigma);
  const ComposedRdp one(Ledger{parse_entry(spec)});
  const ComposedRdp many(Ledger{parse_entry(spec + ",steps=" + std::to_string(k))});
  const ComposedRdp split(Ledger{parse_entry(spec + ",steps=" + std::to_string(k)), parse_entry(spec)});
  RC_ASSERT(abs(mid(many.at(Real(alpha))) - k * mid(one.at(Real(alpha)))) <= Real(1e-30) * k);
  RC_ASSERT(abs(mid(split.at(Real(alpha))) - (k + 1) * mid(one.at(Real(alpha)))) <= Real(1e-30) * k);
  const Interval r = many.at(Real(alpha));
  RC_ASSERT(hi(rdp_to_epsilon(r, Real(alpha), 1e-3)) <= hi(rdp_to_epsilon(r, Real(alpha), 1e-6)));
  RC_ASSERT(hi(rdp_to_delta(r, Real(alpha), 1.0)) >= hi(rdp_to_delta(r, Real(alpha), 2.0)));
}

}  // namespace
}  // namespace dpl
