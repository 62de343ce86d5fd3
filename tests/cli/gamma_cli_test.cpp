// SPDX-License-Identifier: Apache-2.0
// `dpledger gamma` from the command line: the acceptance values, grid mode files, and bad input.
#include "tests/cli/run_binary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <vector>

namespace dpl::testing {
namespace {

TEST(GammaCli, AcceptanceValues) {
  const auto r = run_dpledger("--json gamma --omega 1 --beta 1 --shift 0.5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["command"], "gamma");
  EXPECT_NEAR(j["gamma"].get<double>(), 0.922801925220776, 1e-10);
  EXPECT_NEAR(j["gamma_thesis_bound"].get<double>(), 0.882812671541095, 1e-10);
  EXPECT_DOUBLE_EQ(j["worst"].get<double>(), 0.5);
  EXPECT_EQ(j["thesis_bound_is_below_gamma"], true);
  // The certified enclosure: two-sided around the reference value, tight.
  EXPECT_GE(j["gamma_upper"].get<double>(), 0.9228019252207762);
  EXPECT_LE(j["gamma_upper"].get<double>(), 0.9228019252207762 * (1 + 2e-7));
  EXPECT_LE(j["gamma_lower"].get<double>(), 0.9228019252207762);
  EXPECT_GE(j["expected_loss_upper"].get<double>(), 0.5 * 0.9228019252207762);
}

// Extreme parameters (once -nan): every value a number or an explanatory string, in text and JSON.
TEST(GammaCli, ExtremeParametersGiveNumbersNotNan) {
  for (const std::string& args : std::vector<std::string>{
           "gamma --omega 0.1:1:2 --beta 1.7497 --shift 5.2e134", "gamma --omega 1 --beta 1 --shift 1e-300",
           "gamma --omega 1e-300 --beta 1 --shift 1", "gamma --omega 1e300 --beta 1e300 --shift 1",
           "gamma --omega 1e300 --beta 1 --shift 1e300", "gamma --omega 1 --beta 1e-300 --shift 1e-5",
           "gamma --omega 5 --beta 700 --shift 3"}) {
    for (const std::string mode : {"", "--json "}) {
      const auto r = run_dpledger_with_limit(mode + args, 60)  /* a hang guard, not a speed claim */;
      EXPECT_EQ(r.exit_code, 0) << args << ": " << r.err;
      EXPECT_EQ(r.out.find("nan"), std::string::npos) << args << ": " << r.out;
      EXPECT_EQ(r.out.find("null"), std::string::npos) << args << ": " << r.out;
    }
  }
  const auto r = run_dpledger("--json gamma --omega 1 --beta 1 --shift 5.2e134");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["gamma_thesis_bound"].is_string());  // omega < shift: eq. (2.6) does not apply
  EXPECT_LE(j["gamma_upper"].get<double>(), 1.0);
  EXPECT_GT(j["gamma_lower"].get<double>(), 0.99);  // the loss is the worst case almost everywhere
}

TEST(GammaCli, GridWritesCsvAndSvg) {
  const std::string csv = "/tmp/dpledger_gamma_test.csv", svg = "/tmp/dpledger_gamma_test.svg";
  std::remove(csv.c_str());
  std::remove(svg.c_str());
  const auto r = run_dpledger("--json gamma --omega 0.1:1:10 --beta 2:10:9 --shift 0.001 --csv " + csv + " --svg " + svg);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["points"].size(), 90u);
  std::ifstream f(csv);
  std::string line;
  int lines = 0;
  while (std::getline(f, line)) ++lines;
  EXPECT_EQ(lines, 92);  // the provenance line, the header, 90 points
  std::ifstream g(svg);
  std::string head;
  std::getline(g, head);
  EXPECT_EQ(head.rfind("<svg", 0), 0u);
}

TEST(GammaCli, BadInputExitsTwoAndWritesNothing) {
  const std::string csv = "/tmp/dpledger_gamma_bad.csv";
  std::remove(csv.c_str());
  for (const std::string& args : std::vector<std::string>{"gamma --omega 0 --beta 1", "gamma --omega 1 --beta -1", "gamma --omega 1 --beta 1 --shift nan",
                                 "gamma --omega 1:2 --beta 1", "gamma --omega 1:2:0 --beta 1", "gamma --omega 1 --beta 1 --csv " + csv,
                                 "gamma --omega 1:2:3 --beta 1 --csv /nonexistent/dir/x.csv",
                                 "gamma --omega 1:2:1000 --beta 1:2:1000"}) {
    const auto r = run_dpledger(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_TRUE(r.out.empty()) << args;
    EXPECT_EQ(r.err.rfind("error:", 0), 0u) << args << r.err;
  }
  EXPECT_FALSE(std::ifstream(csv).good());
}

}  // namespace
}  // namespace dpl::testing
