// The large command-line fuzzing run (same generator and checks as tests/cli/fuzz_cli_test.cpp, another seed,
// 3,000 cases; a few minutes): exit 0 or 2 only, no hang, one `error:` line on exit 2, no null in JSON.
#include "tests/cli/fuzz_cli_cases.h"

#include <gtest/gtest.h>

namespace dpl::testing {
namespace {

TEST(FuzzCliLarge, ThousandsOfRandomInputsExitCleanly) {
  const FuzzSummary s = run_fuzz_cases(/*seed=*/777, /*cases=*/3000, /*time_limit_s=*/10);
  EXPECT_TRUE(s.failures.empty()) << s.report();
}

}  // namespace
}  // namespace dpl::testing
