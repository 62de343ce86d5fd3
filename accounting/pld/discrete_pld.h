// SPDX-License-Identifier: Apache-2.0
// A privacy loss distribution on the grid l_i = i h (plus an atom at +inf), with a certified bound on its
// deviation from the exact composition of the discretised steps; discretisation, composition, and delta(eps).
#pragma once

#include "accounting/errors.h"
#include "accounting/pld/loss_pair.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dpl {

// No grid (single step or composed) may hold more points than this: checked before allocating.
inline constexpr std::size_t kMaxGridPoints = std::size_t{1} << 20;

// A grid that would exceed kMaxGridPoints; `points` says how many it would need on the spacing `grid` (the caller
// may coarsen).
class GridTooLarge : public NotApplicable {
 public:
  GridTooLarge(const std::string& what, double needed, double spacing)
      : NotApplicable(what), points(needed), grid(spacing) {}
  double points;
  double grid;
};
// Throws GridTooLarge when `points` exceeds kMaxGridPoints (or is not finite).
void check_grid_points(double points, double h);

// The largest grid spacing <= h with at most 4 significant bits (m 2^e, m < 16): every grid point k h with
// |k| < 2^49 is then exact in double, so masses sit exactly where their survival values were evaluated.
double dyadic_grid(double h);

struct DiscretePld {
  double h = 1e-4;              // grid spacing
  std::int64_t offset = 0;      // grid index of p[0]: p[k] is the mass at l = (offset + k) h
  std::vector<double> p;        // masses under P (finite losses)
  double p_inf = 0;             // P(L = +inf)
  double err_l1 = 0;            // bound on || p - p_exact ||_1 + |p_inf - p_inf_exact| from floating point
  bool pessimistic = true;      // upper (pessimistic) or lower (optimistic) discretisation
  // Exponential tilting (docs/pld_accountant.md, 5): p[k] holds the tilted mass; the PLD's mass at l_k is
  // p[k] exp(log_scale - tilt l_k). err_l1 is in tilted units. p_inf is never tilted.
  double tilt = 0;
  double log_scale = 0;
  double log_scale_err = 0;  // bound on |log_scale - the exact log scale|
  // Optimistic PLDs only: p[k] is the mass at loss (offset + k) h + shift (the cells of one step are aligned with
  // the lower end of its support, docs/pld_accountant.md, 1). A multiple of h/1024 in [0, h) per step, so grid points
  // plus shift are exact; compositions add shifts (rounded down). The tilt is applied by grid index (l_k without it).
  double shift = 0;
};

// Tilts a PLD by lambda >= 0 (p_k -> p_k e^{lambda l_k} / Z): the tilt of a convolution is the convolution of
// the tilts, so every later round-off error is relative to the mass near the losses that decide a tiny delta.
void apply_tilt(DiscretePld& d, double lambda, double tail);

// Discretises one step on the grid h (must be dyadic_grid(h)). Pessimistic: connect-the-dots (Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022):
// the P-mass of each grid cell is split between its two ends so that the Q-mass is preserved, a mean-preserving
// spread in e^{-L} that can only raise every hockey-stick divergence (Jensen); the upper share is a certified
// upper bound of the exact one, the lower tail is moved up to the first kept point and the upper tail to +inf.
// Optimistic: each cell merged into one outcome and the merged cells contracted onto the grid in pairs (a dominated
// pair with almost no downward bias; docs/pld_accountant.md, 1), the lower tail dropped, the upper tail at the last point.
// `tilt`: the grid extends until the P-survival times e^{tilt l} is <= tail (the mass apply_tilt will see).
DiscretePld discretize(const LossPair& pair, double h, double tail, bool pessimistic, double tilt = 0);

// The composition of two PLDs (convolution of the loss distributions, by FFT; Koskela, Jalko and Honkela 2020),
// tails beyond `tail` mass moved pessimistically (or optimistically), round-off bounded (Higham 2002, Thm 24.2,
// for the radix-2 FFT of radix2_fft.h; docs/pld_accountant.md, 3). Throws GridTooLarge before allocating.
DiscretePld compose(const DiscretePld& a, const DiscretePld& b, double tail, bool extended = false);
// r * b and b * b by one forward and one inverse radix-2 transform of r + i b (docs/pld_accountant.md, 3, "Joint
// products"), in double or double words (extended, double_word.h), with certified l1 round-off bounds for each product.
struct JointProducts {
  std::vector<double> rb, bb;  // r * b (length nr + nb - 1), b * b (length 2 nb - 1); not clamped
  double err_rb = 0, err_bb = 0;  // bounds on || rb - r * b ||_1 and || bb - b * b ||_1
};
JointProducts fft_joint_products(const std::vector<double>& r, const std::vector<double>& b, bool extended);
// a * a by the real-input FFT (docs/pld_accountant.md, 3, "Real-input products"), in double words if extended:
// conv gets length 2 na - 1 (not clamped); returns an upper bound on || conv - a * a ||_1.
double fft_square(const std::vector<double>& a, bool extended, std::vector<double>& conv);
// a * b likewise, from the two inputs' half-length transforms: conv gets length na + nb - 1 (not clamped); returns
// an upper bound on || conv - a * b ||_1.
double fft_product(const std::vector<double>& a, const std::vector<double>& b, bool extended, std::vector<double>& conv);
// For the tests: whether the passes between the transforms (real-input split and products, joint products) may run
// on AVX2 lanes (default true; the CPU must have them). Both paths give bit-identical results.
void set_pld_simd_passes(bool enabled);
// k-fold self-composition by repeated squaring; blocks replicated many times use 80-bit FFTs and smaller tails.
DiscretePld self_compose(const DiscretePld& a, std::int64_t k, double tail);

// An optimistic PLD contracted onto the grid 2h (same shift and tilt): the two points of each coarse cell merged
// and the merged cells paired onto the coarse grid as the one-step discretisation pairs its cells (a
// post-processing of the pair the masses describe; every group's lift is checked with a margin covering err_l1,
// docs/pld_accountant.md, 1, "Widening"). err_l1 grows by the round-off of the sums only.
DiscretePld coarsen_optimistic(const DiscretePld& d);
// The k-fold self-composition of an optimistic one-step PLD `a` on a grid finer than `target_h` (a dyadic multiple
// of a.h): squared as self_compose does on the fine grid, a block contracted onto a 2x coarser grid (coarsen_optimistic)
// only when its square would outgrow 2^18 points, and the result contracted onto target_h at the end. A rarely sampled step narrower than a cell
// of target_h is thus composed where its spread is resolved; the contractions' bias is paid per contraction
// (about log2(target_h / a.h) of them), not per step.
DiscretePld self_compose_widening(const DiscretePld& a, std::int64_t k, double target_h, double tail);
// The spread of a PLD's bulk in cells: the distance between the quartiles of its masses over 1.349 (a normal's
// standard deviation; a rarely sampled step's standard deviation is its rare large losses instead).
double bulk_spread_in_cells(const DiscretePld& d);
// The standard deviation of a PLD's finite masses in cells (as a distribution of the grid index); NaN when it has none.
double standard_deviation_in_cells(const DiscretePld& d);

// delta(eps) = p_inf + sum_k p_k (1 - e^{eps - l_k})_+ (the hockey-stick divergence of the PLD); for a
// pessimistic PLD the float64 error bound is added (upper bound), for an optimistic one subtracted (lower bound).
double pld_delta(const DiscretePld& pld, double eps);
// The smallest eps >= 0 with pld_delta(eps) <= delta (pessimistic: an upper bound on the true eps; optimistic:
// a lower bound). +inf when no eps meets delta.
double pld_epsilon(const DiscretePld& pld, double delta);

}  // namespace dpl
