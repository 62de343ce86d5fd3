// SPDX-License-Identifier: Apache-2.0
// Mechanism spec parsing and validation (docs/cli.md, "Mechanism specs").
#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/mechanisms/mechanism_spec.h"
#include "accounting/numeric/decimal.h"
#include "accounting/numeric/exact_rational.h"
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

// Every numeric key of every mechanism is read as a decimal: a hexadecimal float (which strtod accepts) or another
// non-decimal form is refused with the key and its allowed range, for eps and delta as for the others.
TEST(MechanismSpec, NonDecimalNumbersRefusedForEveryKey) {
  const std::vector<std::pair<std::string, std::string>> specs = {
      {"gaussian:sigma=X", "sigma"},          {"gaussian:sigma=1,sens=X", "sens"},
      {"gaussian:noise_multiplier=X", "noise_multiplier"}, {"laplace:b=X", "b"},
      {"rr:eps=X", "eps"},                    {"pure:eps=X", "eps"},
      {"approx:eps=X,delta=0.1", "eps"},      {"approx:eps=1,delta=X", "delta"},
      {"gaussian:sigma=1,q=X", "q"},          {"gaussian:sigma=1,sample_rate=X", "sample_rate"},
      {"gaussian:sigma=1,steps=X", "steps"},  {"iteration:sigma=1,sens=1,steps=X", "steps"},
      {"iteration:sigma=1,sens=1,steps=5,index=X", "index"},
      {"iteration:sigma=1,sens=1,steps=5,contraction=X", "contraction"},
      {"gaussian:sigma=1,batch_size=X,dataset_size=100", "batch_size"},
      {"gaussian:sigma=1,batch_size=10,dataset_size=X", "dataset_size"},
      {"gaussian:sigma=1,batch_size=10,dataset_size=100,epochs=X", "epochs"}};
  for (const auto& [spec, key] : specs)
    for (const std::string bad : {"0x1p-3", "0X10", "infinity", "nan", "1e", ".", "1.2.3", "1,5", "0x1.8p1"}) {
      std::string text = spec;
      text.replace(text.find('X'), 1, bad);
      try {
        parse_entry(text);
        ADD_FAILURE() << text << " was accepted";
      } catch (const InputError& e) {
        const std::string m = e.what();
        // "1,5" splits into "1" and the item "5"; the others name the key and, as non-decimals, the allowed range.
        if (bad == "1,5") continue;
        EXPECT_NE(m.find(key + "=" + bad), std::string::npos) << m;
        EXPECT_NE(m.find("allowed"), std::string::npos) << m;
      }
    }
  EXPECT_NO_THROW(parse_entry("gaussian:sigma=+1.5e+0,q=.25,steps=1E3"));
}

// Each end of an enclosure is the double on its side of the decimal: sigma and b down, the others up; the optimistic
// ends the reverse. Decimals that are doubles have no optimistic ends.
TEST(MechanismSpec, TypedDecimalsAreEnclosed) {
  auto below = [](double x, const std::string& d) { return lo(exact(x)) <= lo(from_decimal(d)) && Real(std::nextafter(x, 1e300)) > hi(from_decimal(d)); };
  auto above = [](double x, const std::string& d) { return lo(exact(x)) >= hi(from_decimal(d)) && Real(std::nextafter(x, -1e300)) < lo(from_decimal(d)); };
  for (const std::string v : {"0.1", "0.8", "1.1", "3.8128573", "0.06496", "6.979", "36.23", "1e-300"}) {
    const LedgerEntry g = parse_entry("gaussian:sigma=" + v + ",sens=" + v + ",q=0.436");
    EXPECT_TRUE(below(g.mechanism.sigma, v)) << v;
    EXPECT_TRUE(above(g.mechanism.sens, v)) << v;
    ASSERT_TRUE(g.optimistic);
    EXPECT_TRUE(above(g.optimistic->mechanism.sigma, v)) << v;
    EXPECT_TRUE(below(g.optimistic->mechanism.sens, v)) << v;
    EXPECT_TRUE(above(g.q, "0.436"));
    EXPECT_TRUE(below(g.optimistic->q, "0.436"));
    const LedgerEntry l = parse_entry("laplace:b=" + v);
    EXPECT_TRUE(below(l.mechanism.b, v)) << v;
    const LedgerEntry c = parse_entry("iteration:sigma=1,sens=1,steps=3,contraction=0.9");
    EXPECT_TRUE(above(c.mechanism.contraction, "0.9"));
    EXPECT_TRUE(below(c.optimistic->mechanism.contraction, "0.9"));
  }
  EXPECT_FALSE(parse_entry("gaussian:sigma=0.5,sens=2,q=0.25,steps=10").optimistic);
  EXPECT_EQ(optimistic_entry(parse_entry("gaussian:sigma=0.8")).mechanism.sigma, 0.8);  // the nearest is above 0.8
}

// DP-SGD's vocabulary: aliases, the exact fraction q=B/N, and epochs with batch_size/dataset_size.
TEST(MechanismSpec, DpSgdVocabulary) {
  auto same = [](const std::string& a, const std::string& b) {
    const LedgerEntry x = parse_entry(a), y = parse_entry(b);
    return x.mechanism.sigma == y.mechanism.sigma && x.q == y.q && x.steps == y.steps && x.sampling == y.sampling &&
           x.optimistic.has_value() == y.optimistic.has_value() &&
           (!x.optimistic || (x.optimistic->mechanism.sigma == y.optimistic->mechanism.sigma && x.optimistic->q == y.optimistic->q));
  };
  EXPECT_TRUE(same("gaussian:noise_multiplier=1.1,sample_rate=0.01,steps=100", "gaussian:sigma=1.1,q=0.01,steps=100"));
  // q = B/N exactly: the ends enclose 256/60000 (not a double) within one ulp; batch_size/dataset_size give the same.
  const LedgerEntry f = parse_entry("gaussian:sigma=1,q=256/60000");
  const Rational q(256, 60000);
  EXPECT_GT(exact_rational(f.q), q);
  ASSERT_TRUE(f.optimistic);
  EXPECT_LT(exact_rational(f.optimistic->q), q);
  EXPECT_EQ(std::nextafter(f.optimistic->q, 1.0), f.q);
  EXPECT_TRUE(same("gaussian:sigma=1,q=256/60000", "gaussian:sigma=1,batch_size=256,dataset_size=60000"));
  EXPECT_FALSE(parse_entry("gaussian:sigma=1,q=1/4").optimistic);  // 0.25 is a double
  EXPECT_EQ(parse_entry("gaussian:sigma=1,q=1/4").q, 0.25);
  // steps = ceil(E N / B), exactly.
  EXPECT_EQ(parse_entry("gaussian:sigma=1,batch_size=256,dataset_size=60000,epochs=30").steps, 7032);  // 7031.25
  EXPECT_EQ(parse_entry("gaussian:sigma=1,batch_size=100,dataset_size=1000,epochs=2").steps, 20);
  EXPECT_EQ(parse_entry("gaussian:sigma=1,batch_size=3,dataset_size=10,epochs=0.3").steps, 1);
  EXPECT_EQ(parse_entry("gaussian:sigma=1,batch_size=3,dataset_size=10,epochs=0.9").steps, 3);  // exactly 3
  EXPECT_EQ(parse_entry("gaussian:sigma=1,batch_size=3,dataset_size=10,epochs=0.9000000000000000001").steps, 4);
  EXPECT_EQ(parse_entry("gaussian:sigma=1,batch_size=256,dataset_size=60000,epochs=30").sampling, Sampling::poisson);
  // Opacus's vocabulary: q (sample_rate) with epochs, steps = ceil(E / q) (Opacus: int(E / q), the same when whole).
  EXPECT_EQ(parse_entry("gaussian:sigma=1,q=256/60000,epochs=30").steps, 7032);  // 7031.25
  EXPECT_EQ(parse_entry("gaussian:sigma=1,sample_rate=0.01,epochs=3").steps, 300);  // exactly 300
  EXPECT_EQ(parse_entry("gaussian:sigma=1,q=0.003,epochs=1").steps, 334);         // 333.33...
  EXPECT_EQ(parse_entry("gaussian:sigma=1,q=1/600,epochs=2").steps, 1200);
  EXPECT_EQ(parse_entry("gaussian:sigma=1,q=0.3,epochs=0.9").steps, 3);  // exactly 3, not the double 0.9/0.3
  EXPECT_EQ(parse_entry("gaussian:noise_multiplier=1,q=256/60000,epochs=30").steps,
            parse_entry("gaussian:sigma=1,batch_size=256,dataset_size=60000,epochs=30").steps);
  EXPECT_EQ(parse_entry("gaussian:sigma=1,batch_size=256,dataset_size=60000,sampling=wor").sampling, Sampling::wor);
  EXPECT_EQ(parse_entry("gaussian:sigma=1,q=0.01,sampling=poisson_replace_one").sampling, Sampling::poisson_replace_one);
  // Over- and under-specified: one error naming the keys.
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"gaussian:sigma=1,noise_multiplier=1", "sigma and noise_multiplier"},
      {"gaussian:sigma=1,q=0.1,sample_rate=0.1", "q and sample_rate"},
      {"gaussian:noise_multiplier=1,sens=2", "noise_multiplier"},
      {"gaussian:sigma=1,q=0.1,batch_size=1,dataset_size=10", "both give the sampling rate"},
      {"gaussian:sigma=1,batch_size=1", "batch_size and dataset_size go together"},
      {"gaussian:sigma=1,dataset_size=10", "batch_size and dataset_size go together"},
      {"gaussian:sigma=1,epochs=3", "epochs needs the sampling rate"},
      {"gaussian:sigma=1,q=1e-15,epochs=2", "gives 2000000000000000 steps"},
      {"gaussian:sigma=1,steps=10,epochs=3,batch_size=1,dataset_size=10", "steps and epochs"},
      {"gaussian:sigma=1,batch_size=11,dataset_size=10", "batch_size=11 is out of range"},
      {"gaussian:sigma=1,batch_size=1.5,dataset_size=10", "batch_size=1.5 must be an integer"},
      {"gaussian:sigma=1,q=3/2", "q=3/2 is not a fraction"},
      {"gaussian:sigma=1,q=1/0", "q=1/0 is not a fraction"},
      {"gaussian:sigma=1,q=0.5/1", "q=0.5/1 is not a fraction"},
      {"gaussian:sigma=1,batch_size=1,dataset_size=10,epochs=0", "epochs=0 is out of range"},
      {"gaussian:sigma=1,batch_size=1,dataset_size=1e15,epochs=2", "gives 2000000000000000 steps"},
      {"laplace:noise_multiplier=1", "unknown key 'noise_multiplier'"},
      {"iteration:sigma=1,sens=1,steps=3,epochs=1", "unknown key 'epochs'"},
      {"gaussian", "missing required key 'sigma' (or noise_multiplier)"},
      {"laplace:b=1,q=0.1,sampling=poisson_replace_one", "gaussian only"},
      {"discrete_laplace:a=1,q=0.1,sampling=poisson_replace_one", "gaussian only"},
      {"gaussian:sigma=1,q=1,sampling=poisson_replace_one", "sens=2*sens"},
      {"gaussian:sigma=1,sampling=poisson_replace_one", "needs q"}};
  for (const auto& [spec, says] : bad) {
    try {
      parse_entry(spec);
      ADD_FAILURE() << spec << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << spec << ": " << e.what();
    }
  }
  // Calibration keys: the aliases can be '?', the sizes and epochs cannot.
  EXPECT_NO_THROW(parse_raw_spec("gaussian:noise_multiplier=?,sample_rate=0.01", true));
  EXPECT_NO_THROW(parse_raw_spec("gaussian:sigma=1,sample_rate=?", true));
  EXPECT_THROW(parse_raw_spec("gaussian:sigma=1,batch_size=?,dataset_size=10", true), InputError);
  EXPECT_THROW(parse_raw_spec("gaussian:sigma=1,batch_size=1,dataset_size=10,epochs=?", true), InputError);
  try {  // steps = ceil(epochs/q) would move with the q calibrated
    build_entry(parse_raw_spec("gaussian:sigma=1,q=?,epochs=3", true), 0.5);
    ADD_FAILURE() << "q=? with epochs accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("give steps instead of epochs"), std::string::npos) << e.what();
  }
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
