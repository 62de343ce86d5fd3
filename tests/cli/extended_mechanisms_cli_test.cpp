// SPDX-License-Identifier: Apache-2.0
// The new mechanisms from the command line: each composes from -m and from a ledger file (JSON lines, dp_accounting
// event tree) to the same value; an accountant that does not apply exits 2 with one error line naming why; --help
// and the bash completion list the names and keys.
#include "tests/cli/run_binary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

using dpl::testing::run_dpledger;
using Json = nlohmann::json;

namespace {

std::string write(const std::string& name, const std::string& content) {
  const std::string path = "/tmp/dpledger_mechanisms_cli_" + name;
  std::ofstream(path) << content;
  return path;
}

}  // namespace

TEST(ExtendedMechanismsCli, RefusedAccountantExitsTwoNamingWhy) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"-m zcdp:rho=0.1 --accountant pld", "zcdp"},
      {"-m mixture:sigma=1,sens=[0,1],probs=[0.9,0.1] --accountant rdp", "mixture"},
      {"-m shuffle:eps0=1,n=100 --accountant rdp", "shuffle"},
      {"-m discrete_gaussian:sigma=2 --accountant pld", "univariate"},
      {"-m select:mean=3,shape=1,run=[gaussian:sigma=2] --accountant pld", "select"},
      {"-m tree:sigma=1,leaves=7 --accountant basic", "tree"},
  };
  for (const auto& [args, word] : cases) {
    const auto r = run_dpledger("compose " + args + " --delta 1e-5");
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_TRUE(r.out.empty()) << args;
    EXPECT_EQ(r.err.rfind("error:", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(word), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  // Bad values exit 2 naming the key and the range.
  const auto bad = run_dpledger("compose -m \"mixture:sigma=1,sens=[0,1],probs=[0.5,0.4]\" --delta 1e-5");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("probs sum to"), std::string::npos) << bad.err;
}

TEST(ExtendedMechanismsCli, LedgerFilesComposeLikeTheSpecs) {
  const std::string specs =
      "-m \"discrete_laplace:a=0.5,sens=2,steps=10\" -m \"rr:p=0.3,k=4,steps=20\" -m \"tree:sigma=5,leaves=1000,steps=3\"";
  const auto direct = run_dpledger("--json compose " + specs + " --delta 1e-5");
  ASSERT_EQ(direct.exit_code, 0) << direct.err;
  const Json jd = Json::parse(direct.out);
  // The compose --json "mechanisms" array reads back as a ledger file.
  const std::string f = write("mechanisms.json", jd["mechanisms"].dump());
  const auto again = run_dpledger("--json compose --ledger " + f + " --delta 1e-5");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(Json::parse(again.out)["epsilon"], jd["epsilon"]);
  // The same ledger as a dp_accounting event tree (REPLACE_ONE-style randomized response, DpEvent JSON).
  const std::string tree = write("events.json", R"({"class_name": "ComposedDpEvent", "events": [
    {"class_name": "SelfComposedDpEvent", "count": 10, "event": {"class_name": "DiscreteLaplaceDpEvent", "noise_parameter": 0.5, "sensitivity": 2}},
    {"class_name": "SelfComposedDpEvent", "count": 20, "event": {"class_name": "RandomizedResponseDpEvent", "noise_parameter": 0.3, "num_buckets": 4}},
    {"class_name": "SelfComposedDpEvent", "count": 3, "event": {"class_name": "SingleEpochTreeAggregationDpEvent", "noise_multiplier": 5.0, "step_counts": 1000}}]})");
  const auto events = run_dpledger("--json compose --ledger " + tree + " --delta 1e-5");
  ASSERT_EQ(events.exit_code, 0) << events.err;
  EXPECT_EQ(Json::parse(events.out)["epsilon"], jd["epsilon"]);
}

TEST(ExtendedMechanismsCli, HelpAndCompletionListTheMechanisms) {
  const auto help = run_dpledger("compose --help");
  ASSERT_EQ(help.exit_code, 0);
  for (const char* s : {"discrete_gaussian", "zcdp (rho, xi=0)", "shuffle (eps0, n)", "select (mean, shape, run=[SPEC;SPEC..])"})
    EXPECT_NE(help.out.find(s), std::string::npos) << s;
  const auto completion = run_dpledger("completion bash");
  ASSERT_EQ(completion.exit_code, 0);
  for (const char* s : {"permute_and_flip", "truncated_gaussian", "batch_size", "eps0"})
    EXPECT_NE(completion.out.find(s), std::string::npos) << s;
}

// docs/accountants.md's example prints the value it shows.
TEST(ExtendedMechanismsCli, DocumentedShuffleExample) {
  const auto r = run_dpledger("compose -m shuffle:eps0=1,n=10000 --delta 1e-5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "epsilon     0.0434412495528273  (upper bound, rounded up)");
  // The clone pair dominates the shuffler but is not attained: no certified lower bound, and --verbose says why.
  EXPECT_EQ(r.out.find("lower"), std::string::npos) << r.out;
  const auto v = run_dpledger("--verbose compose -m shuffle:eps0=1,n=10000 --delta 1e-5");
  EXPECT_NE(v.out.find("no certified lower bound: shuffle's pair is Feldman, McMillan and Talwar's clone pair"),
            std::string::npos) << v.out;
}
