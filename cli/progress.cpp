// SPDX-License-Identifier: Apache-2.0
#include "cli/progress.h"

#include "cli/output.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sys/ioctl.h>
#include <unistd.h>

namespace dpl::cli {

Progress::Progress(std::string label, std::chrono::milliseconds delay)
    : label_(std::move(label)),
      enabled_(isatty(STDERR_FILENO) == 1 && !global_options().quiet),
      start_(std::chrono::steady_clock::now()),
      last_(start_),
      delay_(delay) {}

Progress::~Progress() {
  if (drawn_) std::fprintf(stderr, "\r\033[K");
}

void Progress::update(double fraction, const std::string& detail) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  // A new phase (the detail's text before its first ':') is drawn at once; within a phase at most every 100 ms.
  const std::string phase = detail.substr(0, detail.find(':'));
  if (now - start_ < delay_ || (drawn_ && phase == phase_ && now - last_ < std::chrono::milliseconds(100))) return;
  last_ = now;
  phase_ = phase;
  const double f = std::isfinite(fraction) ? std::clamp(fraction, 0.0, 1.0) : 0.0;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  char buf[64];
  std::snprintf(buf, sizeof buf, " %3.0f%%  %.0fs", 100 * f, elapsed);
  const std::string numbers = buf;
  std::string left;  // the estimate of the time left
  if (f > 0.02) {
    std::snprintf(buf, sizeof buf, " (about %.0fs left)", elapsed * (1 - f) / f);
    left = buf;
  }
  const std::string tail = detail.empty() ? "" : "  " + detail;
  // One terminal row at most (a wrapped line would not be redrawn in place): on a narrow terminal the bar shrinks
  // from 30 to 10 cells, then the estimate goes, then the detail is cut.
  winsize ws{};
  const std::size_t columns = ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1 ? ws.ws_col : 80;
  auto room_for_bar = [&](std::size_t others) {
    const std::size_t used = label_.size() + 3 + numbers.size() + others + 1;  // " [" "]" and the last column
    return used < columns ? columns - used : 0;
  };
  if (room_for_bar(left.size() + tail.size()) < 10) left.clear();
  const auto width = static_cast<int>(std::clamp<std::size_t>(room_for_bar(left.size() + tail.size()), 10, 30));
  const int filled = static_cast<int>(f * width);
  std::string line = label_ + " [" + std::string(static_cast<std::size_t>(filled), '#') +
                     std::string(static_cast<std::size_t>(width - filled), '.') + "]" + numbers + left + tail;
  if (line.size() >= columns) line.resize(columns - 1);
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

std::function<void(double, const std::string&)> Progress::callback() {
  return [this](double f, const std::string& d) { update(f, d); };
}

}  // namespace dpl::cli
