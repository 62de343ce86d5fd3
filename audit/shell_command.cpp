// SPDX-License-Identifier: Apache-2.0
#include "audit/shell_command.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>
#include <thread>

extern char** environ;

namespace dpl::audit {

namespace {

constexpr std::size_t kStderrTail = 4096;

[[noreturn]] void throw_errno(int err, const std::string& what) { throw std::system_error(err, std::generic_category(), what); }

struct ShellPipe {
  int fd[2] = {-1, -1};
  ShellPipe() {
    if (pipe2(fd, O_CLOEXEC) != 0) throw_errno(errno, "cannot create a pipe for the command");
  }
  ~ShellPipe() { close_both(); }
  ShellPipe(const ShellPipe&) = delete;
  ShellPipe& operator=(const ShellPipe&) = delete;
  void close_end(int i) {
    if (fd[i] >= 0) ::close(fd[i]);
    fd[i] = -1;
  }
  void close_both() { close_end(0), close_end(1); }
};

// The started child: killed (its whole process group) and reaped unless it was reaped already.
struct ShellChild {
  pid_t pid = -1;
  bool reaped = false;
  int status = 0;
  ~ShellChild() {
    if (pid > 0 && !reaped) {
      ::kill(-pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
    }
  }
  void kill_group() {
    if (pid > 0 && !reaped) ::kill(-pid, SIGKILL);
  }
  // Reaps without waiting; true when the child has ended.
  bool try_reap() {
    if (reaped) return true;
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) reaped = true;
    return reaped;
  }
  void reap() {
    while (!reaped) {
      if (::waitpid(pid, &status, 0) == pid) reaped = true;
      else if (errno != EINTR) break;
    }
  }
};

// The environment of the child: the inherited one without the names set by the call, then those.
std::vector<std::string> shell_environment(const ShellCall& call) {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    const std::string entry(*e);
    const bool replaced = std::any_of(call.env.begin(), call.env.end(), [&](const auto& kv) {
      return entry.size() > kv.first.size() && entry.compare(0, kv.first.size(), kv.first) == 0 && entry[kv.first.size()] == '=';
    });
    if (!replaced) env.push_back(entry);
  }
  for (const auto& [name, value] : call.env) env.push_back(name + "=" + value);
  return env;
}

int poll_timeout_ms(const ShellCall& call) {
  if (!call.deadline) return -1;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*call.deadline - std::chrono::steady_clock::now());
  return static_cast<int>(std::clamp<long long>(left.count() + 1, 0, 1'000'000));
}

bool past_deadline(const ShellCall& call) { return call.deadline && std::chrono::steady_clock::now() >= *call.deadline; }

}  // namespace

ShellCallResult run_shell_call(const ShellCall& call, const std::function<void(const std::string&)>& on_line) {
  ShellPipe out, err;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out.fd[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err.fd[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Its own process group (so that a deadline kills what it started too), default signal handling, no mask.
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);

  const std::vector<std::string> env_text = shell_environment(call);
  std::vector<char*> envp;
  for (const auto& e : env_text) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  std::string sh = "/bin/sh", dash_c = "-c", command = call.command;
  char* argv[] = {sh.data(), dash_c.data(), command.data(), nullptr};

  ShellChild child;
  // A memory cap the caller set on itself (a lowered soft RLIMIT_AS) is not the program's: the child starts with
  // the soft limit raised back to the hard one, which the caller's process keeps for itself.
  rlimit saved{};
  bool lifted = false;
  if (getrlimit(RLIMIT_AS, &saved) == 0 && saved.rlim_cur != saved.rlim_max) {
    rlimit raised = saved;
    raised.rlim_cur = saved.rlim_max;
    lifted = setrlimit(RLIMIT_AS, &raised) == 0;
  }
  const int spawned = posix_spawn(&child.pid, "/bin/sh", &actions, &attr, argv, envp.data());
  if (lifted) (void)setrlimit(RLIMIT_AS, &saved);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (spawned != 0) {
    child.pid = -1;
    throw_errno(spawned, "cannot start /bin/sh");
  }
  out.close_end(1);
  err.close_end(1);

  ShellCallResult r;
  std::string pending;  // stdout read but not yet a whole line
  char buf[65536];
  bool out_open = true, err_open = true;
  while (out_open || err_open) {
    if (past_deadline(call)) {
      r.timed_out = true;
      break;
    }
    pollfd fds[2];
    nfds_t n = 0;
    if (out_open) fds[n++] = {out.fd[0], POLLIN, 0};
    if (err_open) fds[n++] = {err.fd[0], POLLIN, 0};
    const int ready = ::poll(fds, n, poll_timeout_ms(call));
    if (ready < 0) {
      if (errno == EINTR) continue;
      throw_errno(errno, "poll on the command's output");
    }
    for (nfds_t i = 0; i < n; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const bool is_out = fds[i].fd == out.fd[0];
      const ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        (is_out ? out_open : err_open) = false;
        continue;
      }
      if (!is_out) {
        r.stderr_tail.append(buf, static_cast<std::size_t>(got));
        if (r.stderr_tail.size() > kStderrTail) r.stderr_tail.erase(0, r.stderr_tail.size() - kStderrTail);
        continue;
      }
      pending.append(buf, static_cast<std::size_t>(got));
      std::size_t start = 0, nl;
      while ((nl = pending.find('\n', start)) != std::string::npos) {
        std::string line = pending.substr(start, nl - start);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        start = nl + 1;
        ++r.lines;
        on_line(line);
      }
      pending.erase(0, start);
      if (pending.size() > call.max_line_bytes) {
        r.line_too_long = true;
        out_open = err_open = false;
      }
    }
  }
  if (r.timed_out || r.line_too_long) {
    child.kill_group();
    child.reap();
    return r;
  }
  if (!pending.empty()) {
    if (pending.back() == '\r') pending.pop_back();
    ++r.lines;
    on_line(pending);
  }
  // Both pipes are closed; the command may still be running (it closed them, or handed them on): wait for it
  // until the deadline.
  for (int pause_us = 100; !child.try_reap();) {
    if (past_deadline(call)) {
      r.timed_out = true;
      child.kill_group();
      child.reap();
      return r;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(pause_us));
    pause_us = std::min(pause_us * 2, 20'000);
  }
  if (WIFEXITED(child.status)) {
    r.exited = true;
    r.exit_status = WEXITSTATUS(child.status);
  } else if (WIFSIGNALED(child.status)) {
    r.signal = WTERMSIG(child.status);
  }
  return r;
}

std::string shell_quoted(const std::string& text) {
  std::string q = "'";
  for (char c : text) {
    if (c == '\'') q += "'\\''";
    else q += c;
  }
  return q + "'";
}

std::string last_stderr_line(const std::string& tail) {
  std::size_t end = tail.size();
  while (end > 0) {
    const std::size_t begin = tail.rfind('\n', end - 1);
    const std::size_t from = begin == std::string::npos ? 0 : begin + 1;
    std::string line = tail.substr(from, end - from);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    if (line.find_first_not_of(" \t") != std::string::npos) {
      line = line.substr(line.find_first_not_of(" \t"));
      for (char& c : line)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';  // one printable line for a message
      if (line.size() > 200) line = line.substr(0, 197) + "...";
      return line;
    }
    if (begin == std::string::npos) break;
    end = begin;
  }
  return "";
}

}  // namespace dpl::audit
