// SPDX-License-Identifier: Apache-2.0
// The privacy-loss-distribution accountant: pessimistic (upper) and optimistic (lower) discretised PLDs of every
// ledger entry, composed by FFT in both neighbouring directions; the worse direction is reported.
#pragma once

#include "accounting/composition/accounting_result.h"
#include "accounting/pld/loss_pair.h"
#include "accounting/progress_callback.h"

#include <limits>
#include <optional>

namespace dpl {

class PldCompositionMemo;

struct PldOptions {
  double grid = 1e-4;  // loss grid spacing h
  double tail = 1e-12; // per entry: mass moved off the tails (to +inf, accounted in delta), split over its steps
  bool lower = true;   // also compute the optimistic PLD for a certified lower bound (on the helper thread, at once
                       // with the upper passes; dropped, not reported, when it does not fit in the work limit)
  // The target at which the lower bound is read (NaN: the target itself). A decimal target that is not a double
  // is bounded from above at the double below it and from below at the double above it (compose.h).
  double lower_target = std::numeric_limits<double>::quiet_NaN();
  // The ledger the lower bound is computed from (nullptr: the ledger itself): the optimistic ends of its typed
  // decimals (mechanism_spec.h, optimistic_ledger), so that the lower bound holds at the values typed.
  const Ledger* lower_ledger = nullptr;
  bool refine = true;  // refine the grid below `grid` when the composed range is small (O(h^2) error)
  double tilt = 0;     // exponential tilt of every step's PLD (set automatically for target deltas below 1e-9)
  ProgressCallback progress;  // called between the passes (probe, screening, fine grid, lower bound)
  // Two directions: `fine_first` (default: remove) goes to the fine grid while the other is screened on a 4x
  // coarser grid at the same time, and is recomputed on the fine grid only when its coarse bound exceeds the
  // first's value (cheaper when the hint is right; sound either way). `worse` (if set) receives the direction
  // whose bound was reported, e.g. for the next run of a calibration search.
  std::optional<PairDirection> fine_first;
  PairDirection* worse = nullptr;
  // Composed PLDs kept across calls (pld_composition_memo.h), e.g. for delta(eps) of one ledger at many eps: the
  // values are those of a call without it. nullptr: nothing kept.
  PldCompositionMemo* memo = nullptr;
};

AccountingResult compose_pld(const Ledger& ledger, const Target& target, const PldOptions& options = {});

// How the PLD's certified lower bound is obtained (appended to a result's note when it carries one).
inline constexpr const char* kPldLowerBoundNote = "lower bound from the optimistic PLD (cells merged onto the grid)";

// The fine grid compose_pld chooses for this ledger (with options.refine: from the composed loss range measured
// on a 64x coarser probe grid); compose_pld with {grid = this, refine = false} then skips the probe. Throws
// GridTooLarge (a NotApplicable) when the probe's grid is too large.
double pld_fine_grid(const Ledger& ledger, const Target& target, const PldOptions& options = {});

}  // namespace dpl
