// SPDX-License-Identifier: Apache-2.0
#include "cli/resource_limits.h"

#include "accounting/errors.h"
#include "cli/output_file.h"

#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <system_error>
#include <cmath>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <thread>

namespace dpl::cli {

namespace {

// 0: no watchdog, 1: watching, 2: the limit was reached (the process is ending).
std::atomic<int> g_state{0};
// The work being done, for the watchdog's message (written before the work, read only by the watchdog).
char g_work[512] = "";
char g_fallback_message[1024] = "";

extern "C" void time_limit_signal(int) {
  remove_output_temporaries();
  (void)!write(STDERR_FILENO, g_fallback_message, std::strlen(g_fallback_message));
  _exit(2);
}

double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

std::string limit_text(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

// An estimate to two significant digits (1.2e+03).
std::string estimate_text(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2g", v);
  return b;
}

}  // namespace

double default_time_limit(const std::string& command) {
  if (command == "run") return 60;
  if (command == "check") return 120;
  if (command == "audit") return 180;
  if (command == "sweep") return 600;
  return 9;
}

void describe_work(const std::string& what) {
  const std::size_t n = std::min(what.size(), sizeof g_work - 1);
  std::memcpy(g_work, what.data(), n);
  g_work[n] = '\0';
}

WorkForecast::WorkForecast(std::string what, std::string lower)
    : what_(std::move(what)), lower_(std::move(lower)), start_(process_cpu_seconds()), thread_(std::this_thread::get_id()) {
  describe_work(what_);
}

void WorkForecast::done(double fraction) {
  const double limit = resource_limits().cpu_seconds;
  if (limit <= 0 || !(fraction > 0) || std::this_thread::get_id() != thread_) return;
  const double now = process_cpu_seconds(), spent = now - start_;
  if (spent < 0.5) return;  // too little to extrapolate from
  const double projected = start_ + spent / std::min(fraction, 1.0);
  if (projected > 3 * limit)
    throw InputError(what_ + ": about " + estimate_text(projected) + " s of CPU time (projected from the first " +
                     estimate_text(100 * std::min(fraction, 1.0)) + "% in " + estimate_text(spent) +
                     " s), above the limit --time-limit " + limit_text(limit) + "; " + lower_ +
                     ", or give a larger --time-limit SECONDS");
}

ResourceLimits& resource_limits() {
  static ResourceLimits limits;
  return limits;
}

void require_time_within_limit(double estimated_seconds, const std::string& what, const std::string& lower) {
  const double limit = resource_limits().cpu_seconds;
  if (limit > 0 && !(estimated_seconds <= limit))
    throw InputError(what + ": about " + estimate_text(estimated_seconds) + " s of CPU time (estimate), above the limit " +
                     "--time-limit " + limit_text(limit) + "; " + lower + ", or give a larger --time-limit SECONDS");
}

void require_memory_within_limit(double estimated_mb, const std::string& what, const std::string& lower) {
  const double limit = resource_limits().memory_mb;
  if (limit > 0 && !(estimated_mb <= limit))
    throw InputError(what + ": about " + estimate_text(estimated_mb) + " MB of memory (estimate), above the limit " +
                     "--memory-limit " + limit_text(limit) + "; " + lower + ", or give a larger --memory-limit MB");
}

void enforce_resource_limits(const ResourceLimits& limits, const std::string& command) {
  static bool started = false;
  if (started) return;
  started = true;
  if (limits.memory_mb > 0) {
    const double bytes = limits.memory_mb * 1e6;
    rlimit rl{};
    if (getrlimit(RLIMIT_AS, &rl) == 0) {
      const rlim_t want = static_cast<rlim_t>(bytes);
      // Never above a cap set from outside (ulimit -v, prlimit): lowering is always allowed.
      rl.rlim_cur = rl.rlim_max == RLIM_INFINITY ? want : std::min<rlim_t>(want, rl.rlim_max);
      (void)setrlimit(RLIMIT_AS, &rl);
    }
  }
  if (limits.cpu_seconds > 0) {
    g_state = 1;
    // The message is built now: the watchdog only writes it (no allocation while the main thread may hold the
    // allocator's lock).
    const std::string head = "error: " + command + ": ";
    const std::string message = "stopped after " + limit_text(limits.cpu_seconds) + " s of CPU time (--time-limit " +
                                limit_text(limits.cpu_seconds) +
                                "); give a larger --time-limit SECONDS (0: no limit), or ask for less work\n";
    const double limit = limits.cpu_seconds;
    // The same message for the fallback below (a signal handler writes it).
    const std::string whole = head + message;
    std::memcpy(g_fallback_message, whole.data(), std::min(whole.size(), sizeof g_fallback_message - 1));
    try {
    std::thread([head, message, limit] {
      while (g_state.load() == 1) {
        int watching = 1;
        if (process_cpu_seconds() > limit && g_state.compare_exchange_strong(watching, 2)) {
          remove_output_temporaries();
          if (isatty(STDERR_FILENO) == 1) (void)!write(STDERR_FILENO, "\r\033[K", 4);  // a progress bar's line
          (void)!write(STDERR_FILENO, head.data(), head.size());
          if (const std::size_t n = std::strlen(g_work); n > 0) {
            (void)!write(STDERR_FILENO, g_work, n);
            (void)!write(STDERR_FILENO, ": ", 2);
          }
          (void)!write(STDERR_FILENO, message.data(), message.size());
          _exit(2);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }).detach();
    } catch (const std::system_error&) {
      // No thread (a very low --memory-limit leaves no room for its stack): the kernel's CPU-time limit, to the
      // next whole second, ends the command with the same message instead.
      g_state = 0;
      std::signal(SIGXCPU, time_limit_signal);
      const rlim_t seconds = static_cast<rlim_t>(std::ceil(limit));
      rlimit rl{seconds, seconds + 1};
      (void)setrlimit(RLIMIT_CPU, &rl);
    }
  }
}

void stop_time_limit() {
  int watching = 1;
  if (g_state.compare_exchange_strong(watching, 0) || watching == 0) return;
  for (;;) pause();  // the watchdog fired first and ends the process: print nothing more
}

std::string memory_limit_message(const std::string& command) {
  return command + ": out of memory: the work needs more than the memory limit (--memory-limit MB, default " +
         limit_text(kDefaultMemoryLimitMb) + "; 0: no limit); ask for less work";
}

}  // namespace dpl::cli
