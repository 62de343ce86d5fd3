// SPDX-License-Identifier: Apache-2.0
#include "audit/threshold_counts.h"

#include "accounting/errors.h"

#include <algorithm>

namespace dpl::audit {

ThresholdCounts::ThresholdCounts(std::vector<double> t) : thresholds(std::move(t)) {
  for (auto& half : counts)
    for (auto& side : half) side.assign(thresholds.size() + 1, 0);
}

std::uint64_t ThresholdCounts::total(Half h, Side s) const {
  std::uint64_t n = 0;
  for (auto c : counts[h][s]) n += c;
  return n;
}

void ThresholdCounts::add(const ThresholdCounts& other) {
  if (other.thresholds != thresholds) throw InputError("audit counts: the candidate thresholds differ, cannot add");
  for (int h = 0; h < 2; ++h)
    for (int s = 0; s < 2; ++s)
      for (std::size_t j = 0; j < bins(); ++j) counts[h][s][j] += other.counts[h][s][j];
}

std::size_t bin_of(const std::vector<double>& thresholds, double x) {
  return static_cast<std::size_t>(std::lower_bound(thresholds.begin(), thresholds.end(), x) - thresholds.begin());
}

}  // namespace dpl::audit
