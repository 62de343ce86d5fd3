// SPDX-License-Identifier: Apache-2.0
// The sufficient statistics of a threshold audit: for each half of the runs (selection, estimation) and each
// side of the neighbouring pair (D, D'), how many outputs fell in each bin between consecutive candidate
// thresholds. Counts add exactly, so shards and threads merge without rounding.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace dpl::audit {

enum Half { kSelection = 0, kEstimation = 1 };
enum Side { kD = 0, kDPrime = 1 };

struct ThresholdCounts {
  // Sorted candidate thresholds t_0 < ... < t_{K-1}. Bin j (0 <= j <= K) holds the outputs x with
  // t_{j-1} < x <= t_j (t_{-1} = -inf, t_K = +inf).
  std::vector<double> thresholds;
  // counts[half][side][bin], K + 1 bins each.
  std::array<std::array<std::vector<std::uint64_t>, 2>, 2> counts;

  explicit ThresholdCounts(std::vector<double> t = {});
  std::size_t bins() const { return thresholds.size() + 1; }
  // Total outputs recorded in one half for one side.
  std::uint64_t total(Half h, Side s) const;
  // Adds another set of counts over the same thresholds; throws InputError if the thresholds differ.
  void add(const ThresholdCounts& other);
  bool operator==(const ThresholdCounts& o) const = default;
};

// The bin of x: the number of thresholds strictly below x (binary search).
std::size_t bin_of(const std::vector<double>& thresholds, double x);

}  // namespace dpl::audit
