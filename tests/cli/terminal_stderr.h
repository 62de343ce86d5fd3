// SPDX-License-Identifier: Apache-2.0
// Runs the dpledger binary with stderr on a pseudo-terminal (so `isatty(2)` holds, as in an interactive shell) and
// stdout in a file: for the tests of progress output, which is drawn only on a terminal.
#pragma once

#include "tests/cli/run_binary.h"

#include <cerrno>
#include <cstdlib>
#include <pty.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace dpl::testing {

// `args` as for run_dpledger; `out` receives what the binary wrote to stdout, `err` what it wrote to the terminal.
inline RunResult run_dpledger_on_terminal(const std::string& args) {
  char out_tmpl[] = "/tmp/dpledger_tty_out_XXXXXX";
  const int fo = mkstemp(out_tmpl);
  close(fo);
  int master = -1, slave = -1;
  winsize ws{};
  ws.ws_row = 24;
  ws.ws_col = 200;  // wide enough that no progress line is cut
  if (openpty(&master, &slave, nullptr, nullptr, &ws) != 0) return {-1, "", "openpty failed"};
  const std::string cmd = std::string(DPLEDGER_BIN) + " " + args + " >" + out_tmpl + " </dev/null";
  const pid_t pid = fork();
  if (pid == 0) {
    close(master);
    dup2(slave, STDERR_FILENO);
    close(slave);
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(slave);
  std::string err;
  char buf[4096];
  for (;;) {  // until the terminal's last writer is gone (read fails with EIO)
    const ssize_t n = read(master, buf, sizeof buf);
    if (n > 0) err.append(buf, static_cast<std::size_t>(n));
    else if (n < 0 && errno == EINTR) continue;
    else break;
  }
  close(master);
  int status = 0;
  waitpid(pid, &status, 0);
  RunResult r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_all(out_tmpl), err};
  std::remove(out_tmpl);
  return r;
}

}  // namespace dpl::testing
