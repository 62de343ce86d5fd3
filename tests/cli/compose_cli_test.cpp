// SPDX-License-Identifier: Apache-2.0
// `dpledger compose` from the command line: the acceptance values of the classic accountants, the JSON fields,
// and exit code 2 with one `error:` line when an accountant does not apply.
#include "tests/cli/run_binary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace dpl::testing {
namespace {

std::string first_number(const std::string& text) {
  const auto p = text.find("epsilon");
  const auto b = text.find_first_of("0123456789", p);
  return text.substr(b, text.find_first_of(" \n", b) - b);
}

TEST(ComposeCli, AcceptanceValues) {
  auto r = run_dpledger("compose -m pure:eps=0.1,steps=100 --delta 1e-5 --accountant optimal");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(first_number(r.out), "4.30679137251651");
  r = run_dpledger("compose -m pure:eps=0.1,steps=100 --delta 1e-5 --accountant advanced");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LE(std::stod(first_number(r.out)), 5.85023509294456);
  r = run_dpledger("compose -m gaussian:sigma=1 --delta 1e-5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(first_number(r.out), "4.37717809568123");
}

TEST(ComposeCli, JsonCarriesResolvedInputsAndBracket) {
  const auto r = run_dpledger("--json compose -m gaussian:sigma=1 --epsilon 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["command"], "compose");
  EXPECT_EQ(j["accountant"], "optimal");
  EXPECT_EQ(j["accountant_requested"], "auto");
  EXPECT_EQ(j["given"], "epsilon");
  EXPECT_EQ(j["epsilon"].get<double>(), 1.0);
  // Reference: 0.1269367375066439458008296; rounded up / down at 15 digits.
  EXPECT_GE(j["delta"].get<double>(), 0.1269367375066439);
  EXPECT_LE(j["delta"].get<double>(), 0.126936737506645);
  EXPECT_LE(j["delta_lower"].get<double>(), 0.126936737506644);
  EXPECT_EQ(j["mechanisms"][0]["sens"], 1.0);
}

TEST(ComposeCli, AutoPicksTheTightestClassicAccountant) {
  const auto r = run_dpledger("--json compose -m laplace:b=10,steps=300 --delta 1e-6");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto opt = nlohmann::json::parse(
      run_dpledger("--json compose -m laplace:b=10,steps=300 --delta 1e-6 --accountant optimal").out);
  const auto adv = nlohmann::json::parse(
      run_dpledger("--json compose -m laplace:b=10,steps=300 --delta 1e-6 --accountant advanced").out);
  EXPECT_LE(j["epsilon"].get<double>(), opt["epsilon"].get<double>());
  EXPECT_LE(opt["epsilon"].get<double>(), adv["epsilon"].get<double>());
  EXPECT_LE(adv["epsilon"].get<double>(), 30.0 + 1e-9);
}

TEST(ComposeCli, AccountantThatDoesNotApplyExitsTwo) {
  for (const char* args : {"compose -m gaussian:sigma=1 --delta 1e-5 --accountant advanced",
                           "compose -m gaussian:sigma=1 --delta 1e-5 --accountant pure",
                           "compose -m laplace:b=1 -m laplace:b=2 --delta 1e-5 --accountant optimal",
                           "compose -m approx:eps=1,delta=1e-3,steps=10 --delta 1e-5 --accountant optimal",
                           "compose -m gaussian:sigma=1 --delta 0 --accountant optimal",
                           "compose -m pure:eps=1 --delta 1e-5 --accountant frobnicate"}) {
    const auto r = run_dpledger(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_TRUE(r.out.empty()) << args;
    EXPECT_EQ(count_lines(r.err), 1) << args << r.err;
    EXPECT_EQ(r.err.rfind("error:", 0), 0u) << args << r.err;
  }
}

TEST(ComposeCli, DeltaDirectionRoundsUp) {
  const auto r = run_dpledger("--json compose -m pure:eps=0.1,steps=100 --epsilon 4.30679137251651 --accountant optimal");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_LE(j["delta"].get<double>(), 1e-5);
  EXPECT_GE(j["delta"].get<double>(), 0.99999e-5);
}

}  // namespace
}  // namespace dpl::testing

namespace dpl::testing {
namespace {

TEST(CalibrateCli, FullBatchGaussianAndJson) {
  const auto r = run_dpledger("--json calibrate -m gaussian:sigma=?,steps=100 --epsilon 1 --delta 1e-5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["command"], "calibrate");
  EXPECT_EQ(j["parameter"], "sigma");
  EXPECT_GE(j["value"].get<double>(), 37.30631634815941813);
  EXPECT_LE(j["value"].get<double>(), 37.3063163481595);
  EXPECT_EQ(j["epsilon"].get<double>(), 1.0);
  EXPECT_EQ(j["delta"].get<double>(), 1e-5);
  EXPECT_EQ(j["mechanisms"][0]["steps"], 100);
  // Fed back to compose, the printed value meets the target.
  const auto c = run_dpledger("--json compose -m gaussian:sigma=" + j["mechanisms"][0]["sigma"].dump() +
                              ",steps=100 --delta 1e-5");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_LE(nlohmann::json::parse(c.out)["epsilon"].get<double>(), 1.0);
}

TEST(CalibrateCli, BadInputExitsTwo) {
  for (const char* args : {"calibrate -m gaussian:sigma=1 --epsilon 1 --delta 1e-5",
                           "calibrate -m gaussian:sigma=? --epsilon 1",
                           "calibrate -m gaussian:sigma=? --epsilon -1 --delta 1e-5",
                           "calibrate -m gaussian:sigma=?,q=? --epsilon 1 --delta 1e-5",
                           "calibrate -m gaussian:sens=? --epsilon 1 --delta 1e-5",
                           "calibrate -m gaussian:sigma=? --epsilon 1 --delta 1e-5 --tolerance 2",
                           "calibrate -m gaussian:sigma=? --epsilon 1 --delta 1e-5 --accountant pure"}) {
    const auto r = run_dpledger(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_TRUE(r.out.empty()) << args;
    EXPECT_EQ(count_lines(r.err), 1) << args << r.err;
    EXPECT_EQ(r.err.rfind("error:", 0), 0u) << args << r.err;
  }
}

// --json carries the text's directed decimal even below the double range (it used to print 0 or a subnormal
// below the truth), and the upper bound is never below the lower bound.
TEST(ComposeCli, JsonCarriesDecimalsOutsideTheDoubleRange) {
  for (const char* eps : {"40", "38.3"}) {
    const auto text = run_dpledger(std::string("compose -m gaussian:sigma=1 --epsilon ") + eps);
    const auto json = run_dpledger(std::string("--json compose -m gaussian:sigma=1 --epsilon ") + eps);
    ASSERT_EQ(json.exit_code, 0) << json.err;
    const auto d = text.out.find("delta");
    const auto b = text.out.find_first_of("0123456789", d);
    const std::string upper = text.out.substr(b, text.out.find(' ', b) - b);
    EXPECT_NE(json.out.find("\"delta\":" + upper + ","), std::string::npos) << json.out;
    EXPECT_NO_THROW({ const auto parsed = nlohmann::json::parse(json.out); (void)parsed; }) << json.out;  // valid JSON (a reader's double may underflow)
  }
  EXPECT_NE(run_dpledger("--json compose -m gaussian:sigma=1 --epsilon 40").out.find("3.90897082393935e-343"),
            std::string::npos);
}

TEST(ComposeCli, JsonVersionAndHelp) {
  auto r = run_dpledger("--json --version");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(r.out)["command"], "version");
  r = run_dpledger("--json compose --help");
  ASSERT_EQ(r.exit_code, 0);
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["command"], "help");
  EXPECT_NE(j["text"].get<std::string>().find("--accountant"), std::string::npos);
}

// Poisson (add/remove) and wor (replace-one) entries in one ledger are refused with exit 2 and the conversion
// named; each scheme alone is accepted.
TEST(ComposeCli, MixedNeighbouringRelationsRefused) {
  const auto r = run_dpledger("compose -m gaussian:sigma=1,q=0.01,steps=1000 -m laplace:b=1,q=0.01,sampling=wor,"
                              "steps=1000 --delta 1e-5");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_EQ(count_lines(r.err), 1);
  EXPECT_NE(r.err.find("group privacy"), std::string::npos) << r.err;
  EXPECT_EQ(run_dpledger("compose -m laplace:b=1,q=0.01,sampling=wor,steps=10 -m pure:eps=1 --delta 1e-5 "
                         "--accountant advanced").exit_code, 0);
}

// Identical entries are merged: 100 copies of one Laplace give exactly what steps=100 gives.
TEST(ComposeCli, IdenticalEntriesMerged) {
  std::string many;
  for (int i = 0; i < 100; ++i) many += " -m laplace:b=100";
  const auto a = run_dpledger("compose" + many + " --delta 1e-5 --accountant optimal");
  const auto b = run_dpledger("compose -m laplace:b=100,steps=100 --delta 1e-5 --accountant optimal");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(first_number(a.out), first_number(b.out));
}

// The decimal typed is what is bounded: --delta 1e-5 (not a double) gives an upper bound computed at the double
// below it and a lower bound at the double above it, so upper >= lower always.
TEST(ComposeCli, DecimalTargetsBracketTheTypedValue) {
  const auto r = run_dpledger("--json compose -m pure:eps=0.01,steps=1000000 --delta 1e-5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["accountant"], "optimal");
  EXPECT_GE(j["epsilon"].get<double>(), j["epsilon_lower"].get<double>());
  // Independent reference (log-space double sum of KOV 2015 Thm 3.3 over all l): 91.8160016369997 +- 1e-9.
  EXPECT_NEAR(j["epsilon"].get<double>(), 91.8160016369997, 1e-9);
}

}  // namespace
}  // namespace dpl::testing
