// SPDX-License-Identifier: Apache-2.0
// One call of a user's shell command: `/bin/sh -c COMMAND` with extra environment variables, stdin from /dev/null,
// its stdout handed over line by line as it arrives, the tail of its stderr kept for messages, and a deadline after
// which the command (its whole process group) is killed. A memory cap the caller set on itself (a soft address-space
// limit below the hard one) is lifted for the command. Nothing is printed; the caller judges the outcome.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dpl::audit {

struct ShellCall {
  std::string command;                                       // run by /bin/sh -c
  std::vector<std::pair<std::string, std::string>> env;      // set (replacing inherited values of the same name)
  std::optional<std::chrono::steady_clock::time_point> deadline;
  std::size_t max_line_bytes = std::size_t{1} << 20;         // a longer line stops the call (line_too_long)
};

struct ShellCallResult {
  bool exited = false;      // ended by exit(): exit_status holds the status
  int exit_status = -1;
  int signal = 0;           // ended by this signal (when !exited and !timed_out)
  bool timed_out = false;   // the deadline passed: the process group was killed
  bool line_too_long = false;
  std::uint64_t lines = 0;  // stdout lines handed to the callback
  std::string stderr_tail;  // the last (at most 4 kB) bytes of its stderr
};

// Runs the call; `on_line` gets each stdout line (without its end of line, a final unterminated line included).
// If `on_line` throws, the process group is killed and reaped and the exception propagates. Throws
// std::system_error if the process cannot be started.
ShellCallResult run_shell_call(const ShellCall& call, const std::function<void(const std::string&)>& on_line);

// `text` as one shell word: in single quotes, each ' written as '\''.
std::string shell_quoted(const std::string& text);

// The last non-blank line of a process's stderr, at most 200 characters ("" if none).
std::string last_stderr_line(const std::string& tail);

}  // namespace dpl::audit
