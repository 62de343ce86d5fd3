// SPDX-License-Identifier: Apache-2.0
// A dominating pair (P, Q) of one mechanism step, described by the survival functions of its privacy loss
// L = log(dP/dQ) under P and under Q, for the privacy-loss-distribution accountant.
#pragma once

#include "accounting/mechanisms/mechanism_spec.h"

#include <functional>
#include <memory>
#include <vector>

namespace dpl {

struct LossPair {
  // P(L > l) and Q(L > l) for finite l (L = +inf counted in p_inf, not here). Non-increasing in l.
  std::function<double(double)> survival_p, survival_q;
  // Both at once where they share work (the subsampled Gaussian's inverse loss and one erfc): the same values as
  // survival_p and survival_q, bit for bit. Empty when there is nothing to share.
  std::function<void(double, double&, double&)> survival_both;
  double p_inf = 0;        // P(L = +inf)
  double support_lo = 0;   // L >= support_lo almost surely (finite part); may be -inf
  double support_hi = 0;   // L <= support_hi almost surely (finite part); may be +inf
  // When set, the pair the optimistic (lower-bound) discretisation uses instead of this one: a pair whose losses
  // were rounded up (or tails moved to +inf) has a variant with losses rounded down (tails dropped), so that the
  // lower bound stays a lower bound (accounting/pld/loss_pair_atoms.h).
  std::shared_ptr<const LossPair> optimistic;
  // P(L > l) and Q(L > l) into sp and sq: survival_both where it is set, else the two functions.
  void survivals(double l, double& sp, double& sq) const {
    if (survival_both) {
      survival_both(l, sp, sq);
    } else {
      sp = survival_p(l);
      sq = survival_q(l);
    }
  }
};

// Sets survival_p and survival_q from survival_both (each evaluates both: for pairs whose two survival functions share
// their work, such as the inverse of the loss).
void survivals_from_both(LossPair& p);

// The two neighbouring directions (add/remove). Symmetric mechanisms give the same pair in both.
enum class PairDirection { remove, add };

// The pair of one step of a ledger entry in the given direction. Throws NotApplicable for mechanisms the PLD
// accountant does not support (iteration; subsampling of non-Gaussian mechanisms; sampling without replacement).
// The ratios of the entry's parameters it needs (sens/sigma, b/sens) are rounded in the direction that enlarges the
// privacy loss (`pessimistic`, for upper bounds) or shrinks it (for lower bounds), never to nearest.
LossPair loss_pair(const LedgerEntry& e, PairDirection d, bool pessimistic = true);
// Whether the entry's pair is the same in both directions (then one composition suffices).
bool symmetric_pair(const LedgerEntry& e);

}  // namespace dpl
