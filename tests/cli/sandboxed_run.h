// SPDX-License-Identifier: Apache-2.0
// Runs the dpledger binary for the command-line fuzz tests, the way the robustness contract is stated: in a
// fresh working directory of its own (holding the fixture files), under a hard CPU-time cap and a wall-clock
// deadline, with its CPU time and peak memory measured by wait4 and the files it leaves in the directory listed.
// Several runs go at once (one per core).
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace dpl::testing {

struct SandboxedResult {
  std::vector<std::string> args;
  int exit_code = -1;     // -1: killed by a signal (see signal)
  int signal = 0;
  bool wall_timeout = false;
  double cpu_seconds = 0;  // user + system, all threads
  double max_rss_mb = 0;
  std::string out, err;
  std::set<std::string> new_files;      // names in the directory that were not there before
  std::set<std::string> changed_files;  // fixture files whose content changed
};

struct SandboxLimits {
  int cpu_cap_seconds = 20;   // RLIMIT_CPU (hard kill: a failure of the contract)
  int wall_seconds = 120;     // SIGKILL after this
  double address_space_gb = 4;  // RLIMIT_AS above the tool's own --memory-limit
};

// A shell-quoted rendering of the arguments, for failure reports.
inline std::string shell_quote(const std::vector<std::string>& args) {
  std::string s;
  for (const auto& a : args) {
    if (!s.empty()) s += ' ';
    const bool plain = !a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                                         "_-+=.,:/@%?") == std::string::npos;
    if (plain) {
      s += a;
    } else {
      s += '\'';
      for (char c : a) s += c == '\'' ? std::string("'\\''") : std::string(1, c);
      s += '\'';
    }
  }
  return s;
}

inline std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

inline std::set<std::string> directory_names(const std::string& dir) {
  std::set<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (const dirent* e = readdir(d)) {
      const std::string n = e->d_name;
      if (n != "." && n != "..") names.insert(n);
    }
    closedir(d);
  }
  return names;
}

// A fresh directory under /tmp holding a copy of every file of `fixtures` (name -> content).
class Sandbox {
 public:
  explicit Sandbox(const std::vector<std::pair<std::string, std::string>>& fixtures) : fixtures_(fixtures) {
    char tmpl[] = "/tmp/dpledger_fuzz_XXXXXX";
    dir_ = mkdtemp(tmpl);
    for (const auto& [name, content] : fixtures) {
      std::ofstream f(dir_ + "/" + name, std::ios::binary);
      f << content;
    }
    before_ = directory_names(dir_);
  }
  ~Sandbox() {
    for (const auto& n : directory_names(dir_)) std::remove((dir_ + "/" + n).c_str());
    rmdir(dir_.c_str());
  }
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;
  const std::string& dir() const { return dir_; }
  std::set<std::string> new_files() const {
    std::set<std::string> out;
    for (const auto& n : directory_names(dir_))
      if (!before_.count(n)) out.insert(n);
    return out;
  }
  std::set<std::string> changed_files() const {
    std::set<std::string> out;
    for (const auto& [name, content] : fixtures_)
      if (slurp(dir_ + "/" + name) != content) out.insert(name);
    return out;
  }

 private:
  std::vector<std::pair<std::string, std::string>> fixtures_;
  std::string dir_;
  std::set<std::string> before_;
};

struct RunningChild {
  pid_t pid;
  std::chrono::steady_clock::time_point start;
  std::string out_path, err_path;
  std::size_t index;
  Sandbox* sandbox;
};

// Runs every argument list (each in its own Sandbox over `fixtures`), `parallel` at a time; calls `done` with
// each result as it completes (in completion order).
inline void run_sandboxed(const std::vector<std::vector<std::string>>& cases,
                          const std::vector<std::pair<std::string, std::string>>& fixtures, const SandboxLimits& limits,
                          unsigned parallel, const std::function<void(std::size_t, SandboxedResult)>& done) {
  std::vector<RunningChild> running;
  std::vector<std::unique_ptr<Sandbox>> sandboxes(cases.size());
  std::size_t next = 0;
  static std::string bin = DPLEDGER_BIN;
  auto start_one = [&](std::size_t i) {
    sandboxes[i] = std::make_unique<Sandbox>(fixtures);
    char out_tmpl[] = "/tmp/dpledger_fuzz_out_XXXXXX", err_tmpl[] = "/tmp/dpledger_fuzz_err_XXXXXX";
    const int fo = mkstemp(out_tmpl), fe = mkstemp(err_tmpl);
    // Everything the child needs is built before fork (no allocation between fork and exec).
    std::vector<char*> argv;
    argv.push_back(bin.data());
    for (const auto& a : cases[i]) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const std::string dir = sandboxes[i]->dir();
    const rlimit cpu{static_cast<rlim_t>(limits.cpu_cap_seconds), static_cast<rlim_t>(limits.cpu_cap_seconds + 2)};
    const rlim_t as = static_cast<rlim_t>(limits.address_space_gb * 1e9);
    const rlimit mem{as, as};
    const pid_t pid = fork();
    if (pid == 0) {
      if (chdir(dir.c_str()) != 0) _exit(125);
      const int in = open("/dev/null", O_RDONLY);
      dup2(in, 0);
      dup2(fo, 1);
      dup2(fe, 2);
      setrlimit(RLIMIT_CPU, &cpu);
      setrlimit(RLIMIT_AS, &mem);
      execv(bin.c_str(), argv.data());
      _exit(126);
    }
    close(fo);
    close(fe);
    running.push_back({pid, std::chrono::steady_clock::now(), out_tmpl, err_tmpl, i, sandboxes[i].get()});
  };
  while (next < cases.size() || !running.empty()) {
    while (next < cases.size() && running.size() < parallel) start_one(next++);
    bool reaped = false;
    for (std::size_t k = 0; k < running.size(); ++k) {
      RunningChild& c = running[k];
      int status = 0;
      rusage ru{};
      const pid_t r = wait4(c.pid, &status, WNOHANG, &ru);
      const bool overdue = std::chrono::steady_clock::now() - c.start > std::chrono::seconds(limits.wall_seconds);
      if (r == 0 && !overdue) continue;
      SandboxedResult res;
      if (r == 0) {  // past the wall-clock deadline
        kill(c.pid, SIGKILL);
        wait4(c.pid, &status, 0, &ru);
        res.wall_timeout = true;
      }
      res.args = cases[c.index];
      if (WIFEXITED(status)) res.exit_code = WEXITSTATUS(status);
      if (WIFSIGNALED(status)) res.signal = WTERMSIG(status);
      res.cpu_seconds = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                        1e-6 * static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
      res.max_rss_mb = static_cast<double>(ru.ru_maxrss) / 1024.0;
      res.out = slurp(c.out_path);
      res.err = slurp(c.err_path);
      std::remove(c.out_path.c_str());
      std::remove(c.err_path.c_str());
      res.new_files = c.sandbox->new_files();
      res.changed_files = c.sandbox->changed_files();
      const std::size_t index = c.index;
      sandboxes[index].reset();
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
      done(index, std::move(res));
      reaped = true;
      break;
    }
    if (!reaped) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace dpl::testing
