// SPDX-License-Identifier: Apache-2.0
// `dpledger consensus` from the command line: seed 000's Figs. 3-1/3-2 experiment (exponential consensus decay
// of random stochastic-matrix products and of their expectation), CSV output, bad input.
#include "tests/cli/run_binary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace dpl::testing {
namespace {

TEST(ConsensusCli, BothModelsDecayLogLinearlyAndRepeatBySeed) {
  for (const std::string model : {"fig3-1", "fig3-2"}) {
    const auto r = run_dpledger("--json consensus --model " + model + " --agents 10 --edges 20 --K 10 --draws 200");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["command"], "consensus");
    ASSERT_EQ(j["random"].size(), 10u);
    for (std::size_t k = 1; k < 10; ++k) {
      EXPECT_LT(j["random"][k].get<double>(), j["random"][k - 1].get<double>()) << model << " " << k;
      EXPECT_LT(j["fixed"][k].get<double>(), j["fixed"][k - 1].get<double>()) << model << " " << k;
    }
    for (const char* fit : {"fit_random", "fit_fixed"}) {
      EXPECT_LT(j[fit]["slope"].get<double>(), 0) << model << fit;
      EXPECT_GT(j[fit]["r_squared"].get<double>(), 0.95) << model << fit;
    }
    EXPECT_EQ(run_dpledger("--json consensus --model " + model + " --agents 10 --edges 20 --K 10 --draws 200").out,
              r.out);
  }
}

TEST(ConsensusCli, CsvAndBadInput) {
  const std::string csv = "/tmp/dpledger_consensus_test.csv";
  std::remove(csv.c_str());
  auto r = run_dpledger("consensus --K 5 --csv " + csv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream f(csv);
  std::string line;
  int lines = 0;
  while (std::getline(f, line)) ++lines;
  EXPECT_EQ(lines, 7);  // the provenance line, the header, K rows
  std::remove(csv.c_str());
  for (const std::string& args : std::vector<std::string>{"consensus --agents 1", "consensus --edges 100",
                                                          "consensus --K 0", "consensus --draws 0",
                                                          "consensus --model fig9", "consensus --seed -1",
                                                          "consensus --K 5 --edges 100 --csv " + csv}) {
    r = run_dpledger(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_TRUE(r.out.empty()) << args;
    EXPECT_EQ(r.err.rfind("error:", 0), 0u) << args << r.err;
  }
  EXPECT_FALSE(std::ifstream(csv).good());
}

}  // namespace
}  // namespace dpl::testing
