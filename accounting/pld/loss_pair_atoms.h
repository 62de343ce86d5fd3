// SPDX-License-Identifier: Apache-2.0
// Dominating pairs of mechanisms with discrete privacy losses (discrete Laplace and Gaussian, k-ary randomized
// response, shuffling): a list of atoms (loss, P-mass) turned into the survival functions of a LossPair.
//
// Each atom's loss is known to an absolute error e. The pessimistic pair puts the atom at its loss rounded up to a
// dyadic grid g (at or above L + e), the optimistic variant at its loss rounded down (at or below L - e): moving
// P-mass to a larger loss, with Q = e^{-L} P at the new loss (the missing Q-mass sits at loss -inf), can only raise
// every hockey-stick divergence E_P[(1 - e^{eps - L})_+] of any composition, and moving it down only lower them.
// So the grid rounding and the loss errors never need the survival-function margin; the masses do: each atom's
// P-mass must be known to a relative error below 3e-16 (the callers' derivations); the masses of a cell are added
// by compensated (Neumaier) summation, relative error below 2u + n u^2 (Higham 2002, Sec. 4.3), the suffix sums in
// double words, each rounded once: below 7e-16 in all, inside the 1e-15 of docs/pld_accountant.md, 1.
// Mass left out of the list (truncated tails, at most `dropped`) is at loss +inf in the pessimistic pair and
// absent from the optimistic one.
#pragma once

#include "accounting/pld/loss_pair.h"

#include <cstdint>
#include <vector>

namespace dpl {

class LossAtoms {
 public:
  // Losses of the atoms to come lie in [lo, hi] (errors included); about `count` atoms will be added. Up to 2^16
  // atoms are kept one by one on a grid of 2^-40; more are summed into about 2^18 cells of a coarser dyadic grid.
  LossAtoms(double lo, double hi, double count);
  // An atom at loss `loss` (|error| <= err) with P-mass `mass` (>= 0).
  void add(double loss, double err, double mass);
  // The pair; `dropped` bounds the P-mass of the atoms left out.
  LossPair finish(double dropped) const;
  double grid() const { return g_; }

 private:
  struct Atom {
    std::int64_t up, down;  // loss + err rounded up, loss - err rounded down, in units of g
    double mass;
  };
  double lo_, g_, inv_g_;
  std::int64_t base_ = 0;
  // A cell's compensated P-mass sums of the atoms rounded up into it and of those rounded down into it (side by
  // side: an atom's two cells are neighbours, one cache line).
  struct Cell {
    double up_sum = 0, up_comp = 0, down_sum = 0, down_comp = 0;
  };
  bool use_cells_;            // summed into cells (many atoms) rather than kept
  std::vector<Atom> atoms_;   // kept atoms
  std::vector<Cell> cells_;
};

}  // namespace dpl
