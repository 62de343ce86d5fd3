// SPDX-License-Identifier: Apache-2.0
// The audit's hook into a run (dpledger audit ALGORITHM): set on RunParameters by the audit only. A run that has
// one draws `noise_factor` times the noise its claim is computed for (the negative control actual_noise_factor),
// shares the audit's set-up (the problem every run of one audit uses) and, when lean, skips its trace and
// accounting; what the run releases and how it is scored is the end-to-end audit's (end_to_end_audit.h).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>

namespace dpl::algorithms {

// Shared by every run of one audit: the problem (data, split, graph, optimum) is set up once, from the audit's
// seed, and held fixed: the runs differ only in the algorithm's own randomness (the mechanism audited).
struct AuditSetupCache {
  std::uint64_t seed = 1;
  std::mutex mutex;
  std::shared_ptr<const void> problem;  // the setup function's result type (one per algorithm family)
};

class AuditProbe {
 public:
  explicit AuditProbe(double noise_factor = 1, AuditSetupCache* cache = nullptr)
      : noise_factor_(noise_factor), cache_(cache) {}
  double noise_factor() const { return noise_factor_; }
  AuditSetupCache* setup_cache() const { return cache_; }
  // A lean run (the default) skips its trace and accounting; the audit's claim run is not lean (it accounts at the
  // claimed noise, with the audit's shared setup).
  bool lean() const { return lean_; }
  void set_lean(bool on) { lean_ = on; }
  // The cached setup of type T, or the one make(seed) builds (once per audit, under the lock).
  template <class T, class Make>
  T setup(const Make& make) {
    if (!cache_) return make(std::uint64_t{1});
    std::lock_guard<std::mutex> lock(cache_->mutex);
    if (!cache_->problem) cache_->problem = std::make_shared<const T>(make(cache_->seed));
    return *std::static_pointer_cast<const T>(cache_->problem);
  }

 private:
  double noise_factor_ = 1;
  AuditSetupCache* cache_ = nullptr;
  bool lean_ = true;
};

}  // namespace dpl::algorithms
