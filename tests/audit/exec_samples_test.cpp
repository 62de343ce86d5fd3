// SPDX-License-Identifier: Apache-2.0
// Users' programs run by the audit: one shell call (its output lines, exit status, stderr, deadline, environment,
// the quoting of paths), the seeds of the calls (distinct within an audit), and the collection of outputs on D and
// D' with every way a call can fail refused with a message naming the call.
#include "audit/exec_samples.h"

#include "accounting/errors.h"
#include "audit/shell_command.h"
#include "tests/algorithms/temp_file.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>
#include <sys/resource.h>

#include <chrono>
#include <set>

namespace dpl::audit {
namespace {

using dpl::testing::TempFile;

std::vector<std::string> lines_of(const ShellCall& call, ShellCallResult* result = nullptr) {
  std::vector<std::string> lines;
  const ShellCallResult r = run_shell_call(call, [&](const std::string& l) { lines.push_back(l); });
  if (result) *result = r;
  return lines;
}

TEST(ShellCall, LinesStatusStderrAndEnvironment) {
  ShellCallResult r;
  ShellCall call;
  call.command = "printf 'a\\r\\nb\\n\\nlast'; echo oops >&2; echo 'why it failed' >&2; exit 3";
  EXPECT_EQ(lines_of(call, &r), (std::vector<std::string>{"a", "b", "", "last"}));
  EXPECT_TRUE(r.exited);
  EXPECT_EQ(r.exit_status, 3);
  EXPECT_EQ(last_stderr_line(r.stderr_tail), "why it failed");
  call.command = "echo \"$DPLEDGER_SEED\"";
  call.env = {{"DPLEDGER_SEED", "42"}};
  EXPECT_EQ(lines_of(call), (std::vector<std::string>{"42"}));
  call.command = "kill -9 $$";
  lines_of(call, &r);
  EXPECT_FALSE(r.exited);
  EXPECT_EQ(r.signal, 9);
  call.command = "read x; echo \"[$x]\"";  // stdin is /dev/null
  EXPECT_EQ(lines_of(call), (std::vector<std::string>{"[]"}));
}

TEST(ShellCall, TheCallersMemoryCapIsNotTheCommands) {
  rlimit saved{};
  ASSERT_EQ(getrlimit(RLIMIT_AS, &saved), 0);
  rlimit capped = saved;
  capped.rlim_cur = rlim_t{4000} << 20;  // 4000 MB, below an unlimited hard limit
  if (saved.rlim_max != RLIM_INFINITY) GTEST_SKIP() << "the hard address-space limit is set from outside";
  ASSERT_EQ(setrlimit(RLIMIT_AS, &capped), 0);
  ShellCall call;
  call.command = "ulimit -S -v";
  const auto lines = lines_of(call);
  ASSERT_EQ(setrlimit(RLIMIT_AS, &saved), 0);
  EXPECT_EQ(lines, (std::vector<std::string>{"unlimited"}));
  rlimit now{};
  ASSERT_EQ(getrlimit(RLIMIT_AS, &now), 0);
  EXPECT_EQ(now.rlim_cur, saved.rlim_cur);
}

TEST(ShellCall, DeadlineKillsTheProcessGroupAndAThrowingCallbackStopsIt) {
  ShellCall call;
  call.command = "sleep 30 & sleep 30; echo never";
  call.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
  const auto start = std::chrono::steady_clock::now();
  ShellCallResult r;
  EXPECT_TRUE(lines_of(call, &r).empty());
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  ShellCall endless;
  endless.command = "yes 1";
  int seen = 0;
  EXPECT_THROW(run_shell_call(endless, [&](const std::string&) {
                 if (++seen == 1000) throw InputError("enough");
               }),
               InputError);
  EXPECT_EQ(seen, 1000);
}

TEST(ShellCall, ALongLineStopsTheCall) {
  ShellCall call;
  call.command = "head -c 3000000 /dev/zero | tr '\\0' 1";
  ShellCallResult r;
  EXPECT_TRUE(lines_of(call, &r).empty());
  EXPECT_TRUE(r.line_too_long);
}

// Any path (no NUL, no line end) reaches the program as the one word it is.
RC_GTEST_PROP(ExecSamples, CommandLineQuotesThePath, ()) {
  const auto path = *rc::gen::container<std::string>(
      rc::gen::suchThat(rc::gen::character<char>(), [](char c) { return c != '\0' && c != '\n' && c != '\r'; }));
  ShellCall call;
  call.command = exec_command_line("printf '%s|' {}; printf '%s\\n' {}", path);
  const auto lines = lines_of(call);
  RC_ASSERT(lines == std::vector<std::string>{path + "|" + path});
}

RC_GTEST_PROP(ExecSamples, CallSeedsAreDistinctIntegersBelowTwoToThe31, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto first = *rc::gen::inRange<std::uint64_t>(0, std::uint64_t{1} << 40);
  std::set<std::uint64_t> seen;
  for (std::uint64_t c = first; c < first + 2000; ++c) {
    const auto s = exec_call_seed(seed, c);
    RC_ASSERT(s < (std::uint64_t{1} << 31));
    seen.insert(s);
  }
  RC_ASSERT(seen.size() == 2000u);
}

TEST(ExecSamples, CallSeedsDependOnTheSeed) {
  EXPECT_EQ(exec_call_seed(7, 3), exec_call_seed(7, 3));
  int same = 0;
  for (std::uint64_t c = 0; c < 100; ++c) same += exec_call_seed(1, c) == exec_call_seed(2, c);
  EXPECT_LT(same, 3);
}

ExecPlan plan_for(const std::string& command, const TempFile& d, const TempFile& dp, std::uint64_t runs) {
  ExecPlan p;
  p.command = command;
  p.dataset = d.path();
  p.neighbour = dp.path();
  p.runs = runs;
  p.seed = 5;
  p.seconds_limit = 60;
  return p;
}

std::string error_of(const ExecPlan& p) {
  try {
    run_exec_samples(p, {});
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ExecSamples, AlternatesSidesUntilEachHasItsRuns) {
  TempFile d("d.txt", "1\n"), dp("dp.txt", "2\n");
  // Each call prints its data set's number three times, with a comment and a blank line.
  const ExecSamples s = run_exec_samples(plan_for("echo '# out'; echo; cat {} {} {}", d, dp, 7), {});
  EXPECT_EQ(s.d, std::vector<double>(7, 1.0));
  EXPECT_EQ(s.dprime, std::vector<double>(7, 2.0));
  EXPECT_EQ(s.calls_d, 3u);
  EXPECT_EQ(s.calls_dprime, 3u);
  EXPECT_EQ(s.surplus, 4u);
  EXPECT_EQ(s.dimension, 1u);
  // Vectors and a projection; the seed of each call is in the environment, so the outputs are reproducible.
  ExecPlan p = plan_for("echo \"$DPLEDGER_SEED, $(cat {})\"", d, dp, 3);
  p.projection = parse_projection("coord:2");
  const ExecSamples v = run_exec_samples(p, {});
  EXPECT_EQ(v.dprime, std::vector<double>(3, 2.0));
  p.projection = parse_projection("coord:1");
  const ExecSamples seeds = run_exec_samples(p, {});
  EXPECT_EQ(seeds.d, (std::vector<double>{double(exec_call_seed(5, 0)), double(exec_call_seed(5, 2)), double(exec_call_seed(5, 4))}));
  EXPECT_EQ(run_exec_samples(p, {}).d, seeds.d);
  std::uint64_t last = 0;
  run_exec_samples(p, [&](std::uint64_t done, std::uint64_t total) {
    EXPECT_EQ(total, 6u);
    EXPECT_GT(done, last);
    last = done;
  });
  EXPECT_EQ(last, 6u);
}

TEST(ExecSamples, EveryFailingCallIsNamed) {
  TempFile d("d.txt", "1\n"), dp("dp.txt", "2\n");
  const std::string failed = error_of(plan_for("cat {}; echo 'no such model' >&2; exit 7", d, dp, 4));
  EXPECT_NE(failed.find("--exec call 1 (on D)"), std::string::npos) << failed;
  EXPECT_NE(failed.find("exited with status 7"), std::string::npos) << failed;
  EXPECT_NE(failed.find("no such model"), std::string::npos) << failed;
  EXPECT_NE(failed.find("cat '" + d.path() + "'"), std::string::npos) << failed;
  EXPECT_NE(error_of(plan_for("true {}", d, dp, 4)).find("printed no output"), std::string::npos);
  EXPECT_NE(error_of(plan_for(": {}; echo 1x", d, dp, 4)).find("'1x', not a list of finite numbers"), std::string::npos);
  EXPECT_NE(error_of(plan_for(": {}; echo nan", d, dp, 4)).find("not a list of finite numbers"), std::string::npos);
  // the second call (on D') prints two numbers where the first printed one
  EXPECT_NE(error_of(plan_for("cat {}; case {} in *dp.txt) echo 1,2;; esac", d, dp, 4)).find("--exec call 2 (on D')"),
            std::string::npos);
  EXPECT_NE(error_of(plan_for(": {}; echo 1,2", d, dp, 4)).find("--projection"), std::string::npos);
  EXPECT_NE(error_of(plan_for(": {}; kill -9 $$", d, dp, 4)).find("killed by signal 9"), std::string::npos);
  // a program that ignores its seed: call 3 (the second on D) repeats call 1
  const std::string unseeded = error_of(plan_for(": {}; printf '1\\n2\\n3\\n4\\n'", d, dp, 100));
  EXPECT_NE(unseeded.find("--exec call 3 (on D)"), std::string::npos) << unseeded;
  EXPECT_NE(unseeded.find("printed exactly the outputs of call 1"), std::string::npos) << unseeded;
  ExecPlan slow = plan_for("sleep 10; cat {}", d, dp, 4);
  slow.seconds_limit = 0.3;
  EXPECT_NE(error_of(slow).find("did not finish within --time-limit 0.3 s"), std::string::npos);
  // 2 * 10^6 outputs at a call of about 0.3 s per output are refused after the first calls, long before the end
  ExecPlan paced = plan_for("sleep 0.3; cat {}", d, dp, 1'000'000);
  paced.seconds_limit = 30;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_NE(error_of(paced).find("would take about"), std::string::npos);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(ExecSamples, RefusesPlansThatCannotRun) {
  TempFile d("d.txt", "1\n"), dp("dp.txt", "2\n");
  EXPECT_NE(error_of(plan_for("cat data.csv", d, dp, 4)).find("has no {}"), std::string::npos);
  EXPECT_NE(error_of(plan_for("  ", d, dp, 4)).find("--exec is empty"), std::string::npos);
  EXPECT_NE(error_of(plan_for("cat {}", d, dp, 1)).find("--runs=1 is out of range"), std::string::npos);
  EXPECT_NE(error_of(plan_for("cat {}", d, dp, kMaxExecRuns + 1)).find("--runs"), std::string::npos);
  ExecPlan missing = plan_for("cat {}", d, dp, 4);
  missing.neighbour = "/nonexistent/dpledger.csv";
  EXPECT_NE(error_of(missing).find("--neighbour=/nonexistent/dpledger.csv"), std::string::npos);
}

}  // namespace
}  // namespace dpl::audit
