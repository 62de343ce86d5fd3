// SPDX-License-Identifier: Apache-2.0
#include "audit/exec_samples.h"

#include "accounting/errors.h"
#include "audit/block_sampler.h"
#include "audit/shell_command.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <unordered_map>

namespace dpl::audit {

namespace {

constexpr std::uint64_t kSeedMask = (std::uint64_t{1} << 31) - 1;

std::string seconds_text(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", s);
  return b;
}

// A line of the user's output as quoted in a message: at most 60 characters, control characters as blanks.
std::string quoted_output_line(const std::string& line) {
  std::string q = line.size() > 60 ? line.substr(0, 57) + "..." : line;
  for (char& c : q)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return "'" + q + "'";
}

// Why a finished call is refused, or "" when it is fine.
std::string exec_call_failure(const ShellCallResult& r, std::uint64_t outputs, double seconds_limit) {
  std::string why;
  if (r.timed_out)
    why = "did not finish within --time-limit " + seconds_text(seconds_limit) + " s (the wall-clock time of all calls together); "
          "lower --runs or raise --time-limit";
  else if (r.line_too_long)
    why = "printed a line longer than 1 MB: allowed one output (a number, or a vector) per line";
  else if (!r.exited)
    why = "was killed by signal " + std::to_string(r.signal);
  else if (r.exit_status != 0)
    why = "exited with status " + std::to_string(r.exit_status);
  else if (outputs == 0)
    why = "printed no output: allowed one output (a number, or a vector of numbers) per line, at least one per call";
  if (!why.empty() && !r.timed_out) {
    const std::string err = last_stderr_line(r.stderr_tail);
    if (!err.empty()) why += "; its stderr ends: " + err;
  }
  return why;
}

// The outputs of one call, hashed (FNV-1a over the numbers' bits), with a count of distinct values up to 4.
struct CallFingerprint {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  int distinct_values = 0;
  double first_values[4] = {};
  void add(const std::vector<double>& row) {
    for (double x : row) {
      std::uint64_t bits;
      std::memcpy(&bits, &x, sizeof bits);
      for (int i = 0; i < 8; ++i) hash = (hash ^ ((bits >> (8 * i)) & 0xff)) * 0x100000001b3ull;
      if (distinct_values < 4 && std::find(first_values, first_values + distinct_values, x) == first_values + distinct_values)
        first_values[distinct_values++] = x;
    }
    hash = (hash ^ 0x0a) * 0x100000001b3ull;  // the end of a line
  }
};

}  // namespace

// A bijection of [0, 2^31) (xorshifts and odd multipliers modulo 2^31, each invertible) applied to the call index
// offset by a splitmix64 mix of the seed.
std::uint64_t exec_call_seed(std::uint64_t seed, std::uint64_t call) {
  std::uint64_t x = (block_seed(seed, 0x4558454353454544ull) + call) & kSeedMask;
  x ^= x >> 16;
  x = (x * 0x045d9f3bull) & kSeedMask;
  x ^= x >> 15;
  x = (x * 0x2c1b3c6dull) & kSeedMask;
  x ^= x >> 16;
  return x;
}

std::string exec_command_line(const std::string& command, const std::string& path) {
  const std::string quoted = shell_quoted(path);
  std::string out;
  std::size_t pos = 0, hit;
  while ((hit = command.find("{}", pos)) != std::string::npos) {
    out.append(command, pos, hit - pos);
    out += quoted;
    pos = hit + 2;
  }
  out.append(command, pos, std::string::npos);
  return out;
}

void validate_exec_plan(const ExecPlan& plan) {
  if (plan.command.find_first_not_of(" \t") == std::string::npos)
    throw InputError("--exec is empty: give the command that runs your code, with {} where the data set's path goes");
  if (plan.command.find("{}") == std::string::npos)
    throw InputError("--exec='" + plan.command + "' has no {}: write {} where the data set's path goes (e.g. 'python3 mine.py {}')");
  if (plan.command.size() > 100'000) throw InputError("--exec is longer than 100000 characters");
  if (!(plan.runs >= 2 && plan.runs <= kMaxExecRuns))
    throw InputError("--runs=" + std::to_string(plan.runs) + " is out of range for --exec: allowed integers [2, " +
                     std::to_string(kMaxExecRuns) + "]");
  for (const auto& [option, path] : {std::pair{"--dataset", plan.dataset}, std::pair{"--neighbour", plan.neighbour}}) {
    if (path.empty()) throw InputError(std::string(option) + " is empty: give the path of the data set");
    if (::access(path.c_str(), R_OK) != 0)
      throw InputError(std::string(option) + "=" + path + ": no such file, or not readable");
  }
  if (!(plan.seconds_limit >= 0) || !std::isfinite(plan.seconds_limit))
    throw InputError("the time limit of --exec must be finite and >= 0");
}

ExecSamples run_exec_samples(const ExecPlan& plan, const std::function<void(std::uint64_t, std::uint64_t)>& progress) {
  validate_exec_plan(plan);
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  ShellCall call;
  if (plan.seconds_limit > 0)
    call.deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(plan.seconds_limit));
  ExecSamples s;
  s.d.reserve(plan.runs);
  s.dprime.reserve(plan.runs);
  bool last_on_d = false;
  std::unordered_map<std::uint64_t, std::uint64_t> seen_d, seen_dprime;  // output fingerprint -> first call
  // Each successful call adds at least one output to a side that needs it, so there are at most 2 * runs calls.
  for (std::uint64_t index = 0; s.d.size() < plan.runs || s.dprime.size() < plan.runs; ++index) {
    const bool need_d = s.d.size() < plan.runs, need_dprime = s.dprime.size() < plan.runs;
    const bool on_d = need_d && need_dprime ? !last_on_d : need_d;
    last_on_d = on_d;
    std::vector<double>& values = on_d ? s.d : s.dprime;
    ++(on_d ? s.calls_d : s.calls_dprime);
    call.command = exec_command_line(plan.command, on_d ? plan.dataset : plan.neighbour);
    const std::uint64_t seed = exec_call_seed(plan.seed, index);
    call.env = {{"DPLEDGER_SEED", std::to_string(seed)}};
    const std::string where = "--exec call " + std::to_string(index + 1) + " (on " + (on_d ? "D" : "D'") +
                              "), DPLEDGER_SEED=" + std::to_string(seed) + " " + call.command;
    std::uint64_t outputs = 0;
    CallFingerprint fingerprint;
    const ShellCallResult r = run_shell_call(call, [&](const std::string& line) {
      const auto first = line.find_first_not_of(" \t");
      if (first == std::string::npos || line[first] == '#') return;  // blank lines and comments
      const auto row = sample_row_of(line);
      if (!row)
        throw InputError(where + ": printed " + quoted_output_line(line) +
                         ", not a list of finite numbers: allowed one output (a number, or numbers separated by commas or blanks) per line");
      if (s.dimension == 0) s.dimension = row->size();
      if (row->size() != s.dimension)
        throw InputError(where + ": printed " + std::to_string(row->size()) + " numbers on a line, the first output had " +
                         std::to_string(s.dimension));
      const double v = project_row(*row, plan.projection, "the outputs of --exec");
      fingerprint.add(*row);
      ++outputs;
      if (values.size() < plan.runs) values.push_back(v);
      else ++s.surplus;
    });
    if (const std::string why = exec_call_failure(r, outputs, plan.seconds_limit); !why.empty())
      throw InputError(where + ": " + why);
    // A program that ignores DPLEDGER_SEED (or seeds from the clock) prints the same outputs call after call:
    // the outputs would not be independent draws, and the test's bounds would not hold.
    if (fingerprint.distinct_values >= 4) {
      auto& seen = on_d ? seen_d : seen_dprime;
      if (const auto [it, fresh] = seen.try_emplace(fingerprint.hash, index + 1); !fresh)
        throw InputError(where + ": printed exactly the outputs of call " + std::to_string(it->second) +
                         ": every call must draw fresh randomness seeded from DPLEDGER_SEED (awk: "
                         "srand(ENVIRON[\"DPLEDGER_SEED\"] + 0); Python: numpy.random.default_rng(int(os.environ[\"DPLEDGER_SEED\"])))");
    }
    const std::uint64_t done = s.d.size() + s.dprime.size();
    if (progress) progress(done, 2 * plan.runs);
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    const double projected = elapsed * static_cast<double>(2 * plan.runs) / static_cast<double>(done);
    if (plan.seconds_limit > 0 && elapsed >= 1 && done < 2 * plan.runs && projected > 2 * plan.seconds_limit)
      throw InputError("--exec: " + std::to_string(plan.runs) + " outputs on each side would take about " +
                       seconds_text(projected) + " s at the pace of the first " + std::to_string(index + 1) + " calls (" +
                       std::to_string(done) + " outputs in " + seconds_text(elapsed) + " s), beyond --time-limit " +
                       seconds_text(plan.seconds_limit) + " s: lower --runs, print more outputs per call, or raise --time-limit");
  }
  return s;
}

}  // namespace dpl::audit
