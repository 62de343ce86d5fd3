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

}  // namespace
}  // namespace dpl::testing
