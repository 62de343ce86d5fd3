// SPDX-License-Identifier: Apache-2.0
// The soundness review's reproductions through the binary: every printed bound (text and JSON) on its safe side of
// a reference computed at the decimals typed (mpmath, 120 digits), and a calibrated value that meets the target when
// typed back. Each check is also applied to the value the parser to nearest doubles printed, which must fail it (the
// check has power). Plus DP-SGD's vocabulary and non-decimal numbers at the command line.
#include "tests/cli/run_binary.h"

#include <gtest/gtest.h>

#include <boost/multiprecision/mpfr.hpp>

#include <regex>
#include <string>

namespace dpl::testing {
namespace {

// Decimals compared exactly enough (332 bits; the exponents here reach -1.4e13, inside MPFR's range).
using Dec = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<100>, boost::multiprecision::et_off>;

// The number token after "key": in a JSON text (not parsed as a double: it may lie far below the double range).
std::string json_token(const std::string& json, const std::string& key) {
  std::smatch m;
  if (!std::regex_search(json, m, std::regex("\"" + key + "\":(-?[0-9.eE+-]+)"))) return "";
  return m[1];
}
// The number after a text line's label ("epsilon  1496.06967463946   (upper bound...").
std::string text_value(const std::string& text, const std::string& label) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex("(^|\n)" + label + " +([-0-9.eE+]+)"))) return "";
  return m[2];
}

TEST(TypedDecimalsCli, GaussianDeltaAtEpsilon1e7IsAnUpperBound) {
  const auto r = run_dpledger("--json compose -m gaussian:sigma=0.8 --epsilon 1e7");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Dec truth("1.43829637823871236133770689106e-13897421249446");
  ASSERT_FALSE(json_token(r.out, "delta").empty()) << r.out;
  EXPECT_GE(Dec(json_token(r.out, "delta")), truth) << r.out;
  EXPECT_LE(Dec(json_token(r.out, "delta_lower")), truth) << r.out;
  EXPECT_LT(Dec("1.43319573252774e-13897421249446"), truth);  // printed when sigma was read to nearest
}

TEST(TypedDecimalsCli, GaussianEpsilonPrintedAboveTheTruth) {
  const auto r = run_dpledger("compose -m gaussian:sigma=0.06496,steps=10 --delta 7.2e-11");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Dec truth("1496.06967463945013168071490682");
  EXPECT_GE(Dec(text_value(r.out, "epsilon")), truth) << r.out;
  EXPECT_LE(Dec(text_value(r.out, "lower")), truth) << r.out;
  EXPECT_LT(Dec("1496.06967463945"), truth);  // printed before
}

TEST(TypedDecimalsCli, LowerBoundBelowTheTruth) {
  const auto r = run_dpledger("--json compose -m gaussian:sigma=36.23,steps=1000000 --delta 0.037");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Dec truth("429.264109818532947007932096734");
  EXPECT_LE(Dec(json_token(r.out, "epsilon_lower")), truth) << r.out;
  EXPECT_GE(Dec(json_token(r.out, "epsilon")), truth) << r.out;
  EXPECT_GT(Dec("429.264109818533"), truth);  // epsilon_lower printed before
}

TEST(TypedDecimalsCli, RdpCurveAboveTheTruth) {
  const auto r = run_dpledger("rdp -m gaussian:sigma=6.979,q=0.436 --orders 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Dec truth("0.00393547934032241001184318440762");
  EXPECT_GE(Dec(text_value(r.out, "2")), truth) << r.out;
  EXPECT_LT(Dec("0.00393547934032241"), truth);  // printed before
}

TEST(TypedDecimalsCli, ApproxLowerBoundAtTheTypedGuarantee) {
  const auto r = run_dpledger("--json compose -m approx:eps=0.0148,delta=6.1e-09,steps=176 --delta 1.1e-05 --accountant optimal");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Dec truth("0.706563389045516983928217688211");
  EXPECT_LE(Dec(json_token(r.out, "epsilon_lower")), truth) << r.out;
  EXPECT_GE(Dec(json_token(r.out, "epsilon")), truth) << r.out;
  EXPECT_GT(Dec("0.706563389045517"), truth);  // printed before
}

TEST(TypedDecimalsCli, CalibratedValueTypedBackMeetsTheTarget) {
  auto check = [](const std::string& spec_with_unknown, const std::string& key, const std::string& accountant,
                  const std::string& old_json_value) {
    const std::string target = " --epsilon 1.6 --delta 6.7e-12 --accountant " + accountant;
    const auto c = run_dpledger("--json calibrate -m " + spec_with_unknown + target);
    ASSERT_EQ(c.exit_code, 0) << c.err;
    const std::string value = json_token(c.out, "value");
    ASSERT_FALSE(value.empty()) << c.out;
    // The text prints the same decimal, and so does the mechanisms echo.
    const auto t = run_dpledger("calibrate -m " + spec_with_unknown + target);
    EXPECT_EQ(text_value(t.out, key), value) << t.out;
    EXPECT_NE(c.out.find("\"" + key + "\":" + value), std::string::npos) << c.out;
    auto epsilon_back = [&](const std::string& v) {
      std::string spec = spec_with_unknown;
      spec.replace(spec.find('?'), 1, v);
      const auto b = run_dpledger("compose -m " + spec + " --delta 6.7e-12 --accountant " + accountant);
      EXPECT_EQ(b.exit_code, 0) << b.err;
      return Dec(text_value(b.out, "epsilon"));
    };
    EXPECT_LE(epsilon_back(value), Dec("1.6")) << value;
    if (!old_json_value.empty()) {
      EXPECT_GT(epsilon_back(old_json_value), Dec("1.6")) << old_json_value;
    }
  };
  check("pure:eps=?,steps=10", "eps", "advanced", "0.15999999999999998");  // the value --json printed before
  check("gaussian:sigma=?,steps=10", "sigma", "optimal", "");
}

TEST(TypedDecimalsCli, DpSgdVocabulary) {
  const auto a = run_dpledger("--json compose -m gaussian:noise_multiplier=1.1,batch_size=256,dataset_size=60000,epochs=30 "
                              "--delta 1e-5 --accountant rdp");
  const auto b = run_dpledger("--json compose -m gaussian:sigma=1.1,q=256/60000,steps=7032 --delta 1e-5 --accountant rdp");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(json_token(a.out, "epsilon"), json_token(b.out, "epsilon"));
  EXPECT_EQ(json_token(a.out, "steps"), "7032");  // ceil(30 x 60000 / 256)
  // The fraction's ends enclose 256/60000 = 0.0042666...: the echo reads back as the end held (rounded up).
  EXPECT_EQ(json_token(a.out, "q"), "0.0042666666666666668");
  const auto e = run_dpledger("compose -m gaussian:sigma=1.1,epochs=30 --delta 1e-5");
  EXPECT_EQ(e.exit_code, 2);
  EXPECT_NE(e.err.find("epochs needs the sampling rate"), std::string::npos) << e.err;
  EXPECT_EQ(count_lines(e.err), 1);
  // Opacus's vocabulary: sample_rate (q) with epochs gives the same entry as batch_size/dataset_size with epochs.
  const auto c = run_dpledger("--json compose -m gaussian:noise_multiplier=1.1,q=256/60000,epochs=30 "
                              "--delta 1e-5 --accountant rdp");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(json_token(c.out, "epsilon"), json_token(a.out, "epsilon"));
  EXPECT_EQ(json_token(c.out, "steps"), "7032");
  const auto cal = run_dpledger("calibrate -m gaussian:sigma=?,q=256/60000,epochs=30 --epsilon 3 --delta 1e-5");
  EXPECT_EQ(cal.exit_code, 0) << cal.err;
}

TEST(TypedDecimalsCli, NonDecimalNumbersRefused) {
  for (const std::string spec : {"gaussian:sigma=0x1p-3", "gaussian:sigma=1,q=0x1p-4", "gaussian:sigma=1,steps=0x10",
                                 "pure:eps=0x1p-1", "approx:eps=1,delta=0x1p-20", "laplace:b=0x1p-1074"}) {
    const auto r = run_dpledger("compose -m " + spec + " --delta 1e-5");
    EXPECT_EQ(r.exit_code, 2) << spec;
    EXPECT_NE(r.err.find("is not a decimal number (allowed: "), std::string::npos) << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
  }
}

}  // namespace
}  // namespace dpl::testing
