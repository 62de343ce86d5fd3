// SPDX-License-Identifier: Apache-2.0
// `--ledger FILE` end to end: a 10,000-entry JSON-lines ledger gives exactly the epsilon of the same entries as -m
// specs, the running column is non-decreasing and ends at that value; Opacus and dp_accounting histories give the
// epsilon of the equivalent specs; malformed files exit 2 naming the line and the field, with nothing on stdout.
#include "tests/cli/run_binary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <string>

using dpl::testing::run_dpledger;
using Json = nlohmann::json;

namespace {

std::string write(const std::string& name, const std::string& content) {
  const std::string path = "/tmp/dpledger_ledger_cli_" + name;
  std::ofstream(path) << content;
  return path;
}

double number(const Json& j) { return j.is_number() ? j.get<double>() : std::stod(j.get<std::string>()); }

}  // namespace

TEST(LedgerFileCli, TenThousandEntriesMatchTheSpecsAndTheRunningColumnEndsThere) {
  std::string jsonl, specs_file, args;
  for (int i = 0; i < 10000; ++i) {
    char sigma[32];
    std::snprintf(sigma, sizeof sigma, "%.4f", 1.0 + (i % 997) / 997.0);
    jsonl += std::string("{\"mechanism\":\"gaussian\",\"sigma\":") + sigma + ",\"q\":0.01}\n";
    specs_file += std::string("gaussian:sigma=") + sigma + ",q=0.01\n";
    if (i < 200) args += std::string(" -m gaussian:sigma=") + sigma + ",q=0.01";
  }
  const std::string f = write("10k.jsonl", jsonl), t = write("10k.txt", specs_file);
  const auto a = run_dpledger("--json compose --ledger " + f + " --delta 1e-5 --accountant rdp --running");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  const Json ja = Json::parse(a.out);
  const auto b = run_dpledger("--json compose --ledger " + t + " --delta 1e-5 --accountant rdp");
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(ja["epsilon"], Json::parse(b.out)["epsilon"]);
  const Json& run = ja["running"]["accountants"]["rdp"]["epsilon"];
  ASSERT_EQ(run.size(), 10000u);
  for (std::size_t i = 1; i < run.size(); ++i) ASSERT_LE(number(run[i - 1]), number(run[i])) << i;
  EXPECT_EQ(run.back(), ja["epsilon"]);
  // The running value at checkpoint 200 is an upper bound on the first 200 entries' epsilon (compose's own value
  // for that prefix is at most it, up to the accountants' certified slack).
  const auto c = run_dpledger("--json compose" + args + " --delta 1e-5 --accountant rdp");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_GE(number(run[199]), number(Json::parse(c.out)["epsilon"]) * (1 - 1e-12));
  std::remove(f.c_str());
  std::remove(t.c_str());
}

TEST(LedgerFileCli, OpacusAndDpAccountingHistoriesGiveTheSpecsEpsilon) {
  const auto specs = run_dpledger("--json compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5 --accountant rdp");
  ASSERT_EQ(specs.exit_code, 0) << specs.err;
  const std::string opacus = write("opacus.json", "[[1.1, 0.01, 6000], [1.1, 0.01, 4000]]\n");
  const std::string event = write("event.json", R"({"module_name": "dp_accounting.dp_event", "class_name": "SelfComposedDpEvent",
    "event": {"module_name": "dp_accounting.dp_event", "class_name": "PoissonSampledDpEvent", "sampling_probability": 0.01,
              "event": {"module_name": "dp_accounting.dp_event", "class_name": "GaussianDpEvent", "noise_multiplier": 1.1}},
    "count": 10000})");
  for (const auto& f : {opacus, event}) {
    const auto r = run_dpledger("--json compose --ledger " + f + " --delta 1e-5 --accountant rdp");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(Json::parse(r.out)["epsilon"], Json::parse(specs.out)["epsilon"]) << f;
    std::remove(f.c_str());
  }
}

TEST(LedgerFileCli, MalformedFilesExit2NamingLineAndField) {
  struct Case { std::string content, must; };
  const Case cases[] = {
      {"{\"mechanism\":\"gaussian\",\"sigma\":1}\n{\"mechanism\":\"gaussian\",\"sigma\":1,}\n", ":2"},
      {"gaussian:sigma=1\nwhatever:x=1\n", ":2"},
      {"{\"mechanism\":\"gaussian\",\"q\":0.5}\n", "sigma"},
      {"{\"mechanism\":\"gaussian\",\"sigma\":1,\"steps\":-3}\n", "steps"},
      {"", "empty"},
      {"{\"class_name\":\"NonPrivateDpEvent\"}", "NonPrivateDpEvent"},
  };
  int k = 0;
  for (const auto& c : cases) {
    const std::string f = write("bad" + std::to_string(k++), c.content);
    const auto r = run_dpledger("compose --ledger " + f + " --delta 1e-5");
    EXPECT_EQ(r.exit_code, 2) << c.content;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.must), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(f), std::string::npos) << r.err;
    std::remove(f.c_str());
  }
  const auto missing = run_dpledger("compose --ledger /nonexistent/ledger.jsonl --delta 1e-5");
  EXPECT_EQ(missing.exit_code, 2);
  const auto none = run_dpledger("compose --delta 1e-5");
  EXPECT_EQ(none.exit_code, 2);
}

TEST(LedgerFileCli, CalibrateAndRdpReadLedgersAndStandardInput) {
  const std::string pre = write("pre.txt", "gaussian:sigma=2,q=0.01,steps=1000\n");
  const auto cal = run_dpledger("--json calibrate --ledger " + pre + " -m 'gaussian:sigma=?,q=0.01,steps=1000' --epsilon 2 --delta 1e-5 --accountant rdp");
  ASSERT_EQ(cal.exit_code, 0) << cal.err;
  EXPECT_EQ(Json::parse(cal.out)["mechanisms"].size(), 2u);
  // Standard input: `--ledger -`.
  const std::string cmd = std::string(DPLEDGER_BIN) + " --json rdp --ledger - --orders 2 < " + pre;
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[4096];
  while (fgets(buf, sizeof buf, p)) out += buf;
  ASSERT_EQ(pclose(p), 0);
  EXPECT_EQ(Json::parse(out)["command"], "rdp");
  std::remove(pre.c_str());
}

TEST(LedgerFileCli, RunningPlotAndCurveAreSvgWithAxesAndLegend) {
  const std::string svg = "/tmp/dpledger_ledger_cli_running.svg", curve = "/tmp/dpledger_ledger_cli_curve.svg";
  const auto r = run_dpledger("compose -m gaussian:sigma=1.1,q=0.01,steps=2000 -m gaussian:sigma=0.9,q=0.02,steps=500 "
                              "--delta 1e-5 --accountant rdp --plot " + svg + " --curve " + curve);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const auto& f : {svg, curve}) {
    const std::string s = dpl::testing::read_all(f);
    EXPECT_NE(s.find("<svg"), std::string::npos);
    EXPECT_NE(s.find("epsilon"), std::string::npos);
    EXPECT_NE(s.find(">rdp<"), std::string::npos);               // legend
    EXPECT_EQ(s.find("0000000000"), std::string::npos) << f;      // no binary noise in tick labels
    std::remove(f.c_str());
  }
  const auto bad = run_dpledger("compose -m gaussian:sigma=1 --epsilon 1 --plot /tmp/x.svg");
  EXPECT_EQ(bad.exit_code, 2);
}

// A training loop's per-step log (one line per step): --every K gives a row every K steps whatever the entries'
// sizes, the pld column is there wherever the headline used pld, and --plot changes nothing that is printed.
TEST(LedgerFileCli, PerStepLogRunningBudgetEveryKStepsWithItsPldColumn) {
  std::string lines;
  for (int i = 0; i < 10000; ++i) lines += "gaussian:sigma=1.1,q=0.01\n";
  const std::string f = write("per_step.txt", lines), svg = "/tmp/dpledger_ledger_cli_per_step.svg";
  const std::string args = "--json compose --ledger " + f + " --delta 1e-5 --running --every 1000";
  const auto a = dpl::testing::run_dpledger_with_limit(args, 120, 30);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  const Json j = Json::parse(a.out);
  ASSERT_EQ(j["accountant"], "pld");
  ASSERT_EQ(j["running"]["checkpoints"].size(), 10u);
  EXPECT_EQ(j["running"]["checkpoints"][0]["steps"], 1000);
  ASSERT_TRUE(j["running"]["accountants"].contains("pld")) << a.out.substr(0, 2000);
  const Json& pld = j["running"]["accountants"]["pld"]["epsilon"];
  ASSERT_EQ(pld.size(), 10u);
  EXPECT_EQ(pld.back(), j["epsilon"]);
  for (std::size_t i = 1; i < pld.size(); ++i) EXPECT_LE(number(pld[i - 1]), number(pld[i])) << i;
  const auto b = dpl::testing::run_dpledger_with_limit(args + " --plot " + svg, 120, 30);
  ASSERT_EQ(b.exit_code, 0) << b.err;
  Json jb = Json::parse(b.out);
  EXPECT_EQ(jb["running"], j["running"]);
  EXPECT_NE(dpl::testing::read_all(svg).find(">pld<"), std::string::npos);
  // --every without a running budget does nothing: refused, naming it.
  const auto bad = run_dpledger("compose --ledger " + f + " --delta 1e-5 --every 100");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--every"), std::string::npos) << bad.err;
  std::remove(f.c_str());
  std::remove(svg.c_str());
}
