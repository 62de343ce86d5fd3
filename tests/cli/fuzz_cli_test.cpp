// SPDX-License-Identifier: Apache-2.0
// Fuzzing the command line: random and boundary mechanism specs and options for compose, rdp and calibrate
// (magnitudes 1e-300..1e300, 0, negative, steps up to 1e15, q at its edges, mixed mechanisms, --json), with a
// fixed seed. Every case must finish within its time limit with exit 0 or 2; exit 2 prints exactly one `error:`
// line on stderr and nothing on stdout; --json prints one object without null (JSON has no NaN token).
// The larger run is tests/slow/fuzz_cli_large_test.cpp (same generator, more cases).
#include "tests/cli/fuzz_cli_cases.h"

#include <gtest/gtest.h>

namespace dpl::testing {
namespace {

TEST(FuzzCli, RandomAndBoundaryInputsExitCleanly) {
  // The composition layer (classic accountants) over random and boundary inputs; the numerical accountants are
  // fuzzed by tests/slow/fuzz_cli_large_test.cpp.
  const FuzzSummary s = run_fuzz_cases(/*seed=*/20261123, /*cases=*/300, /*time_limit_s=*/10, /*classic_only=*/true);
  EXPECT_TRUE(s.failures.empty()) << s.report();
  EXPECT_GT(s.exit0, 40) << "too few accepted inputs: the generator no longer reaches the accountants";
  EXPECT_GT(s.exit2, 40) << "too few refused inputs: the generator no longer reaches the validation";
}

// Inputs found by earlier fuzzing runs and the issue reports (each once).
TEST(FuzzCli, ReportedInputs) {
  const std::vector<std::string> cases = {
      "compose -m gaussian:sigma=1,steps=1e9 --delta 1e-5",
      "--json compose -m gaussian:sigma=1 --epsilon 40",
      "--json compose -m gaussian:sigma=1 --epsilon 38.3",
      "--json --version",
      "--json --help",
      "--json compose --help",
      "compose -m gaussian:sigma=1,q=0.01,steps=1000 -m laplace:b=1,q=0.01,sampling=wor,steps=1000 --delta 1e-5",
      "compose -m pure:eps=0.01,steps=1000000 --delta 1e-5 --accountant optimal",
      "compose -m pure:eps=0.01,steps=1000000 --delta 1e-5",
      "calibrate -m gaussian:sigma=? --epsilon 4.32 --delta 1.1e-05",
      "calibrate -m pure:eps=?,steps=100000 --epsilon 1 --delta 1e-5",
      "--json calibrate -m laplace:b=?,steps=1e15 --epsilon 1e300 --delta 0",
  };
  const FuzzSummary s = run_fuzz_list(cases, /*time_limit_s=*/10);
  EXPECT_TRUE(s.failures.empty()) << s.report();
}

// Inputs that used to hang inside the PLD or RDP accountants (the PLD now refuses more than 1e7 composed steps up
// front, and the RDP order search estimates subsampled pure/approx curves only up to order 256); the
// composition layer around them answers in time (every other accountant of these ledgers takes < 0.1 s).
TEST(FuzzCli, FormerPldAndRdpHangs) {
  const std::vector<std::string> cases = {
      "compose -m pure:eps=0.1,steps=1e9 --delta 1e-5",                    // pld: no grid limit at 1e9 steps
      "--json compose -m pure:eps=1e-300,steps=1e15 --epsilon 1e-300",     // pld: no grid limit at 1e15 steps
      "compose -m approx:eps=1,delta=0,q=0.1 --delta 1e-6",                // rdp: subsampled pure step > 60 s
      "--json compose -m pure:eps=2.5,steps=1e6 -m rr:eps=1.1 --delta 0 --accountant pld",  // pld: delta 0, 4 s
      // pld: an all-infinite Laplace PLD was left untilted (exit 1, "compose of mismatched PLDs")
      "calibrate -m gaussian:sigma=1,steps=? -m laplace:b=0.03069,sens=1e300 --epsilon 0.001 --delta 1e-300",
  };
  const FuzzSummary s = run_fuzz_list(cases, /*time_limit_s=*/10);
  EXPECT_TRUE(s.failures.empty()) << s.report();
}

// A command line and what its one `error:` line must (and must not) say.
struct Refusal {
  std::string args;
  std::vector<std::string> names;  // each must appear in the message
  std::string never = "";          // must not appear
};

// Options that do nothing for the target, outputs checked before any work, unbounded reads, a bad option of a
// command after a global option, the running budget's --every without a running budget: exit 2, one line naming
// the option or file, nothing on stdout, within the time limit.
TEST(FuzzCli, RefusalsNameTheRightThing) {
  const std::vector<Refusal> cases = {
      {"--json compose -x", {"compose", "-x"}, "is not a command"},
      {"-q compose -m", {"-m"}, "is not a command"},
      {"--json -q compose --delta 1e-5 --bogus 3", {"compose", "--bogus"}, "is not a command"},
      {"audit laplace:b=1 --exact-loss", {"--exact-loss"}},
      {"audit laplace:b=1 --projection coord:1", {"--projection"}},
      {"audit merge a.json b.json --runs 10", {"--runs", "merge"}},
      {"audit merge a.json b.json --seed 3", {"--seed", "merge"}},
      {"audit merge a.json b.json --threads 2", {"--threads", "merge"}},
      {"compose -m gaussian:sigma=1 --delta 1e-5 --every 10", {"--every", "--running"}},
      {"run dgd-secret-sharing --trace /nonexistent-dir/t.csv", {"--trace", "/nonexistent-dir/t.csv"}},
      {"run dgd-secret-sharing --trace same.csv --canary-scores same.csv", {"--trace", "--canary-scores"}},
      {"audit --canary-scores /dev/zero --epsilon 1", {"--canary-scores", "/dev/zero"}},
  };
  for (const auto& c : cases) {
    const RunResult r = run_dpledger_with_limit(c.args, 60, 10);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << c.args;
    EXPECT_EQ(count_lines(r.err), 1) << c.args << "\n" << r.err;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << c.args << "\n" << r.err;
    for (const auto& n : c.names) EXPECT_NE(r.err.find(n), std::string::npos) << c.args << ": no " << n << " in " << r.err;
    if (!c.never.empty()) EXPECT_EQ(r.err.find(c.never), std::string::npos) << c.args << "\n" << r.err;
  }
  // A message never echoes a long input in full.
  const RunResult r = run_dpledger_with_limit("compose -m gaussian:sigma=" + std::string(20000, '7') + "x --delta 1e-5", 60, 10);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_LT(r.err.size(), 600u) << r.err.substr(0, 600);
}

// Standard output that cannot be written (a full device, a closed descriptor): every command fails with exit 2 and
// one `error:` line about the standard output, never exit 0 having written nothing.
TEST(FuzzCli, UnwritableStandardOutputIsAnError) {
  for (const std::string redirect : {"> /dev/full", ">&-"})
    for (const std::string args : {"compose -m gaussian:sigma=1 --delta 1e-5", "check --list", "manpage",
                                   "--json compose -m laplace:b=1 --epsilon 1", "--help", "--version",
                                   "completion bash", "rdp -m gaussian:sigma=2"}) {
      char err_tmpl[] = "/tmp/dpledger_err_XXXXXX";
      close(mkstemp(err_tmpl));
      const std::string cmd = std::string(DPLEDGER_BIN) + " " + args + " " + redirect + " 2>" + err_tmpl + " </dev/null";
      const int status = std::system(cmd.c_str());
      const std::string err = read_all(err_tmpl);
      std::remove(err_tmpl);
      ASSERT_TRUE(WIFEXITED(status)) << cmd;
      EXPECT_EQ(WEXITSTATUS(status), 2) << cmd << "\n" << err;
      EXPECT_NE(err.find("error: cannot write the standard output"), std::string::npos) << cmd << "\n" << err;
    }
}

}  // namespace
}  // namespace dpl::testing
