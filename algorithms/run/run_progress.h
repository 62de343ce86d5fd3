// SPDX-License-Identifier: Apache-2.0
// Progress of one `dpledger run`: a run names the phases of its work (the iterations, then the privacy
// accounting) and how far each has got; RunProgress turns that into calls of a ProgressCallback with the fraction
// of the whole run done (never decreasing; exactly 1 at the end, from finish() only) and a short detail
// ("iteration 1200/5000"). Calls are throttled to about one per percent of the run or per 250 ms; with an empty
// callback every method returns at once (one test of a bool), so a run without progress pays nothing. Libraries
// never print: the CLI draws the bar.
#pragma once

#include "accounting/progress_callback.h"

#include <chrono>
#include <cstdint>
#include <string>

namespace dpl::algorithms {

class RunProgress {
 public:
  explicit RunProgress(ProgressCallback callback);
  RunProgress(const RunProgress&) = delete;
  RunProgress& operator=(const RunProgress&) = delete;

  bool enabled() const { return enabled_; }
  // Starts the next phase, covering the fractions [start, end] of the run (start >= the previous phase's start;
  // clamped to [0, 1]); `what` names its unit for step() ("iteration") or its work ("ledger"), or is empty when a
  // library reports the phase through phase_callback() with its own detail ("iteration 12/100"). Reported at once.
  void phase(double start, double end, std::string what);
  // `done` of `total` units of the current phase are done ("what done/total").
  void step(std::int64_t done, std::int64_t total) {
    if (enabled_) report_step(done, total);
  }
  // For library calls that report their own progress (fraction of the current phase in [0, 1], detail), e.g.
  // dpl::compose: mapped into the phase, the detail shown after "what: ". Empty when progress is off (the library
  // then pays nothing either).
  ProgressCallback phase_callback();
  // The run is done: reports fraction 1.
  void finish();

 private:
  void report_step(std::int64_t done, std::int64_t total);
  bool due(double whole) const;  // a percent more than the last report, or 250 ms since it
  void emit(double whole, const std::string& detail, bool force);

  ProgressCallback callback_;
  bool enabled_;
  double start_ = 0, end_ = 0;
  std::string what_;
  double last_fraction_ = -1;  // last fraction reported (-1: none yet)
  std::chrono::steady_clock::time_point last_time_;
};

}  // namespace dpl::algorithms
