// SPDX-License-Identifier: Apache-2.0
// Users' own programs as black boxes: a shell command with `{}` where a data set's path goes is run on D and on the
// neighbouring D' (alternating), each call with its own seed in DPLEDGER_SEED, until each side has printed `runs`
// outputs (one number, or one vector, per line; as many per call as the program likes). The outputs, projected to
// numbers, then go to the same threshold test as sample files (audit/user_samples.h).
#pragma once

#include "audit/user_samples.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace dpl::audit {

inline constexpr std::uint64_t kMaxExecRuns = 10'000'000;

struct ExecPlan {
  std::string command;     // contains {} (each replaced by the data set's path, shell-quoted)
  std::string dataset;     // D
  std::string neighbour;   // D'
  std::uint64_t runs = 0;  // outputs wanted on each side, in [2, kMaxExecRuns]
  std::uint64_t seed = 0;
  Projection projection;   // vectors to numbers (empty: every output is one number)
  double seconds_limit = 0;  // wall-clock time for all the calls (a call past it is killed); 0: none
};

struct ExecSamples {
  std::vector<double> d, dprime;  // exactly plan.runs each, in the order printed (calls in order)
  std::uint64_t calls_d = 0, calls_dprime = 0;
  std::uint64_t surplus = 0;      // outputs printed beyond the runs wanted (by the last call of a side), not used
  std::size_t dimension = 0;      // numbers per output line
};

// The seed of call `call` (0, 1, ...): an integer in [0, 2^31) (what awk's srand, C's srand and every other
// generator take whole), a bijection of the call index for a given seed, so the calls of one audit never share a
// seed, and scrambled so that neighbouring calls and seeds get unrelated values.
std::uint64_t exec_call_seed(std::uint64_t seed, std::uint64_t call);

// The command of one call: every {} replaced by the shell-quoted path.
std::string exec_command_line(const std::string& command, const std::string& path);

// Throws InputError for a plan that cannot run (no {} in the command, runs out of range, a data set that is not a
// readable file).
void validate_exec_plan(const ExecPlan& plan);

// Runs the calls. Throws InputError naming the call (its command line, the side, DPLEDGER_SEED) when one exits
// with a non-zero status or is killed, prints no output, prints a line that is not a list of finite numbers (or
// whose length differs from the first output's), prints exactly what an earlier call on its side printed (at least
// 4 distinct numbers: the program ignores its seed), or does not finish within the limit; and before that, as soon as
// the calls so far project the whole past twice the limit. `progress(outputs, 2 * runs)` after each call (may be
// empty).
ExecSamples run_exec_samples(const ExecPlan& plan, const std::function<void(std::uint64_t, std::uint64_t)>& progress);

}  // namespace dpl::audit
