// SPDX-License-Identifier: Apache-2.0
// Progress on stderr for long work: a one-line bar redrawn in place, shown only when stderr is a terminal and
// --quiet is not given (so scripts, pipes and CI logs never see it). Libraries report progress through a plain
// callback (fraction done, what is being done); the CLI turns it into this bar.
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace dpl::cli {

class Progress {
 public:
  // `label` names the work ("calibrate", "audit"...). Nothing is drawn before `delay` has passed, so work
  // that finishes quickly prints nothing at all.
  explicit Progress(std::string label, std::chrono::milliseconds delay = std::chrono::milliseconds(700));
  ~Progress();  // clears the line if anything was drawn
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // fraction in [0, 1] (clamped); `detail` is shown after the bar (e.g. "step 3 of 40").
  void update(double fraction, const std::string& detail = "");
  // A callback for the libraries.
  std::function<void(double, const std::string&)> callback();
  bool enabled() const { return enabled_; }

 private:
  std::string label_;
  bool enabled_;
  bool drawn_ = false;
  std::string phase_;  // the phase last drawn
  std::chrono::steady_clock::time_point start_, last_;
  std::chrono::milliseconds delay_;
};

}  // namespace dpl::cli
