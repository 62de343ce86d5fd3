// SPDX-License-Identifier: Apache-2.0
// `dpledger audit` end to end: verdicts and exit codes, JSON fields, shards and merge through files, users'
// sample files, and one `error:` line with exit 2 for every kind of bad input.
#include "tests/algorithms/temp_file.h"
#include "tests/cli/run_binary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <vector>

namespace dpl::testing {
namespace {

TEST(AuditCli, LaplacePassesAndTwinViolates) {
  const auto r = run_dpledger("audit laplace:b=1 --runs 1000000 --seed 1 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["command"], "audit");
  EXPECT_EQ(j["verdict"], "pass");
  EXPECT_GT(j["epsilon_lower"].get<double>(), 0.97);
  EXPECT_EQ(j["epsilon_claimed"].get<double>(), 1.0);
  EXPECT_EQ(j["runs"], 1000000);
  EXPECT_EQ(j["confidence"].get<double>(), 0.95);
  EXPECT_EQ(j["seed"], 1);
  EXPECT_TRUE(j.contains("detectable"));
  const auto v = run_dpledger("audit laplace:b=1 --runs 1000000 --set actual_noise_factor=0.5");
  EXPECT_EQ(v.exit_code, 3) << v.out << v.err;
  EXPECT_NE(v.out.find("VIOLATION"), std::string::npos);
  const auto i = run_dpledger("audit laplace:b=1 --runs 100");
  EXPECT_EQ(i.exit_code, 4) << i.out << i.err;
  EXPECT_NE(i.out.find("could only detect"), std::string::npos);
}

TEST(AuditCli, ShardsMergeToTheUnshardedVerdict) {
  const std::string dir = std::filesystem::temp_directory_path() / ("dpl_audit_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto whole = nlohmann::json::parse(run_dpledger("audit gaussian:sigma=1 --runs 300000 --seed 9 --json").out);
  std::string files;
  for (int i = 1; i <= 3; ++i) {
    const std::string f = dir + "/s" + std::to_string(i) + ".json";
    const auto s = run_dpledger("audit gaussian:sigma=1 --runs 300000 --seed 9 --shard " + std::to_string(i) + "/3 --out " + f);
    ASSERT_EQ(s.exit_code, 0) << s.err;
    files += " " + f;
  }
  const auto m = run_dpledger("--json audit merge" + files);
  ASSERT_EQ(m.exit_code, 0) << m.err;
  const auto mj = nlohmann::json::parse(m.out);
  EXPECT_EQ(mj["epsilon_lower"], whole["epsilon_lower"]);
  EXPECT_EQ(mj["mu_lower"], whole["mu_lower"]);
  EXPECT_EQ(mj["event"], whole["event"]);
  EXPECT_EQ(mj["curve"], whole["curve"]);
  // a shard of another seed does not merge
  const std::string other = dir + "/other.json";
  ASSERT_EQ(run_dpledger("audit gaussian:sigma=1 --runs 300000 --seed 10 --shard 3/3 --out " + other).exit_code, 0);
  const auto bad = run_dpledger("audit merge " + dir + "/s1.json " + dir + "/s2.json " + other);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err.rfind("error: ", 0), 0u) << bad.err;
  std::filesystem::remove_all(dir);
}

TEST(AuditCli, UserSamples) {
  std::string d, dp;
  for (int i = 0; i < 2000; ++i) {  // deterministic, well separated: a huge true epsilon
    d += std::to_string(i % 100) + ",0\n";
    dp += std::to_string(1000 + i % 100) + ",0\n";
  }
  TempFile fd("d.csv", d), fdp("dp.csv", dp);
  const auto v = run_dpledger("audit --samples " + fd.path() + " --neighbour-samples " + fdp.path() +
                              " --epsilon 1 --delta 0 --projection coord:1 --json");
  EXPECT_EQ(v.exit_code, 3) << v.err;
  const auto j = nlohmann::json::parse(v.out);
  EXPECT_EQ(j["verdict"], "violation");
  EXPECT_GT(j["epsilon_lower"].get<double>(), 5.0);
  const auto p = run_dpledger("audit --samples " + fd.path() + " --neighbour-samples " + fd.path() +
                              " --epsilon 1 --projection weights:1,1");
  EXPECT_NE(p.exit_code, 3) << p.out;
}

// A samples audit speaks of samples (not runs) and, claimed in mu, prints the mu claim typed, no epsilon claim.
TEST(AuditCli, UserSamplesWordingWithMu) {
  std::string d;
  for (int i = 0; i < 40; ++i) d += std::to_string(i % 7) + "\n";
  TempFile fd("few.csv", d);
  const auto r = run_dpledger("audit --samples " + fd.path() + " --neighbour-samples " + fd.path() + " --mu 1");
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;  // 40 samples resolve nothing near mu 1
  EXPECT_NE(r.out.find("; add samples\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("add runs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("mu_claimed       1   (--mu)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("epsilon_claimed"), std::string::npos) << r.out;
  // A built-in target still needs more runs.
  const auto m = run_dpledger("audit laplace:b=1 --runs 200");
  EXPECT_EQ(m.exit_code, 4) << m.out << m.err;
  EXPECT_NE(m.out.find("; add runs\n"), std::string::npos) << m.out;
}

TEST(AuditCli, BadInputExitsTwoWithOneErrorLine) {
  TempFile ragged("r.csv", "1,2\n3\n4,5\n"), ok("ok.csv", "1\n2\n3\n");
  for (const std::string& args : std::vector<std::string>{"audit", "audit frobnicate", "audit laplace:b=1 --runs 0", "audit laplace:b=1 --runs 1.5",
        "audit laplace:b=1 --confidence 1", "audit laplace:b=1 --confidence 0", "audit laplace:b=1 --confidence nan",
        "audit laplace:b=-1", "audit rr:eps=1", "audit laplace:b=1 --set actual_noise_factor=-1",
        "audit laplace:b=1 --shard 0/2 --out /tmp/x.json", "audit laplace:b=1 --shard 3/2 --out /tmp/x.json",
        "audit laplace:b=1 --shard 1/2", "audit merge /nonexistent/a.json",
        "audit --samples " + ragged.path() + " --neighbour-samples " + ok.path() + " --epsilon 1",
        "audit --samples /nonexistent.csv --neighbour-samples " + ok.path() + " --epsilon 1",
        "audit --samples " + ok.path() + " --neighbour-samples " + ok.path(),
        "audit --samples " + ok.path() + " --epsilon 1"}) {
    const auto r = run_dpledger(args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << args << ": " << r.out;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << args << ": " << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << args << ": " << r.err;
  }
}

}  // namespace

// The Gaussian's (eps, delta) curve: lower bounds at every delta below the analytic accountant's epsilon for the
// correct mechanism (error <= 1 - C jointly, fixed seed); with half the noise the curve's points at the larger
// deltas are violations on their own.
TEST(AuditCli, GaussianCurveAgainstTheAccountant) {
  const auto ok = run_dpledger("audit gaussian:sigma=1 --runs 1000000 --seed 3 --json");
  ASSERT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  const auto j = nlohmann::json::parse(ok.out);
  ASSERT_GE(j["curve"]["points"].size(), 6u);
  for (const auto& p : j["curve"]["points"]) {
    EXPECT_EQ(p["verdict"], "pass");
    if (p["epsilon_lower"].is_number()) {
      EXPECT_LE(p["epsilon_lower"].get<double>(), p["epsilon_accountant"].get<double>());
    }
  }
  // delta 0.1: the bound is tight to within 0.1 of the accountant's epsilon with 10^6 runs.
  EXPECT_GT(j["curve"]["points"][0]["epsilon_lower"].get<double>(), j["curve"]["points"][0]["epsilon_accountant"].get<double>() - 0.1);
  const auto bad = run_dpledger("audit gaussian:sigma=1 --runs 1000000 --seed 3 --json --set actual_noise_factor=0.5");
  ASSERT_EQ(bad.exit_code, 3) << bad.out << bad.err;
  EXPECT_EQ(nlohmann::json::parse(bad.out)["curve"]["points"][0]["verdict"], "violation");
}

}  // namespace dpl::testing
