// SPDX-License-Identifier: Apache-2.0
// The large command-line fuzzing runs (a few minutes on 2 cores):
// - the classic accountants over the seeded spec generator (tests/cli/fuzz_cli_cases.h) and every accountant;
// - the robustness contract over every command: RapidCheck generators (tests/cli/fuzz_cli_generators.h) of
//   thousands of command lines, each run in its own directory with the fixture files, under --time-limit and a hard
//   CPU cap, checked for exit code, CPU time, peak memory, one `error:` line, JSON without null, and no file left
//   behind after an error (tests/cli/sandboxed_run.h);
// - the inputs of the robustness review (exit 1, crashes, hangs, memory blow-ups, half-written files) at the default
//   limits: each answers or refuses within 10 s of CPU and 2 GB, leaving no partial file.
// DPLEDGER_FUZZ_CASES and DPLEDGER_FUZZ_SEED override the size and seed of the generated run (for longer runs).
#include "tests/cli/fuzz_cli_cases.h"
#include "tests/cli/fuzz_cli_generators.h"
#include "tests/cli/fuzz_fixtures.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace dpl::testing {
namespace {

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

TEST(FuzzCliLarge, ThousandsOfClassicInputsExitCleanly) {
  const FuzzSummary s = run_fuzz_cases(/*seed=*/777, /*cases=*/env_int("DPLEDGER_FUZZ_CASES", 1000), /*time_limit_s=*/10,
                                          /*classic_only=*/true);
  EXPECT_TRUE(s.failures.empty()) << s.report();
}

// Every command and accountant (rdp, pld and auto included): compose, rdp and calibrate over random and boundary
// specs, 400 cases (DPLEDGER_FUZZ_CASES for more) of at most 10 s of CPU time each (the PLD's work limits, accounting/pld/pld_work_budget.h, keep
// the extreme ones in time: they answer with another accountant or exit 2); also no JSON bound below the
// tool's own certified lower bound, and no calibrated value whose certified epsilon exceeds the target.
TEST(FuzzCliLarge, EveryAccountantExitsCleanly) {
  FuzzGenerator g(/*seed=*/20261123, /*classic_only=*/false);
  std::vector<std::string> list;
  const int n = env_int("DPLEDGER_FUZZ_CASES", 400);
  for (int i = 0; i < n; ++i) list.push_back(g.next());
  const FuzzSummary s = run_fuzz_list(list, /*time_limit_s=*/10);
  EXPECT_TRUE(s.failures.empty()) << s.report();
  EXPECT_GT(s.exit0, n / 4) << "too few accepted inputs: the generator no longer reaches the accountants";
}


struct ContractSummary {
  std::map<std::string, int> by_command_exit;  // "compose 0", "audit 4", ...
  int stopped_by_time_limit = 0;
  double max_cpu = 0, max_rss = 0;
  std::vector<std::string> failures;
  std::string report() const {
    std::string s;
    for (const auto& f : failures) s += f + "\n";
    s += "exits by command:";
    for (const auto& [k, n] : by_command_exit) s += " [" + k + "]=" + std::to_string(n);
    s += "\nstopped by --time-limit: " + std::to_string(stopped_by_time_limit) + "; max CPU " + std::to_string(max_cpu) +
         " s; max RSS " + std::to_string(max_rss) + " MB\n";
    return s;
  }
};

// The command name of a case (the first argument that is not a global option or its value).
std::string command_of(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--time-limit" || args[i] == "--memory-limit") {
      ++i;
      continue;
    }
    if (args[i].rfind("--", 0) == 0) continue;
    return args[i];
  }
  return "(none)";
}

ContractSummary run_contract(const std::vector<std::vector<std::string>>& cases, double time_limit, int cpu_cap) {
  ContractSummary s;
  SandboxLimits limits;
  limits.cpu_cap_seconds = cpu_cap;
  limits.wall_seconds = 12 * cpu_cap;
  const bool verbose = env_int("DPLEDGER_FUZZ_VERBOSE", 0) != 0;
  run_sandboxed(cases, small_fixtures(), limits, 2, [&](std::size_t, SandboxedResult r) {
    if (verbose)
      std::cout << "case exit=" << r.exit_code << " cpu=" << r.cpu_seconds << " rss=" << r.max_rss_mb << " | "
                << shell_quote(r.args) << " | " << r.err.substr(0, 160) << std::endl;
    s.by_command_exit[command_of(r.args) + " " + std::to_string(r.exit_code)]++;
    s.max_cpu = std::max(s.max_cpu, r.cpu_seconds);
    s.max_rss = std::max(s.max_rss, r.max_rss_mb);
    if (r.err.find("s of CPU time (--time-limit") != std::string::npos) ++s.stopped_by_time_limit;
    const std::string why = sandboxed_contract_violation(r, time_limit);
    if (!why.empty()) s.failures.push_back("dpledger " + shell_quote(r.args) + "\n    " + why);
  });
  return s;
}

// 1,500 generated command lines (DPLEDGER_FUZZ_CASES for more; 5,000 and more were run) over every command, each with --time-limit 1: zero exits other than 0/2/3/4,
// zero hard kills, zero leftovers. The generator must keep reaching the work (exit 0 or an audit verdict) and the
// validation (exit 2) of most commands.
TEST(FuzzCliLarge, EveryCommandUnderTheRobustnessContract) {
  const LargeFixtures large;
  const int cases = env_int("DPLEDGER_FUZZ_CASES", 1500);
  const auto seed = static_cast<std::uint64_t>(env_int("DPLEDGER_FUZZ_SEED", 20261127));
  const auto list = fuzz::sample_cases(fuzz::any_command(large.files(), "1"), seed, cases);
  const ContractSummary s = run_contract(list, 1.0, 8);
  EXPECT_TRUE(s.failures.empty()) << s.failures.size() << " failing case(s):\n" << s.report();
  for (const char* command : {"compose", "rdp", "calibrate", "gamma", "run", "audit", "check", "consensus"}) {
    const auto ok = s.by_command_exit.count(std::string(command) + " 0") ? s.by_command_exit.at(std::string(command) + " 0") : 0;
    const auto refused = s.by_command_exit.count(std::string(command) + " 2") ? s.by_command_exit.at(std::string(command) + " 2") : 0;
    EXPECT_GT(ok, 5) << command << ": too few accepted inputs, the generator no longer reaches its work\n" << s.report();
    EXPECT_GT(refused, 5) << command << ": too few refused inputs, the generator no longer reaches its checks\n" << s.report();
  }
  std::cout << s.report();
}

// The inputs of the robustness review of the command line (each once), at the DEFAULT limits: every one answers
// or refuses within 10 s of CPU time and 2 GB, with one `error:` line and no file left behind; those that are valid
// questions with a quick answer must answer (the listed exit code).
TEST(FuzzCliLarge, ReviewInputsAnswerOrRefuseInTime) {
  const LargeFixtures large;
  struct Case {
    std::vector<std::string> args;
    int expected;  // the exit code; -1: any of 0/2/3/4
  };
  const std::vector<Case> cases = {
      // exit 1 (internal errors) on valid or unusual input
      {{"compose", "-m", "iteration:sigma=1,sens=1", "--delta", "1e-5"}, 2},
      {{"rdp", "-m", "iteration:sigma=1,sens=1"}, 2},
      {{"compose", "-m", "laplace:b=2.2250738585072014e-308", "--delta", "1e-5"}, 0},
      {{"compose", "--ledger", "bad_1e400.jsonl", "--delta", "1e-5"}, 2},
      {{"audit", "merge", "shard_counts_big.json", "shard2.json"}, 2},
      {{"audit", "merge", "shard_thresholds.json", "shard2.json"}, 2},
      // segmentation faults
      {{"compose", "--ledger", large.at("nested_1m.json"), "--delta", "1e-5"}, 2},
      {{"check", "004/lemma-1", "--quick", "--set", "sqrt_factor=0"}, 3},
      // hangs
      {{"compose", "-m", "laplace:b=0x1p-1074", "--delta", "1e-5"}, 2},  // hexadecimal: not a decimal number
      {{"rdp", "--ledger", large.at("subsampled_3000.jsonl")}, -1},
      {{"calibrate", "--ledger", large.at("distinct_100k.jsonl"), "-m", "gaussian:sigma=?", "--epsilon", "1", "--delta", "1e-5"}, 2},
      {{"gamma", "--omega", "1e-300:1e300:50", "--beta", "1e-300:1e300:50"}, 2},
      {{"run", "dda", "--set", "T=1000000", "--trace", "t.csv"}, 2},
      {{"consensus", "--graph", "random", "--agents", "1000", "--edges", "999"}, 2},
      {{"sweep", "--seeds", "100"}, 2},
      {{"audit", "laplace:b=1e5", "--runs", "2000"}, 2},
      // memory
      {{"audit", "laplace:b=1e6", "--runs", "2000"}, 2},
      {{"compose", "--ledger", "/dev/zero", "--delta", "1e-5"}, 2},
      {{"run", "admm", "--set", "data=" + large.at("huge_line.csv")}, 2},
      {{"audit", "merge", "shard_count_huge.json", "shard2.json"}, 2},
      {{"audit", "merge", "shard_count_float.json", "shard2.json"}, 2},
      // half-written output after an error
      {{"compose", "-m", "gaussian:sigma=1", "--delta", "1e-5", "--running", "--csv", "ok.csv", "--plot", "/proc/x.svg"}, 2},
      {{"gamma", "--omega", "1:2:3", "--beta", "1:2:3", "--csv", "ok.csv", "--svg", "/proc/x.svg"}, 2},
      {{"run", "dda", "--set", "T=10", "--trace", "t.csv", "--ledger-out", "l.jsonl"}, 2},
      {{"run", "dda", "--set", "T=10", "--trace", "t.csv", "--plot", "/proc/x.svg"}, 2},
      {{"sweep", "--K", "2", "--seeds", "1", "--csv", "ok.csv", "--svg", "/proc/x.svg"}, 2},
      {{"audit", "laplace:b=1", "--runs", "1000", "--shard", "1/2", "--out", "missing_dir/s.json"}, 2},
      {{"check", "000/eq-2.6", "--quick", "--report", "/proc/r.md"}, 2},
      // JSON
      {{"--json", "audit", "dsgd-random-aggregation", "--runs", "4"}, 0},  // the fewest runs an algorithm audit takes
      // accepted nonsense
      {{"audit", "merge", "shard_runs_negative.json", "shard2.json"}, 2},
      {{"audit", "merge", "shard_runs_fraction.json", "shard2.json"}, 2},
      {{"audit", "laplace:b=1", "--seed", "18446744073709551616"}, 2},
      {{"audit", "laplace:b=1", "--seed", "-1"}, 2},
      {{"check", "004/lemma-1", "--quick", "--seed", "-1"}, 2},
      {{"run", "dda", "--seed", "-1"}, 2},
      {{"consensus", "--seed", "18446744073709551616"}, 2},
      {{"compose", "--ledger", ".", "--delta", "1e-5"}, 2},
      // unbounded work from allowed values
      {{"rdp", "--ledger", large.at("subsampled_300.jsonl")}, -1},
      {{"compose", "--ledger", large.at("gaussians_1000.jsonl"), "--delta", "1e-5", "--running"}, 0},
      {{"compose", "--ledger", large.at("pure_4000.jsonl"), "--delta", "1e-5", "--running"}, 0},
      {{"audit", "gaussian:sigma=100"}, 0},
      // slow on ordinary input
      {{"calibrate", "-m", "laplace:b=?,q=0.01", "--epsilon", "1.3003384763006234", "--delta", "1e-6"}, -1},
      {{"run", "dsgd-random-aggregation-minmax", "--set", "eta_decay=1"}, 0},
      {{"run", "admm-random-aggregation", "--set", "per_agent=+5"}, 0},
      {{"calibrate", "-m", "laplace:b=?,q=0.5,sampling=wor", "--epsilon", "2", "--delta", "1e-5", "--accountant", "pld"}, 2},
  };
  std::vector<std::vector<std::string>> args;
  for (const auto& c : cases) args.push_back(c.args);
  SandboxLimits limits;
  limits.cpu_cap_seconds = 14;
  limits.wall_seconds = 240;
  std::vector<std::string> failures;
  run_sandboxed(args, small_fixtures(), limits, 2, [&](std::size_t i, SandboxedResult r) {
    std::string why = sandboxed_contract_violation(r, /*time_limit=*/9);  // the accounting commands' default --time-limit
    if (why.empty() && cases[i].expected >= 0 && r.exit_code != cases[i].expected)
      why = "exit " + std::to_string(r.exit_code) + ", expected " + std::to_string(cases[i].expected) + ": " +
            r.err.substr(0, 300);
    if (!why.empty()) failures.push_back("dpledger " + shell_quote(r.args) + "\n    " + why);
  });
  std::string report;
  for (const auto& f : failures) report += f + "\n";
  EXPECT_TRUE(failures.empty()) << failures.size() << " failing case(s):\n" << report;
}

}  // namespace
}  // namespace dpl::testing
