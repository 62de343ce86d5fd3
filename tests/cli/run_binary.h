// SPDX-License-Identifier: Apache-2.0
// Runs the dpledger binary for CLI tests: captures stdout, stderr and the exit code.
#pragma once

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace dpl::testing {

struct RunResult {
  int exit_code;
  std::string out;
  std::string err;
};

inline std::string read_all(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// `args` is a shell-quoted argument string appended to the binary path. With time_limit_s > 0 the binary runs
// under coreutils `timeout -s KILL` (exit 137 when killed); with cpu_limit_s > 0 also under `ulimit -t` (killed by
// SIGXCPU: exit 152, or -1 when the signal reaches the shell).
inline RunResult run_dpledger_with_limit(const std::string& args, int time_limit_s, int cpu_limit_s = 0) {
  char out_tmpl[] = "/tmp/dpledger_out_XXXXXX";
  char err_tmpl[] = "/tmp/dpledger_err_XXXXXX";
  const int fo = mkstemp(out_tmpl);
  const int fe = mkstemp(err_tmpl);
  close(fo);
  close(fe);
  const std::string limit = time_limit_s > 0 ? "timeout -s KILL " + std::to_string(time_limit_s) + " " : "";
  const std::string cpu = cpu_limit_s > 0 ? "ulimit -t " + std::to_string(cpu_limit_s) + "; " : "";
  const std::string cmd = cpu + limit + std::string(DPLEDGER_BIN) + " " + args + " >" + out_tmpl + " 2>" + err_tmpl + " </dev/null";
  const int status = std::system(cmd.c_str());
  RunResult r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_all(out_tmpl), read_all(err_tmpl)};
  std::remove(out_tmpl);
  std::remove(err_tmpl);
  return r;
}

inline RunResult run_dpledger(const std::string& args) { return run_dpledger_with_limit(args, 0); }

// A file dpledger wrote without its provenance first line ("# dpledger VERSION: COMMAND" in CSV and text, or the
// JSON line {"version":...,"arguments":[...]} in JSON lines; docs/provenance.md), for tests of the content itself.
inline std::string without_provenance(const std::string& text) {
  const bool comment = text.rfind("# dpledger ", 0) == 0;
  const bool json_line = text.rfind("{\"version\":", 0) == 0 && text.find("\"arguments\":") < text.find('\n');
  if (!comment && !json_line) return text;
  const auto nl = text.find('\n');
  return nl == std::string::npos ? std::string() : text.substr(nl + 1);
}

inline int count_lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

}  // namespace dpl::testing
