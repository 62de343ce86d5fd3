// SPDX-License-Identifier: Apache-2.0
// The command-line fuzzer shared by tests/cli/fuzz_cli_test.cpp and tests/slow/fuzz_cli_large_test.cpp:
// a seeded generator of compose/rdp/calibrate invocations and the checks every invocation must pass.
#pragma once

#include "tests/cli/run_binary.h"
#include "tests/cli/sandboxed_run.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <cstdint>
#include <algorithm>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace dpl::testing {

struct FuzzFailure {
  std::string args;
  std::string why;
};

// The options whose values are files dpledger writes (a successful run may leave exactly those).
inline const std::vector<std::string>& fuzz_output_options() {
  static const std::vector<std::string> o = {"--csv", "--svg", "--plot", "--trace", "--ledger-out", "--out", "--report",
                                             "--curve"};
  return o;
}

struct FuzzSummary {
  int exit0 = 0, exit2 = 0;
  std::vector<FuzzFailure> failures;
  std::string report() const {
    std::ostringstream s;
    s << failures.size() << " failing case(s):\n";
    for (const auto& f : failures) s << "  dpledger " << f.args << "\n    " << f.why << "\n";
    return s.str();
  }
};

// True if the JSON value contains null anywhere (a number that could not be printed).
inline bool has_null(const nlohmann::json& j) {
  if (j.is_null()) return true;
  if (j.is_object() || j.is_array())
    for (const auto& v : j) if (has_null(v)) return true;
  return false;
}

// A bound the JSON reports below the tool's own certified lower bound (or a calibrated value that does not meet
// its target): "" if none. Only numbers are compared ("inf" strings are always consistent).
inline std::string inconsistent_bounds(const nlohmann::json& j) {
  auto num = [&](const char* k, double* v) {
    if (!j.contains(k) || !j.at(k).is_number()) return false;
    *v = j.at(k).get<double>();
    return true;
  };
  double up = 0, low = 0;
  for (const auto& [upper, lower] : {std::pair{"epsilon", "epsilon_lower"}, std::pair{"delta", "delta_lower"}})
    if (num(upper, &up) && num(lower, &low) && up < low)
      return std::string(upper) + " " + std::to_string(up) + " is below its certified lower bound " + std::to_string(low);
  double target = 0;
  if (j.value("command", "") == "calibrate" && num("epsilon_at_value", &up) && num("epsilon", &target) && up > target)
    return "calibrated epsilon_at_value " + std::to_string(up) + " exceeds the target " + std::to_string(target);
  return "";
}

// Runs one invocation with a CPU-time limit of `time_limit_s` (`ulimit -t`: the work, independent of how many
// other processes share the machine) and a wall-clock limit of 6x that (KILL), and checks the contract; "" if
// it holds.
inline std::string check_invocation(const std::string& args, int time_limit_s, int* exit_code) {
  const RunResult r = run_dpledger_with_limit(args, 6 * time_limit_s, time_limit_s);
  *exit_code = r.exit_code;
  if (r.exit_code == 124 || r.exit_code == 137 || r.exit_code == 152 || r.exit_code == -1)
    return "no answer within " + std::to_string(time_limit_s) + " s of CPU time (killed)";
  if (r.exit_code != 0 && r.exit_code != 2)
    return "exit " + std::to_string(r.exit_code) + ", stderr: " + r.err;
  if (r.exit_code == 2) {
    if (!r.out.empty()) return "exit 2 with output on stdout: " + r.out.substr(0, 200);
    if (count_lines(r.err) != 1 || r.err.rfind("error: ", 0) != 0)
      return "exit 2 without exactly one `error:` line: " + r.err.substr(0, 300);
    return "";
  }
  if (args.find("--json") != std::string::npos) {
    if (count_lines(r.out) != 1) return "--json printed " + std::to_string(count_lines(r.out)) + " lines";
    try {
      const auto j = nlohmann::json::parse(r.out);
      if (!j.is_object()) return "--json printed no object";
      if (has_null(j)) return "null in JSON: " + r.out.substr(0, 400);
      const std::string bad = inconsistent_bounds(j);
      if (!bad.empty()) return bad + ": " + r.out.substr(0, 400);
    } catch (const std::exception& e) {
      return std::string("invalid JSON (") + e.what() + "): " + r.out.substr(0, 400);
    }
  } else if (r.out.empty()) {
    return "exit 0 with nothing on stdout";
  }
  return "";
}

inline FuzzSummary run_fuzz_list(const std::vector<std::string>& cases, int time_limit_s) {
  FuzzSummary s;
  for (const auto& args : cases) {
    int code = 0;
    const std::string why = check_invocation(args, time_limit_s, &code);
    if (!why.empty()) s.failures.push_back({args, why});
    else if (code == 0) ++s.exit0;
    else ++s.exit2;
  }
  return s;
}

// The seeded generator of invocations.
class FuzzGenerator {
 public:
  // classic_only: compose and calibrate with --accountant pure, basic, advanced or optimal only (the composition
  // layer, without the numerical rdp/pld accountants); otherwise every command and accountant.
  FuzzGenerator(std::uint64_t seed, bool classic_only) : rng_(seed), classic_only_(classic_only) {}

  std::string next() {
    std::string cmd;
    const int c = pick(10);
    if (c < 6) cmd = compose();
    else if (c < 8 && !classic_only_) cmd = rdp();
    else cmd = calibrate();
    if (classic_only_) cmd += " --accountant " + one_of(std::vector<std::string>{"pure", "basic", "advanced", "optimal"});
    return (pick(2) == 0 ? "--json " : "") + cmd;
  }

 private:
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  template <class T>
  const T& one_of(const std::vector<T>& v) { return v[static_cast<std::size_t>(pick(static_cast<int>(v.size())))]; }

  // Magnitudes across the whole double range, with the boundary values and a few invalid ones.
  std::string magnitude() {
    static const std::vector<std::string> m = {"1e-300", "1e-100", "1e-12", "1e-6", "0.001", "0.1", "0.3", "1",
                                               "1.1", "2.5", "7", "40", "1000", "1e10", "1e100", "1e300", "0",
                                               "-1"};
    if (pick(4) == 0) {
      std::ostringstream s;
      s.precision(4);
      s << std::exp(std::uniform_real_distribution<double>(-12, 8)(rng_));
      return s.str();
    }
    return one_of(m);
  }
  std::string probability() {
    static const std::vector<std::string> p = {"0", "1e-300", "1e-12", "1e-6", "1e-5", "0.001", "0.01", "0.1",
                                               "0.5", "0.9", "0.999999", "1", "1.0000001", "-0.1"};
    return one_of(p);
  }
  std::string steps() {
    static const std::vector<std::string> s = {"1", "2", "3", "10", "100", "1000", "10000", "1e6", "1e9", "1e15",
                                               "0", "1.5", "1e16"};
    return one_of(s);
  }
  std::string modifiers() {
    std::string s;
    if (pick(2) == 0) s += ",steps=" + steps();
    if (pick(3) == 0) {
      s += ",q=" + probability();
      if (pick(3) == 0) s += std::string(",sampling=") + (pick(2) == 0 ? "poisson" : "wor");
    }
    return s;
  }
  std::string mechanism() {
    switch (pick(7)) {
      case 0: return "gaussian:sigma=" + magnitude() + (pick(3) == 0 ? ",sens=" + magnitude() : "") + modifiers();
      case 1: return "laplace:b=" + magnitude() + (pick(3) == 0 ? ",sens=" + magnitude() : "") + modifiers();
      case 2: return "rr:eps=" + magnitude() + modifiers();
      case 3: return "pure:eps=" + magnitude() + modifiers();
      case 4: return "approx:eps=" + magnitude() + ",delta=" + probability() + modifiers();
      case 5: return "iteration:sigma=" + magnitude() + ",sens=" + magnitude() + ",steps=" + steps() +
                     (pick(2) == 0 ? ",contraction=" + probability() : "");
      default: return "gaussian:sigma=" + magnitude() + ",q=" + probability() + ",steps=" + steps();
    }
  }
  std::string ledger() {
    std::string s;
    const int n = 1 + pick(3);
    for (int i = 0; i < n; ++i) s += " -m " + mechanism();
    return s;
  }
  std::string accountant() {
    static const std::vector<std::string> a = {"auto", "auto", "pure", "basic", "advanced", "optimal", "rdp", "pld"};
    return one_of(a);
  }
  std::string compose() {
    std::string s = "compose" + ledger();
    s += pick(2) == 0 ? " --delta " + probability() : " --epsilon " + magnitude();
    if (pick(2) == 0 && !classic_only_) s += " --accountant " + accountant();
    return s;
  }
  std::string rdp() {
    static const std::vector<std::string> orders = {"2", "1.5", "32", "1e6", "1.000001", "2,4,8,16", "1", "0.5"};
    std::string s = "rdp" + ledger();
    if (pick(2) == 0) s += " --orders " + one_of(orders);
    return s;
  }
  std::string calibrate() {
    // One '?' in one spec.
    static const std::vector<std::string> unknowns = {
        "gaussian:sigma=?", "gaussian:sigma=?,q=0.01,steps=1000", "laplace:b=?,steps=10", "pure:eps=?,steps=100",
        "gaussian:sigma=1,steps=?", "gaussian:sigma=1.1,q=?,steps=100", "pure:eps=0.1,q=?", "approx:eps=?,delta=1e-7",
        "pure:eps=1e-300,steps=?", "gaussian:sigma=1e300,steps=?", "laplace:b=?,sens=1e-300"};
    std::string s = "calibrate -m " + one_of(unknowns);
    if (pick(3) == 0) s += " -m " + mechanism();
    s += " --epsilon " + magnitude() + " --delta " + probability();
    if (pick(3) == 0 && !classic_only_) s += " --accountant " + accountant();
    return s;
  }

  std::mt19937_64 rng_;
  bool classic_only_;
};

// The robustness contract for one sandboxed run (tests/cli/sandboxed_run.h) of `args`, whose --time-limit is
// `time_limit` seconds: "" if it holds, else what broke.
// - exit 0, 2, 3 or 4 only (1 is an internal error; a signal or a kill is a crash or a hang);
// - within the time limit (plus the watchdog's reaction and the start-up) and below 2 GB of memory;
// - exit 2: nothing on stdout and exactly one `error:` line on stderr;
// - --json with exit 0/3/4: exactly one JSON object on one line, without null;
// - files: after an exit other than 0/3/4 no new file and no changed file in the run's directory; after 0/3/4 only
//   the files named by output options, never a temporary one.
inline std::string sandboxed_contract_violation(const SandboxedResult& r, double time_limit) {
  if (r.wall_timeout) return "no answer within the wall-clock deadline (killed)";
  if (r.signal != 0) return "killed by signal " + std::to_string(r.signal) + " (" + std::string(strsignal(r.signal)) + ")";
  if (r.exit_code != 0 && r.exit_code != 2 && r.exit_code != 3 && r.exit_code != 4)
    return "exit " + std::to_string(r.exit_code) + ", stderr: " + r.err.substr(0, 300);
  if (r.cpu_seconds > time_limit + 1.0)
    return "used " + std::to_string(r.cpu_seconds) + " s of CPU time, above --time-limit " + std::to_string(time_limit);
  if (r.max_rss_mb > 2000) return "peak memory " + std::to_string(r.max_rss_mb) + " MB, above 2 GB";
  const bool success = r.exit_code != 2;
  std::set<std::string> named;
  for (std::size_t i = 0; i + 1 < r.args.size(); ++i)
    for (const auto& o : fuzz_output_options())
      if (r.args[i] == o) named.insert(r.args[i + 1]);
  if (!success) {
    if (!r.out.empty()) return "exit 2 with output on stdout: " + r.out.substr(0, 200);
    if (count_lines(r.err) != 1 || r.err.rfind("error: ", 0) != 0)
      return "exit 2 without exactly one `error:` line: " + r.err.substr(0, 300);
    if (!r.new_files.empty()) return "exit 2 left a file behind: " + *r.new_files.begin();
    if (!r.changed_files.empty()) return "exit 2 changed the file " + *r.changed_files.begin();
  } else {
    for (const auto& f : r.new_files) {
      if (f.rfind(".", 0) == 0) return "a temporary file was left: " + f;
      if (!named.count(f)) return "a file no option named was written: " + f;
    }
    for (const auto& f : r.changed_files)
      if (!named.count(f)) return "a file no option named was changed: " + f;
    const bool json = std::find(r.args.begin(), r.args.end(), "--json") != r.args.end() &&
                      std::find(r.args.begin(), r.args.end(), "--help") == r.args.end();
    if (json) {
      if (count_lines(r.out) != 1) return "--json printed " + std::to_string(count_lines(r.out)) + " lines";
      try {
        const auto j = nlohmann::json::parse(r.out);
        if (!j.is_object()) return "--json printed no object";
        if (has_null(j)) return "null in JSON: " + r.out.substr(0, 400);
        const std::string bad = inconsistent_bounds(j);
        if (!bad.empty()) return bad + ": " + r.out.substr(0, 400);
      } catch (const std::exception& e) {
        return std::string("invalid JSON (") + e.what() + "): " + r.out.substr(0, 400);
      }
    }
  }
  return "";
}

inline FuzzSummary run_fuzz_cases(std::uint64_t seed, int cases, int time_limit_s, bool classic_only) {
  FuzzGenerator g(seed, classic_only);
  std::vector<std::string> list;
  for (int i = 0; i < cases; ++i) list.push_back(g.next());
  return run_fuzz_list(list, time_limit_s);
}

}  // namespace dpl::testing
