// Mechanism spec parsing and validation (../shared/docs/cli.md, "Mechanism specs").
#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/mechanisms/mechanism_spec.h"
#include "accounting/numeric/decimal.h"
#include "accounting/numeric/interval.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace dpl {
namespace {

TEST(MechanismSpec, EntriesBuiltInCodeAreValidatedByCompose) {
  // A Gaussian with an infinite sensitivity once made the analytic-Gaussian search run for ever; entries built
  // in code (not parsed) are checked by compose() like parsed ones.
  EXPECT_NO_THROW(validate_entry(parse_entry("gaussian:sigma=1.1,q=0.01,steps=10")));
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  LedgerEntry e = parse_entry("gaussian:sigma=1");
  for (double bad : {inf, nan, 0.0, -1.0}) {
    LedgerEntry x = e;
    x.mechanism.sens = bad;
    EXPECT_THROW(validate_entry(x), InputError) << bad;
    EXPECT_THROW(compose(Ledger{x}, Target::for_delta(1e-5), AccountantKind::automatic), InputError) << bad;
    x = e;
    x.mechanism.sigma = bad;
    EXPECT_THROW(compose(Ledger{x}, Target::for_delta(1e-5), AccountantKind::automatic), InputError) << bad;
  }
  LedgerEntry l = parse_entry("laplace:b=1");
  l.mechanism.b = inf;
  EXPECT_THROW(validate_entry(l), InputError);
  l = parse_entry("approx:eps=1,delta=0.1");
  l.mechanism.delta = 1;
  EXPECT_THROW(validate_entry(l), InputError);
  l = parse_entry("pure:eps=1");
  l.steps = 0;
  EXPECT_THROW(validate_entry(l), InputError);
  l = parse_entry("pure:eps=1,q=0.5");
  l.q = 1.5;
  EXPECT_THROW(validate_entry(l), InputError);
  l = parse_entry("iteration:sigma=1,sens=1,steps=5,index=2");
  l.mechanism.index = 6;
  EXPECT_THROW(validate_entry(l), InputError);
}

TEST(MechanismSpec, ParsesDpSgdSpec) {
  const LedgerEntry e = parse_entry("gaussian:sigma=1.1,q=0.01,steps=10000");
  EXPECT_EQ(e.mechanism.kind, MechanismKind::gaussian);
  // The decimals typed are not doubles: sigma is held at the double below 1.1 (the nearest, 1.1000000000000000888,
  // is above it), q at the double above 0.01 (here the nearest); the other ends for lower bounds.
  EXPECT_EQ(e.mechanism.sigma, std::nextafter(1.1, 0.0));
  EXPECT_EQ(e.mechanism.sens, 1.0);
  EXPECT_EQ(e.q, 0.01);
  ASSERT_TRUE(e.optimistic);
  EXPECT_EQ(e.optimistic->mechanism.sigma, 1.1);
  EXPECT_EQ(e.optimistic->q, std::nextafter(0.01, 0.0));
  EXPECT_EQ(e.steps, 10000);
  EXPECT_EQ(e.sampling, Sampling::poisson);
}

TEST(MechanismSpec, DefaultsAndWor) {
  const LedgerEntry e = parse_entry("laplace:b=2,sens=0.5,q=0.1,sampling=wor");
  EXPECT_EQ(e.mechanism.b, 2.0);
  EXPECT_EQ(e.mechanism.sens, 0.5);
  EXPECT_EQ(e.sampling, Sampling::wor);
  EXPECT_EQ(parse_entry("pure:eps=1").sampling, Sampling::none);
  EXPECT_EQ(parse_entry("pure:eps=1").steps, 1);
}

TEST(MechanismSpec, IterationUsesStepsAsIterationCount) {
  const LedgerEntry e = parse_entry("iteration:sigma=1,sens=1,steps=10,index=3,contraction=0.9");
  EXPECT_EQ(e.mechanism.iterations, 10);
  EXPECT_EQ(e.mechanism.index, 3);
  EXPECT_EQ(e.mechanism.contraction, 0.9);
  EXPECT_EQ(e.steps, 1);
}

TEST(MechanismSpec, RejectsMalformedSpecs) {
  for (const char* bad :
       {"gauss:sigma=1", "gaussian", "gaussian:sigma", "gaussian:sigma=", "gaussian:sigma=0", "gaussian:sigma=-1",
        "gaussian:sigma=nan", "gaussian:sigma=inf", "gaussian:sigma=1x", "gaussian:sigma=1,,q=0.1",
        "gaussian:sigma=1,q=0", "gaussian:sigma=1,q=1.5", "gaussian:sigma=1,steps=0", "gaussian:sigma=1,steps=1.5",
        "gaussian:sigma=1,sigma=2", "gaussian:sigma=1,foo=1", "gaussian:sigma=1,sampling=wor",
        "gaussian:sigma=1,q=0.1,sampling=bogus", "approx:eps=1,delta=1", "approx:eps=-1,delta=0.1",
        "approx:eps=1", "iteration:sigma=1,sens=1,steps=3,index=4", "iteration:sigma=1,steps=3",
        "iteration:sigma=1,sens=1,steps=3,contraction=1.5", "iteration:sigma=1,sens=1,steps=3,q=0.1",
        "gaussian:sigma=?", "pure:eps=1e400"}) {
    EXPECT_THROW(parse_entry(bad), InputError) << bad;
  }
}

TEST(MechanismSpec, ErrorNamesSpecAndKey) {
  try {
    parse_entry("gaussian:sigma=-1");
    FAIL();
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("gaussian:sigma=-1"), std::string::npos);
    EXPECT_NE(m.find("(0, inf)"), std::string::npos);
  }
}

TEST(MechanismSpec, UnknownValueForCalibration) {
  const RawSpec raw = parse_raw_spec("gaussian:sigma=?,q=0.01,steps=100", true);
  ASSERT_TRUE(raw.unknown_key());
  EXPECT_EQ(*raw.unknown_key(), "sigma");
  EXPECT_EQ(build_entry(raw, 2.5).mechanism.sigma, 2.5);
  EXPECT_THROW(build_entry(raw, -1.0), InputError);
  EXPECT_THROW(parse_raw_spec("gaussian:sigma=?,q=?", true), InputError);
  EXPECT_THROW(parse_raw_spec("gaussian:sigma=1,sampling=?", true), InputError);
}

// eps and delta of a spec are claimed guarantees: the double used is the smallest one >= the decimal typed (the
// nearest double, e.g. 0.29999999999999998890 for eps=0.3, would certify a mechanism better than claimed).
void expect_smallest_double_above(double used, const std::string& typed) {
  const Interval decimal = from_decimal(typed);
  EXPECT_GE(lo(exact(used)), hi(decimal)) << typed << " became " << format_input(used);
  EXPECT_LT(Real(std::nextafter(used, 0.0)), lo(decimal)) << typed << ": not the smallest double above";
}

TEST(MechanismSpec, ClaimedEpsilonAndDeltaRoundUp) {
  for (const std::string eps : {"0.3", "0.1", "0.7", "1e-6", "2.3", "1e-300", "0.5", "40"}) {
    expect_smallest_double_above(parse_entry("pure:eps=" + eps).mechanism.eps, eps);
    expect_smallest_double_above(parse_entry("rr:eps=" + eps + ",steps=3").mechanism.eps, eps);
    expect_smallest_double_above(parse_entry("approx:eps=" + eps + ",delta=1e-6").mechanism.eps, eps);
  }
  for (const std::string delta : {"1e-6", "1e-5", "0.3", "1.1e-05", "0.25"})
    expect_smallest_double_above(parse_entry("approx:eps=0.3,delta=" + delta).mechanism.delta, delta);
  EXPECT_EQ(parse_entry("approx:eps=0,delta=0").mechanism.delta, 0.0);
  EXPECT_GT(parse_entry("pure:eps=0.3").mechanism.eps, 0.3);  // the nearest double 0.3 is below 3/10
  EXPECT_THROW(parse_entry("approx:eps=1,delta=0.99999999999999999999"), InputError);  // rounds up to 1
}

RC_GTEST_PROP(MechanismSpec, RandomDecimalGuaranteesRoundUp, (unsigned int mantissa, unsigned int exponent)) {
  const std::string typed = std::to_string(mantissa % 1000000 + 1) + "e-" + std::to_string(exponent % 30 + 1);
  const Interval decimal = from_decimal(typed);
  RC_ASSERT(lo(exact(parse_entry("pure:eps=" + typed).mechanism.eps)) >= hi(decimal));
  if (hi(decimal) < Real(1)) RC_ASSERT(lo(exact(parse_entry("approx:eps=1,delta=" + typed).mechanism.delta)) >= hi(decimal));
}

RC_GTEST_PROP(MechanismSpec, PositiveSigmaRoundTrips, (unsigned int a, unsigned int b)) {
  const double sigma = (a % 100000 + 1) / 1000.0;
  const int steps = static_cast<int>(b % 100000) + 1;
  const LedgerEntry e = parse_entry("gaussian:sigma=" + std::to_string(sigma) + ",steps=" + std::to_string(steps));
  RC_ASSERT(std::abs(e.mechanism.sigma - sigma) <= 1e-12 * sigma);
  RC_ASSERT(e.steps == steps);
}

RC_GTEST_PROP(MechanismSpec, NonPositiveOrNonFiniteNoiseRejected, (int a)) {
  const double v = -std::abs(a % 1000) / 10.0;  // <= 0
  for (const std::string& s : {std::to_string(v), std::string("nan"), std::string("-inf"), std::string("inf")})
    RC_ASSERT_THROWS_AS(parse_entry("laplace:b=" + s), InputError);
}

}  // namespace
}  // namespace dpl
