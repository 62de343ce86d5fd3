// SPDX-License-Identifier: Apache-2.0
#include "algorithms/run/run_progress.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace dpl::algorithms {

namespace {

constexpr double kStep = 0.01;                            // report at most about once per percent of the run
constexpr std::chrono::milliseconds kInterval{250};        // ... or once per 250 ms when a percent takes longer

constexpr double kBeforeDone = 0.999;                     // the most reported before finish()

double clamp01(double x) { return std::isfinite(x) ? std::clamp(x, 0.0, 1.0) : 0.0; }

}  // namespace

RunProgress::RunProgress(ProgressCallback callback)
    : callback_(std::move(callback)), enabled_(static_cast<bool>(callback_)), last_time_(std::chrono::steady_clock::now()) {}

void RunProgress::phase(double start, double end, std::string what) {
  if (!enabled_) return;
  start_ = std::max(clamp01(start), start_);
  end_ = std::max(clamp01(end), start_);
  what_ = std::move(what);
  emit(start_, what_, true);
}

void RunProgress::report_step(std::int64_t done, std::int64_t total) {
  const double f = total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 1.0;
  const double whole = start_ + (end_ - start_) * clamp01(f);
  // The throttle first: the detail string is built only when a report is due.
  if (!due(whole)) return;
  emit(whole, what_ + " " + std::to_string(done) + "/" + std::to_string(total), true);
}

bool RunProgress::due(double whole) const {
  return whole >= last_fraction_ + kStep || std::chrono::steady_clock::now() - last_time_ >= kInterval;
}

void RunProgress::emit(double whole, const std::string& detail, bool force) {
  if (!force && !due(whole)) return;
  // 1 means done: only finish() reports it.
  last_fraction_ = std::max(std::min(whole, kBeforeDone), last_fraction_);
  last_time_ = std::chrono::steady_clock::now();
  callback_(last_fraction_, detail);
}

ProgressCallback RunProgress::phase_callback() {
  if (!enabled_) return {};
  return [this](double f, const std::string& detail) {
    // A negative or non-finite fraction means "unknown" (calibrate reports -1): the last fraction is kept.
    const double whole = std::isfinite(f) && f >= 0 ? start_ + (end_ - start_) * std::min(f, 1.0) : last_fraction_;
    emit(whole, detail.empty() || what_.empty() ? what_ + detail : what_ + ": " + detail, false);
  };
}

void RunProgress::finish() {
  if (!enabled_) return;
  start_ = end_ = 1;
  last_fraction_ = 1;
  callback_(1.0, "done");
}

}  // namespace dpl::algorithms
