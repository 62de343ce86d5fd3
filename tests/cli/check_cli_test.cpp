// SPDX-License-Identifier: Apache-2.0
// `dpledger check` from the command line: one claim alone, a paper prefix, --list, --json, --report, bad input.
#include "tests/cli/run_binary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>

namespace dpl::testing {
namespace {

TEST(CheckCli, OneClaimJson) {
  const auto r = run_dpledger("--json check 000/eq-2.6 --quick");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["command"], "check");
  ASSERT_EQ(j["claims"].size(), 1u);
  const auto& c = j["claims"][0];
  EXPECT_EQ(c["id"], "000/eq-2.6");
  EXPECT_EQ(c["status"], "fails");
  EXPECT_EQ(c["expected"], "fails");
  for (const char* k : {"source", "statement", "claimed", "computed", "note", "counterexample", "reproduce"})
    EXPECT_TRUE(c.contains(k)) << k;
  EXPECT_NE(c["source"].get<std::string>().find("Xiao"), std::string::npos);
  EXPECT_TRUE(r.err.empty()) << r.err;  // no progress when stderr is not a terminal
}

TEST(CheckCli, ReproduceCommandShowsTheCounterexample) {
  const auto r = run_dpledger("--json check 000/eq-2.6 --quick");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string cmd = nlohmann::json::parse(r.out)["claims"][0]["reproduce"];
  ASSERT_EQ(cmd.rfind("dpledger ", 0), 0u);
  const auto g = run_dpledger("--json " + cmd.substr(9));
  ASSERT_EQ(g.exit_code, 0) << g.err;
  EXPECT_EQ(nlohmann::json::parse(g.out)["thesis_bound_is_below_gamma"], true);
}

TEST(CheckCli, PerturbedConstantGivesExitThree) {
  const auto r = run_dpledger("check 004/thm-1-chain --quick --set constant=160");
  EXPECT_EQ(r.exit_code, 3) << r.out;
  EXPECT_NE(r.out.find("holds"), std::string::npos);
}

// A claim that fails as printed but holds in a named reading: the readable report shows the paper, the statement,
// the parameters and the reading; the JSON carries the status, verdict and holds_where.
TEST(CheckCli, FailsAsPrintedIsReportedWithItsReading) {
  const auto t = run_dpledger("check 000/footnote-2 --quick");
  ASSERT_EQ(t.exit_code, 0) << t.out << t.err;
  for (const char* k : {"Xiao 2019", "footnote 2", "statement", "parameters", "counterexample", "verdict", "fails as printed"})
    EXPECT_NE(t.out.find(k), std::string::npos) << k;
  const auto r = run_dpledger("--json check 000/footnote-2 --quick");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto c = nlohmann::json::parse(r.out)["claims"][0];
  EXPECT_EQ(c["status"], "fails as printed");
  EXPECT_FALSE(c["holds_where"].get<std::string>().empty());
  for (const char* k : {"paper", "location", "kind", "method", "verdict", "parameters"}) EXPECT_TRUE(c.contains(k)) << k;
}

TEST(CheckCli, ListAndReport) {
  const auto l = run_dpledger("--json check --list");
  ASSERT_EQ(l.exit_code, 0) << l.err;
  const auto lj = nlohmann::json::parse(l.out);
  EXPECT_GE(lj["claims"].size(), 90u);
  ASSERT_GE(lj["left_out"].size(), 1u);
  for (const auto& x : lj["left_out"]) EXPECT_FALSE(x["reason"].get<std::string>().empty());
  for (const auto& c : lj["claims"]) EXPECT_FALSE(c["mutation"]["constant"].get<std::string>().empty()) << c["id"];
  const std::string md = "/tmp/dpledger_check_report_test.md";
  std::remove(md.c_str());
  const auto r = run_dpledger("check 002 --quick --report " + md);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string text = read_all(md);
  EXPECT_NE(text.find("## 002"), std::string::npos);
  EXPECT_NE(text.find("| 002/lemma-IV.1 |"), std::string::npos);
  std::remove(md.c_str());
}

TEST(CheckCli, BadInput) {
  auto r = run_dpledger("check 009");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("error:", 0), 0u) << r.err;
  EXPECT_TRUE(r.out.empty());
  r = run_dpledger("check 004/thm-1-chain --set constant=abc");
  EXPECT_EQ(r.exit_code, 2);
  r = run_dpledger("check 004/thm-1 --set nothing=1");
  EXPECT_EQ(r.exit_code, 2);
}

}  // namespace
}  // namespace dpl::testing
