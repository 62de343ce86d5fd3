// SPDX-License-Identifier: Apache-2.0
// A guest LD_PRELOAD for tests/cli/emulated_cpu_digits.py: under QEMU's user-mode emulation a program runs tens of
// times slower, so its process and thread CPU clocks are divided by kSlowdown, and --time-limit and the work
// forecasts that read them behave as on a native machine. Every other clock passes through unchanged.
#include <sys/syscall.h>
#include <unistd.h>

#include <ctime>

namespace {
constexpr long long kSlowdown = 100;
}

extern "C" int clock_gettime(clockid_t id, timespec* ts) {
  const long r = syscall(SYS_clock_gettime, id, ts);
  if (r == 0 && (id == CLOCK_PROCESS_CPUTIME_ID || id == CLOCK_THREAD_CPUTIME_ID)) {
    const long long ns = (static_cast<long long>(ts->tv_sec) * 1000000000LL + ts->tv_nsec) / kSlowdown;
    ts->tv_sec = static_cast<time_t>(ns / 1000000000LL);
    ts->tv_nsec = static_cast<long>(ns % 1000000000LL);
  }
  return static_cast<int>(r);
}
