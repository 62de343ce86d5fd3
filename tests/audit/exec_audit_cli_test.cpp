// SPDX-License-Identifier: Apache-2.0
// `dpledger audit --exec`: the user's own program (a shell script around awk) run on D and D' by the audit.
// A Laplace mechanism on a sum of values in [0, 1] (sensitivity 1 under adding one record) with scale b = 1 is
// exactly 1-DP: it passes --epsilon 1 (a false violation has probability at most 1 - C = 0.05 over seeds; the seed
// is fixed); its twin with b = 0.5 is 2-DP and is a violation of --epsilon 1 (at 10^5 outputs a side the lower
// bound falls within about 0.1 of 2, so missing it has a negligible probability). A program that fails, prints
// nothing or prints non-numbers is an error naming it; every bad option is one `error:` line naming it.
#include "tests/algorithms/temp_file.h"
#include "tests/cli/run_binary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <vector>

namespace dpl::testing {
namespace {

// The user's program: the sum of the data set's values plus Laplace noise of scale $1, 1000 releases per call,
// from awk's generator seeded with DPLEDGER_SEED.
constexpr const char* kLaplaceScript =
    "#!/bin/sh\n"
    "awk -v b=\"$1\" -v seed=\"$DPLEDGER_SEED\" 'BEGIN { srand(seed) } { s += $1 }\n"
    "  END { for (i = 0; i < 1000; i++) { e = -log(1 - rand()); if (rand() < 0.5) e = -e; printf \"%.10g\\n\", s + b * e } }' \"$2\"\n";

struct ExecFixture {
  TempFile script{"laplace.sh", kLaplaceScript};
  TempFile d{"d.txt", "0.3\n0.5\n"};
  TempFile dprime{"dprime.txt", "0.3\n0.5\n1\n"};
  std::string audit(const std::string& b) const {
    return "audit --exec 'sh " + script.path() + " " + b + " {}' --dataset " + d.path() + " --neighbour " + dprime.path();
  }
};

TEST(ExecAuditCli, LaplacePassesAndItsTwinAtHalfTheScaleIsAViolation) {
  const ExecFixture f;
  const auto ok = run_dpledger(f.audit("1") + " --epsilon 1 --runs 100000 --seed 1 --json");
  ASSERT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  const auto j = nlohmann::json::parse(ok.out);
  EXPECT_EQ(j["kind"], "exec");
  EXPECT_EQ(j["verdict"], "pass");
  EXPECT_EQ(j["runs"], 100000);
  EXPECT_EQ(j["calls_d"], 100);
  EXPECT_EQ(j["calls_dprime"], 100);
  EXPECT_EQ(j["surplus_outputs"], 0);
  EXPECT_EQ(j["event"]["n_p"], 50000);
  EXPECT_LT(j["epsilon_lower"].get<double>(), 1.0);
  EXPECT_GT(j["epsilon_lower"].get<double>(), 0.85);
  const auto bad = run_dpledger(f.audit("0.5") + " --epsilon 1 --runs 100000 --seed 1");
  EXPECT_EQ(bad.exit_code, 3) << bad.out << bad.err;
  EXPECT_NE(bad.out.find("VIOLATION"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("runs             100000 outputs on each of D"), std::string::npos) << bad.out;
  // The same seed gives the same result; the text is the --samples audit's.
  const auto again = run_dpledger(f.audit("1") + " --epsilon 1 --runs 100000 --seed 1 --json");
  EXPECT_EQ(nlohmann::json::parse(again.out)["epsilon_lower"], j["epsilon_lower"]);
  EXPECT_EQ(nlohmann::json::parse(again.out)["event"], j["event"]);
}

TEST(ExecAuditCli, AFailingProgramIsAnErrorNamingIt) {
  const ExecFixture f;
  TempFile fail("fail.sh", "echo 'model.pt: no such file' >&2\nexit 7\n");
  const auto r = run_dpledger("audit --exec 'sh " + fail.path() + " {}' --dataset " + f.d.path() + " --neighbour " +
                              f.dprime.path() + " --epsilon 1 --runs 1000");
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("error: --exec call 1 (on D), DPLEDGER_SEED=", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("sh " + fail.path() + " '" + f.d.path() + "': exited with status 7"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("model.pt: no such file"), std::string::npos) << r.err;
  const auto slow = run_dpledger("--time-limit 1 audit --exec 'sleep 20; cat {}' --dataset " + f.d.path() + " --neighbour " +
                                 f.dprime.path() + " --epsilon 1 --runs 1000");
  EXPECT_EQ(slow.exit_code, 2) << slow.err;
  EXPECT_NE(slow.err.find("did not finish within --time-limit 1 s"), std::string::npos) << slow.err;
}

TEST(ExecAuditCli, BadInputExitsTwoWithOneErrorLineNamingTheOption) {
  const ExecFixture f;
  const std::string sides = " --dataset " + f.d.path() + " --neighbour " + f.dprime.path();
  const std::string ok = "audit --exec 'cat {}'" + sides;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {ok + " --epsilon 1", "--runs"},
      {ok + " --epsilon 1 --runs 1", "--runs=1"},
      {ok + " --epsilon 1 --runs 2.5", "--runs=2.5"},
      {ok + " --epsilon 1 --runs 1e8", "--runs=1e8"},
      {ok + " --runs 10", "--epsilon"},
      {ok + " --runs 10 --epsilon -1", "--epsilon"},
      {ok + " --runs 10 --epsilon 1 --delta 1", "--delta"},
      {ok + " --runs 10 --epsilon 1 --mu 0", "--mu"},
      {ok + " --runs 10 --epsilon 1 --confidence 1", "--confidence"},
      {ok + " --runs 10 --epsilon 1 --tolerance 0", "--tolerance"},
      {ok + " --runs 10 --epsilon 1 --projection coord:0", "--projection"},
      {ok + " --runs 10 --epsilon 1 --threads 2", "--threads"},
      {ok + " --runs 10 --epsilon 1 --set a=1", "--set"},
      {"audit --exec 'cat data.csv'" + sides + " --runs 10 --epsilon 1", "--exec"},
      {"audit --exec 'cat {}' --dataset /nonexistent/d.csv --neighbour " + f.d.path() + " --runs 10 --epsilon 1", "--dataset"},
      {"audit --exec 'cat {}' --dataset " + f.d.path() + " --runs 10 --epsilon 1", "--neighbour"},
      {"audit --exec 'cat {}' --neighbour " + f.d.path() + " --runs 10 --epsilon 1", "--dataset"},
      {"audit --dataset " + f.d.path() + " --neighbour " + f.d.path() + " --epsilon 1", "--exec"},
      {ok + " laplace:b=1 --runs 10 --epsilon 1", "--exec"},
      {ok + " --samples " + f.d.path() + " --runs 10 --epsilon 1", "--samples"},
  };
  for (const auto& [args, option] : cases) {
    const auto r = run_dpledger(args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << args << ": " << r.out;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << args << ": " << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << args << ": " << r.err;
    EXPECT_NE(r.err.find(option), std::string::npos) << args << ": " << r.err;
  }
}

}  // namespace
}  // namespace dpl::testing
