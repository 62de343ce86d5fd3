// `dpledger run` from the command line: every algorithm with its defaults, the JSON contract, traces, config
// files, reproducibility by seed, and bad input.
#include "tests/cli/run_binary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace dpl::testing {
namespace {

const std::vector<std::string> kAlgorithms{"dgd-secret-sharing", "admm-random-aggregation", "dsgd-random-aggregation",
                                           "dsgd-random-aggregation-minmax", "wang-nedic"};

bool is_number_or_inf(const nlohmann::json& v) { return v.is_number() || v == "inf"; }

TEST(RunCli, EveryAlgorithmRunsWithDefaultsAndReportsBothPrivacyFigures) {
  for (const auto& name : kAlgorithms) {
    const auto r = run_dpledger("--json run " + name);
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["command"], "run") << name;
    EXPECT_EQ(j["algorithm"], name);
    EXPECT_TRUE(j["parameters"].is_object() && !j["parameters"].empty()) << name;
    EXPECT_GT(j["iterations"].get<int>(), 0) << name;
    EXPECT_TRUE(j["objective"].is_number()) << name;
    EXPECT_GE(j["suboptimality"].get<double>(), -1e-9) << name;  // the optimum is a minimum
    const auto& p = j["privacy"];
    ASSERT_TRUE(p["claimed"].contains("epsilon")) << name << p.dump();
    ASSERT_TRUE(p["accounted"].contains("epsilon")) << name << p.dump();
    EXPECT_TRUE(is_number_or_inf(p["claimed"]["epsilon"])) << name;
    EXPECT_TRUE(is_number_or_inf(p["accounted"]["epsilon"])) << name;
  }
}

TEST(RunCli, SameSeedSameRunOtherSeedOtherRun) {
  const auto a = run_dpledger("--json run admm-random-aggregation --seed 7 --set K=20");
  const auto b = run_dpledger("--json run admm-random-aggregation --seed 7 --set K=20");
  const auto c = run_dpledger("--json run admm-random-aggregation --seed 8 --set K=20");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out, c.out);
}

TEST(RunCli, ConfigFileAndSetOverride) {
  const std::string cfg = "/tmp/dpledger_run_test.cfg";
  {
    std::ofstream f(cfg);
    f << "# a config\nK = 15\nnoise = off\n";
  }
  const auto r = run_dpledger("--json run admm-random-aggregation --config " + cfg + " --set K=12");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["parameters"]["K"], 12);
  EXPECT_EQ(j["iterations"], 12);
  std::remove(cfg.c_str());
}

TEST(RunCli, TraceFilesCsvAndJsonLines) {
  const std::string csv = "/tmp/dpledger_run_trace.csv", jl = "/tmp/dpledger_run_trace.jsonl";
  std::remove(csv.c_str());
  std::remove(jl.c_str());
  auto r = run_dpledger("run wang-nedic --set K=30 --trace " + csv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream f(csv);
  std::string header, line;
  std::getline(f, header);
  EXPECT_EQ(header.rfind("iteration,kind,agent,objective,consensus_error,x0", 0), 0u) << header;
  int rows = 0;
  bool saw_message = false;
  while (std::getline(f, line)) {
    ++rows;
    saw_message = saw_message || line.find(",message,") != std::string::npos;
  }
  EXPECT_GT(rows, 30);
  EXPECT_TRUE(saw_message);
  r = run_dpledger("run admm-random-aggregation --set K=5 --trace " + jl);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream g(jl);
  int lines = 0;
  while (std::getline(g, line)) {
    const auto j = nlohmann::json::parse(line);
    EXPECT_TRUE(j.contains("states"));
    ++lines;
  }
  EXPECT_GE(lines, 5);
  std::remove(csv.c_str());
  std::remove(jl.c_str());
}

TEST(RunCli, ParametersDescribeEveryKeyWithoutRunning) {
  for (const auto& name : kAlgorithms) {
    const auto r = run_dpledger("--json run " + name + " --parameters --set K=3");
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_FALSE(j.contains("iterations")) << name;  // nothing was run
    EXPECT_EQ(j["parameters"]["K"], 3) << name;
    EXPECT_NE(j["defaults"]["K"], 3) << name;
    EXPECT_EQ(j["parameters"].size(), j["allowed"].size()) << name;
    EXPECT_EQ(j["parameters"].size(), j["defaults"].size()) << name;
    EXPECT_TRUE(j["allowed"].contains("data")) << name;
  }
  const auto bad = run_dpledger("run wang-nedic --parameters --set bogus=1");
  EXPECT_EQ(bad.exit_code, 2);
}

TEST(RunCli, ListNamesEveryAlgorithm) {
  const auto r = run_dpledger("run --list");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const auto& name : kAlgorithms) EXPECT_NE(r.out.find(name), std::string::npos) << name;
}

TEST(RunCli, BadInputExitsTwoWithOneErrorLineAndNoFile) {
  const std::string trace = "/tmp/dpledger_run_bad.csv";
  std::remove(trace.c_str());
  for (const std::string& args : std::vector<std::string>{
           "run", "run no-such-algorithm", "run wang-nedic --set K=abc", "run wang-nedic --set K=0",
           "run wang-nedic --set no_such_key=1", "run wang-nedic --set K", "run admm-random-aggregation --set D=-1",
           "run admm-random-aggregation --set zeta=nan", "run admm-random-aggregation --set data=/nonexistent.csv",
           "run admm-random-aggregation --config /nonexistent.cfg", "run wang-nedic --trace /tmp/x.txt",
           "run wang-nedic --seed -3", "run dgd-secret-sharing --set loss=squared",
           "run admm-random-aggregation --set loss=squared", "run admm-random-aggregation --set agents=1 --trace " + trace}) {
    const auto r = run_dpledger(args);
    EXPECT_EQ(r.exit_code, 2) << args << " -> " << r.err;
    EXPECT_TRUE(r.out.empty()) << args;
    EXPECT_EQ(r.err.rfind("error:", 0), 0u) << args << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << args << r.err;
  }
  EXPECT_FALSE(std::ifstream(trace).good());
}

}  // namespace
}  // namespace dpl::testing
