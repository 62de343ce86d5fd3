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
  EXPECT_EQ(lines, 91);
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
                                 "gamma --omega 1:2:3 --beta 1 --csv /nonexistent/dir/x.csv"}) {
    const auto r = run_dpledger(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_TRUE(r.out.empty()) << args;
    EXPECT_EQ(r.err.rfind("error:", 0), 0u) << args << r.err;
  }
  EXPECT_FALSE(std::ifstream(csv).good());
}

}  // namespace
}  // namespace dpl::testing
