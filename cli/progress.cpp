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
  if (now - start_ < delay_ || (drawn_ && now - last_ < std::chrono::milliseconds(100))) return;
  last_ = now;
  const double f = std::isfinite(fraction) ? std::clamp(fraction, 0.0, 1.0) : 0.0;
  constexpr int width = 30;
  const int filled = static_cast<int>(f * width);
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar += std::string(static_cast<std::size_t>(width - filled), '.');
  char head[160];
  std::snprintf(head, sizeof head, " [%s] %3.0f%%  %.0fs", bar.c_str(), 100 * f, elapsed);
  std::string line = label_ + head;
  if (f > 0.02) {
    std::snprintf(head, sizeof head, " (about %.0fs left)", elapsed * (1 - f) / f);
    line += head;
  }
  if (!detail.empty()) line += "  " + detail;
  // One terminal row at most: a wrapped line would not be redrawn in place.
  winsize ws{};
  const std::size_t columns = ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1 ? ws.ws_col : 80;
  if (line.size() >= columns) line.resize(columns - 1);
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

std::function<void(double, const std::string&)> Progress::callback() {
  return [this](double f, const std::string& d) { update(f, d); };
}

}  // namespace dpl::cli
