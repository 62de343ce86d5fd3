// SPDX-License-Identifier: Apache-2.0
// `dpledger run` shows progress on stderr only when stderr is a terminal and -q is not given, and what it writes
// (stdout, JSON, the trace) is byte-identical whether the progress bar is drawn or not.
#include "tests/cli/run_binary.h"
#include "tests/cli/terminal_stderr.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace dpl::testing {
namespace {

// About 2 s on an idle core (the ledger's certified quadratures), well above the bar's 0.7 s delay. Each test has
// its own trace file (ctest may run them at the same time).
std::string run_args(const std::string& trace) {
  // K 1000: about 2 s on an idle machine, so the bar (drawn after 0.7 s) shows the steps and the ledger phase; the
  // default K 100 ends in 0.3 s, before any bar.
  return "run admm-random-aggregation --seed 3 --set K=1000 --trace " + trace;
}

struct Written {
  RunResult run;
  std::string trace;
};

template <class Runner>
Written run_and_read_trace(Runner runner, const std::string& args, const std::string& trace) {
  std::remove(trace.c_str());
  // Compared without the provenance line, which records the arguments (-q differs between the runs).
  Written w{runner(args), dpl::testing::without_provenance(read_all(trace))};
  std::remove(trace.c_str());
  return w;
}

TEST(RunProgressCli, DrawnOnATerminalOnlyAndSilencedByQuiet) {
  const std::string trace = "/tmp/dpledger_run_progress_text_trace.csv", args = run_args(trace);
  const Written tty = run_and_read_trace(run_dpledger_on_terminal, args, trace);
  ASSERT_EQ(tty.run.exit_code, 0) << tty.run.err;
  EXPECT_NE(tty.run.err.find("run ["), std::string::npos) << tty.run.err;
  EXPECT_NE(tty.run.err.find("%"), std::string::npos) << tty.run.err;
  EXPECT_NE(tty.run.err.find("ledger: release "), std::string::npos) << tty.run.err;
  // The bar is cleared before the results are printed.
  EXPECT_EQ(tty.run.err.substr(tty.run.err.size() - 4), "\r\033[K");

  const Written quiet = run_and_read_trace(run_dpledger_on_terminal, "-q " + args, trace);
  ASSERT_EQ(quiet.run.exit_code, 0) << quiet.run.err;
  EXPECT_EQ(quiet.run.err, "");
  const Written piped = run_and_read_trace(run_dpledger, args, trace);
  ASSERT_EQ(piped.run.exit_code, 0) << piped.run.err;
  EXPECT_EQ(piped.run.err, "");

  // Identical output with and without the bar.
  EXPECT_FALSE(tty.run.out.empty());
  EXPECT_EQ(tty.run.out, quiet.run.out);
  EXPECT_EQ(tty.run.out, piped.run.out);
  EXPECT_GT(tty.trace.size(), 1000u);
  EXPECT_EQ(tty.trace, quiet.trace);
  EXPECT_EQ(tty.trace, piped.trace);
}

TEST(RunProgressCli, JsonIsIdenticalWithAndWithoutTheBar) {
  const std::string trace = "/tmp/dpledger_run_progress_json_trace.csv", args = run_args(trace);
  const Written tty = run_and_read_trace(run_dpledger_on_terminal, "--json " + args, trace);
  ASSERT_EQ(tty.run.exit_code, 0) << tty.run.err;
  EXPECT_NE(tty.run.err.find("run ["), std::string::npos) << tty.run.err;
  const Written piped = run_and_read_trace(run_dpledger, "--json " + args, trace);
  ASSERT_EQ(piped.run.exit_code, 0) << piped.run.err;
  EXPECT_EQ(piped.run.err, "");
  EXPECT_EQ(tty.run.out.rfind("{", 0), 0u);
  EXPECT_EQ(tty.run.out, piped.run.out);
  EXPECT_EQ(tty.trace, piped.trace);
}

}  // namespace
}  // namespace dpl::testing
