// SPDX-License-Identifier: Apache-2.0
// `dpledger run` from the command line: every algorithm with its defaults, the JSON contract, traces, config
// files, reproducibility by seed, bad input, inputs that once hung or crashed, and every key at the ends of its
// allowed range (each run answers or refuses with exit 2 within 10 s; JSON never has null or NaN).
#include "tests/cli/run_binary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <regex>
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
  EXPECT_EQ(header.rfind("# dpledger ", 0), 0u) << header;  // the provenance line
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
  std::getline(g, line);
  EXPECT_TRUE(nlohmann::json::parse(line).contains("version")) << line;  // the provenance line
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

// True if no value anywhere in j is null (nlohmann writes inf and NaN as null).
bool no_null(const nlohmann::json& j) {
  if (j.is_null()) return false;
  if (j.is_structured())
    for (const auto& e : j) if (!no_null(e)) return false;
  return true;
}

// Runs under `timeout -s KILL 60`: exit 137 means a hang (a guard, not a speed claim: the test machine may be
// shared; the commands take well under 10 s alone).
RunResult run_with_hang_guard(const std::string& args) { return run_dpledger_with_limit(args, 60); }

void expect_answer_or_refusal(const RunResult& r, const std::string& what) {
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 2) << what << " -> exit " << r.exit_code << ": " << r.err;
  if (r.exit_code == 0 && !r.out.empty() && r.out[0] == '{') {
    const auto j = nlohmann::json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << what;
    EXPECT_TRUE(no_null(j)) << what << ": " << r.out.substr(0, 400);
    EXPECT_EQ(r.out.find("nan"), std::string::npos) << what;
  }
  if (r.exit_code == 2) {
    EXPECT_EQ(count_lines(r.err), 1) << what << ": " << r.err;
  }
}

TEST(RunCli, InputsThatHungOrCrashedAnswerOrRefuse) {
  // sigma = 1e-300: the accounting of an almost noiseless Gaussian (hung).
  auto r = run_with_hang_guard("--json run dgd-secret-sharing --set sigma=1e-300");
  expect_answer_or_refusal(r, "sigma=1e-300");
  // Its text shows the unbounded epsilon as the JSON does ("inf"), not "null".
  r = run_with_hang_guard("run dgd-secret-sharing --set sigma=1e-300");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("null"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("inf"), std::string::npos) << r.out;
  // A 10^5-dimensional problem: refused before allocating (was std::bad_alloc, exit 1).
  r = run_with_hang_guard("run wang-nedic --set synthetic_dim=100000");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("2000"), std::string::npos) << r.err;
  // 40 rows x 10,000 columns: refused naming the limit (hung in the d x d solver).
  const std::string wide = "/tmp/dpledger_run_wide_" + std::to_string(::getpid()) + ".csv";
  {
    std::ofstream f(wide);
    for (int j = 0; j < 40; ++j) {
      for (int c = 0; c < 10000; ++c) f << ((j * 7 + c * 13) % 17) / 17.0 << ",";
      f << (j % 2) << "\n";
    }
  }
  r = run_with_hang_guard("run dgd-secret-sharing --set data=" + wide);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("limit"), std::string::npos) << r.err;
  std::remove(wide.c_str());
  // A trace path that is not valid UTF-8: written, and the JSON carries a valid string (was exit 1).
  const std::string raw = "/tmp/dpledger_run_\xff\xfe_" + std::to_string(::getpid()) + ".csv";
  r = run_with_hang_guard("--json run admm-random-aggregation --set K=3 --trace '" + raw + "'");
  expect_answer_or_refusal(r, "invalid UTF-8 trace path");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::ifstream(raw).good());
  std::remove(raw.c_str());
}

TEST(RunCli, DivergedRunsSaySoAndPrintNoLedger) {
  // Algorithm 2 with the printed scaling eta N grad f: the iterates explode.
  const auto r = run_with_hang_guard("--json run dsgd-random-aggregation --set scaling=printed --set eta0=50");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["extra"]["diverged"].get<bool>());
  EXPECT_EQ(j["privacy"]["accounted"]["epsilon"], "inf");
  EXPECT_NE(j["privacy"]["accounted"]["method"].get<std::string>().find("diverged"), std::string::npos);
  EXPECT_FALSE(j["privacy"]["accounted"].contains("expected_epsilon"));
  EXPECT_TRUE(no_null(j));
  const auto text = run_with_hang_guard("run dsgd-random-aggregation --set scaling=printed --set eta0=50");
  EXPECT_NE(text.out.find("DIVERGED"), std::string::npos) << text.out;
  // The default run converges and keeps its ledger.
  const auto ok = run_with_hang_guard("--json run dsgd-random-aggregation");
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_FALSE(nlohmann::json::parse(ok.out)["extra"]["diverged"].get<bool>());
}

TEST(RunCli, LedgerOutReplaysWithCompose) {
  const std::string ledger = "/tmp/dpledger_run_ledger_" + std::to_string(::getpid()) + ".jsonl";
  for (const std::string& run : {std::string("admm-random-aggregation --set K=8"), std::string("dgd-secret-sharing --set K=7")}) {
    std::remove(ledger.c_str());
    const auto r = run_dpledger("--json run " + run + " --ledger-out " + ledger);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const double accounted = nlohmann::json::parse(r.out)["privacy"]["accounted"]["epsilon"].get<double>();
    const double delta = nlohmann::json::parse(r.out)["privacy"]["accounted"]["delta"].get<double>();
    std::ifstream f(ledger);
    std::string line, specs;
    int lines = 0;
    std::getline(f, line);
    EXPECT_TRUE(nlohmann::json::parse(line).contains("version")) << line;  // the provenance line
    while (std::getline(f, line)) {
      const auto m = nlohmann::json::parse(line);
      std::string spec = m["mechanism"].get<std::string>() + ":";
      bool first = true;
      for (const auto& [k, v] : m.items()) {
        if (k == "mechanism") continue;
        char buf[64];
        std::snprintf(buf, sizeof buf, v.is_number_integer() ? "%.0f" : "%.17g", v.get<double>());
        spec += (first ? "" : ",") + k + "=" + buf;
        first = false;
      }
      specs += " -m " + spec;
      ++lines;
    }
    EXPECT_GE(lines, 1) << run;
    char d[64];
    std::snprintf(d, sizeof d, "%.17g", delta);
    const auto c = run_dpledger("--json compose" + specs + " --delta " + d +
                                (delta == 0 ? " --accountant pure" : " --accountant auto"));
    ASSERT_EQ(c.exit_code, 0) << c.err;
    const double replayed = nlohmann::json::parse(c.out)["epsilon"].get<double>();
    EXPECT_GE(replayed, accounted * (1 - 1e-14)) << run;
    EXPECT_LE(replayed, accounted * (1 + 1e-12)) << run;
  }
  // Runs without a mechanism ledger refuse and write nothing.
  std::remove(ledger.c_str());
  const auto none = run_dpledger("run admm-random-aggregation --set K=3 --set noise=off --ledger-out " + ledger);
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_FALSE(std::ifstream(ledger).good());
  EXPECT_EQ(run_dpledger("run admm-random-aggregation --ledger-out /tmp/x.txt").exit_code, 2);
}

// Every run algorithm with an accounted ledger writes it in the ledger-file format, and `compose --ledger FILE`
// with the run's delta and accountant gives the run's accounted epsilon (never less; the same printed bound up to
// the last digit); runs whose accounting a ledger cannot express refuse with exit 2 saying what, writing nothing.
TEST(RunCli, LedgerOutOfEveryAlgorithmReplaysWithComposeLedger) {
  const std::string ledger = "/tmp/dpledger_run_ledger_all_" + std::to_string(::getpid()) + ".jsonl";
  const std::vector<std::string> runs{
      "dgd-secret-sharing --set K=5",
      "admm-random-aggregation --set K=6",
      "wang-nedic --set K=300",
      "private-radmm --set K=4",
      "dp-sgd --set K=40",
      "dp-sgd --set K=40 --set sampling=fixed --set accountant=auto",
      "dp-sgd --set K=40 --set accountant=pld",
      "dp-sgd --set K=40 --set sampling=cyclic",
      "dp-cd --set K=40 --set accountant=optimal",
      "admm-centralized --set K=10",
      "admm-federated --set K=10",
      "admm-decentralized --set K=10",
      "admm-lasso --set K=10"};
  for (const auto& run : runs) {
    std::remove(ledger.c_str());
    const auto r = run_dpledger("--json run " + run + " --ledger-out " + ledger);
    ASSERT_EQ(r.exit_code, 0) << run << ": " << r.err;
    const auto acc = nlohmann::json::parse(r.out)["privacy"]["accounted"];
    ASSERT_TRUE(acc["epsilon"].is_number()) << run << acc.dump();
    const double accounted = acc["epsilon"].get<double>(), delta = acc["delta"].get<double>();
    const std::string accountant = acc.value("accountant", std::string(delta == 0 ? "pure" : "auto"));
    char d[64];
    std::snprintf(d, sizeof d, "%.17g", delta);
    const auto c = run_dpledger("--json compose --ledger " + ledger + " --delta " + d + " --accountant " + accountant);
    ASSERT_EQ(c.exit_code, 0) << run << ": " << c.err;
    const double replayed = nlohmann::json::parse(c.out)["epsilon"].get<double>();
    EXPECT_GE(replayed, accounted * (1 - 1e-14)) << run;
    EXPECT_LE(replayed, accounted * (1 + 1e-12)) << run;
  }
  std::remove(ledger.c_str());
  const auto dda = run_dpledger("run dp-dda-node-sampling --set T=50 --ledger-out " + ledger);
  EXPECT_EQ(dda.exit_code, 2);
  EXPECT_NE(dda.err.find("cannot express"), std::string::npos) << dda.err;
  EXPECT_TRUE(dda.out.empty());
  EXPECT_FALSE(std::ifstream(ledger).good());
}

// Every numeric key of every algorithm at both ends of its declared range (open ends nudged inside), with small
// K so that each run is quick unless K itself is the key tested: each must answer or refuse within 10 s.
TEST(RunCli, EveryKeyAtTheEndsOfItsRangeAnswersOrRefuses) {
  const std::regex range(R"((reals|integers) ([\[(])([^,]+), ([^\])]+)([\])]))");
  int runs = 0;
  for (const auto& name : kAlgorithms) {
    const auto d = run_dpledger("--json run " + name + " --parameters");
    ASSERT_EQ(d.exit_code, 0) << d.err;
    const auto allowed = nlohmann::json::parse(d.out)["allowed"];
    for (const auto& [key, text] : allowed.items()) {
      std::smatch m;
      const std::string a = text.get<std::string>();
      if (!std::regex_match(a, m, range)) continue;
      const bool real = m[1] == "reals";
      double lo = std::stod(m[3]), hi = std::stod(m[4]);
      if (m[2] == "(") lo = real ? (lo == 0 ? 1e-300 : lo + std::fabs(lo) * 1e-12) : lo + 1;
      if (m[5] == ")") hi = real ? std::nextafter(hi, -HUGE_VAL) : hi - 1;
      for (double v : {lo, hi}) {
        char buf[64];
        std::snprintf(buf, sizeof buf, real ? "%.17g" : "%.0f", v);
        const std::string base = key == "K" ? "" : (name == "wang-nedic" ? " --set K=20" : " --set K=3");
        const std::string args = "--json run " + name + base + " --set " + key + "=" + buf;
        expect_answer_or_refusal(run_with_hang_guard(args), args);
        ++runs;
      }
    }
  }
  EXPECT_GT(runs, 100);
}

}  // namespace
}  // namespace dpl::testing
