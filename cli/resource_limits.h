// SPDX-License-Identifier: Apache-2.0
// The last line of defence of the "finishes or refuses within seconds and bounded memory" contract: every command
// checks the sizes and the work its inputs imply before it starts (a documented limit per command), and these two
// process-wide limits stop whatever those estimates missed, with exit 2 and one `error:` line:
// - CPU time (`--time-limit SECONDS`, default per command: default_time_limit, 0 = none): a watchdog thread reads the process's CPU time
//   (all threads) every 20 ms and ends the process when it passes the limit; no output file is left behind
//   (files are written only after success, cli/output_file.h).
// - memory (`--memory-limit MB`, default 2000, 0 = none): the address space is capped (setrlimit RLIMIT_AS), so an
//   allocation beyond it fails with std::bad_alloc, which main() reports as exit 2.
#pragma once

#include <string>
#include <thread>

namespace dpl::cli {

struct ResourceLimits {
  double cpu_seconds = -1;  // < 0: the command's default (default_time_limit)
  double memory_mb = 2000;
};

inline constexpr double kDefaultMemoryLimitMb = 2000;

// The default --time-limit of a command, in CPU seconds: 9 for the accounting commands (compose, calibrate, rdp,
// gamma, consensus and the rest), longer for the commands that run the papers' algorithms at their defaults
// (run 60, check 120, audit 180, sweep 600). Each shows progress on a terminal and stops early, naming what to
// lower, once its work is projected past the limit.
double default_time_limit(const std::string& command);

// The limits given on the command line (defaults until main() has parsed them).
ResourceLimits& resource_limits();

// Before work whose cost a command can estimate: refuses (InputError, exit 2) when `estimated_seconds` of CPU time
// exceed --time-limit, naming `what` (e.g. "audit laplace:b=1 with --runs 1e10") and `lower` (what to lower).
void require_time_within_limit(double estimated_seconds, const std::string& what, const std::string& lower);
// The same for memory: `estimated_mb` above --memory-limit.
void require_memory_within_limit(double estimated_mb, const std::string& what, const std::string& lower);

// Work whose cost is known only once it runs (an algorithm's iterations, audit runs, sweep points): after each
// progress report, the CPU time so far is extrapolated to the whole work; when the projection passes 3 times
// --time-limit (progress is uneven: a run's ledger phase can be front-loaded 5x; the watchdog stops the rest)
// the command stops at once (InputError, exit 2) naming the work, the projection and what to lower,
// instead of working until the watchdog ends it. Only on the thread that made it (a library's helper thread
// never throws); the work is also named for the watchdog's message.
class WorkForecast {
 public:
  WorkForecast(std::string what, std::string lower);
  // `fraction` of the work is done (in [0, 1]).
  void done(double fraction);

 private:
  std::string what_, lower_;
  double start_;
  std::thread::id thread_;
};

// Names the work in the watchdog's message ("rdp of 3000 distinct curves at 28 orders"); "" for none.
void describe_work(const std::string& what);

// Applies the memory cap and starts the watchdog (once; the command's name is used in the message).
void enforce_resource_limits(const ResourceLimits& limits, const std::string& command);
// Stops the watchdog: the command has finished its work and prints its result.
void stop_time_limit();
// The message of an allocation that failed under the memory cap.
std::string memory_limit_message(const std::string& command);

}  // namespace dpl::cli
