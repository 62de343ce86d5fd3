// SPDX-License-Identifier: Apache-2.0
// Ledgers of thousands of distinct Gaussian entries for the PLD accountant: entries whose noise multiplier and
// sampling rate differ by less than a relative resolution are composed as one entry at the group's least private
// parameters (upper bound) or most private ones (lower bound). Each is a dominating (resp. dominated) pair of every
// member, so the composition of the groups bounds the ledger's from above (resp. below).
#pragma once

#include "accounting/mechanisms/mechanism_spec.h"

#include <cstddef>
#include <vector>

namespace dpl {

// Above this many distinct entries the PLD groups them (its cost grows with the distinct entries, not the steps).
inline constexpr std::size_t kMaxPldDistinctEntries = 256;

struct GroupedLedger {
  Ledger upper, lower;       // the groups at their least / most private parameters, steps summed
  double resolution = 0;     // the relative width of a group in noise multiplier and sampling rate (0: not grouped)
  std::size_t distinct = 0;  // distinct entries before grouping
  std::vector<std::size_t> group_of;  // for each entry of the ledger, its index in upper and lower
};

// Groups Gaussian entries (unsampled or Poisson-subsampled; the same sampling scheme) into at most
// kMaxPldDistinctEntries groups by binning log2(sigma/sens) and log2(q) at a width 2^-10, doubled until the groups
// fit but at most to 2^-6 (1.1% relative; then there may be more groups); other entries are kept as they are. A
// ledger with at most kMaxPldDistinctEntries entries, or where no two entries share a bin, is returned as it is.
// Upper representative: the member with the smallest sigma/sens (compared exactly), with the largest q of the group:
// a smaller noise multiplier dominates (adding noise is a post-processing), and so does a larger sampling rate (a
// Poisson-subsampled step at q is the mixture (1 - q/q') N(0) + (q/q') (the step at q'), so its hockey-stick
// divergences are at most those at q' by joint convexity, in both neighbouring directions). Lower: the reverse.
GroupedLedger group_pld_entries(const Ledger& ledger);

}  // namespace dpl
