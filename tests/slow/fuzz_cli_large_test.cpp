// The large command-line fuzzing runs (same generator and checks as tests/cli/fuzz_cli_test.cpp, other seeds; a
// few minutes): exit 0 or 2 only, no hang, one `error:` line on exit 2, no null in JSON.
#include "tests/cli/fuzz_cli_cases.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace dpl::testing {
namespace {

TEST(FuzzCliLarge, ThousandsOfClassicInputsExitCleanly) {
  const FuzzSummary s = run_fuzz_cases(/*seed=*/777, /*cases=*/3000, /*time_limit_s=*/10, /*classic_only=*/true);
  EXPECT_TRUE(s.failures.empty()) << s.report();
}

// Every command and accountant (rdp, pld and auto included): compose, rdp and calibrate over random and boundary
// specs, 1,000 cases of at most 10 s of CPU time each (the PLD's work limits, accounting/pld/pld_work_budget.h, keep
// the extreme ones in time: they answer with another accountant or exit 2); also no JSON bound below the
// tool's own certified lower bound, and no calibrated value whose certified epsilon exceeds the target.
TEST(FuzzCliLarge, EveryAccountantExitsCleanly) {
  FuzzGenerator g(/*seed=*/20261123, /*classic_only=*/false);
  std::vector<std::string> list;
  for (int i = 0; i < 1000; ++i) list.push_back(g.next());
  const FuzzSummary s = run_fuzz_list(list, /*time_limit_s=*/10);
  EXPECT_TRUE(s.failures.empty()) << s.report();
  EXPECT_GT(s.exit0, 250) << "too few accepted inputs: the generator no longer reaches the accountants";
}

}  // namespace
}  // namespace dpl::testing
