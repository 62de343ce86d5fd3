// SPDX-License-Identifier: Apache-2.0
// Worst- versus average-case privacy of the randomized local aggregation of seed 000 (Definition 2,
// Theorems 2.2.1 and 2.2.2): the exact gamma = E[loss]/worst by numerical integration, the thesis's eq. (2.6)
// as printed, the small-shift limit, and the realised (output-specific) loss of a run (Lemma 2.2.1).
#pragma once

#include "accounting/numeric/interval.h"

#include <vector>

namespace dpl {

// Normalised parameters: u = beta * omega (interval length in units of the Laplace scale), e = beta * shift.
struct GammaResult {
  Real gamma;            // exact E[Theta]/e, by Gauss-Kronrod quadrature in MPFR
  Real quadrature_error; // the quadrature's own error estimate (absolute, on gamma)
  Real thesis_bound;     // eq. (2.6) as printed (closed form of its double integral); 1 where it does not apply
  bool thesis_applies = true;  // Thm 2.2.2's hypothesis omega > shift (u > e), and e > 1e-30 (evaluable)
  Real small_shift;      // 2 (1 - e^{-u/2}) / u, the e -> 0 limit
};

// Seed 000, Thm 2.2.1 model: output y = U + Lap(1), U ~ Unif[0, u]; neighbour shifts the interval by |t| <= e.
// gamma = (1 - e^{-u})/u + (2/e) int_0^{u/2} J(y)/(2u) Theta(y) dy (docs/xiao2019.md), Theta at the endpoint
// t = +e for y <= u/2 (the shift away from y; log-concavity of t -> J(y - t)). Exact up to the quadrature error.
// `tolerance` (relative) and `max_depth` (at most 2^max_depth panels of 61 points) bound the quadrature's work: the
// defaults give ~40 digits; a grid of estimates printed to 15 digits asks for less (kGammaGridQuadrature).
struct GammaQuadrature {
  const char* tolerance = "1e-40";
  unsigned max_depth = 10;
};
inline constexpr GammaQuadrature kGammaGridQuadrature{"1e-20", 6};
GammaResult average_case_gamma(double omega, double beta, double shift, GammaQuadrature quadrature = {});

// Eq. (2.6) of the thesis as printed at u > e (its hypothesis omega > s), overflow-free for any such u, e.
Real thesis_eq_2_6(const Real& u, const Real& e);
// The same in binary64: an estimate (for figures that are not bounds, e.g. audits of many runs).
double thesis_eq_2_6_estimate(double u, double e);

// J(y) = int_0^u e^{-|y - z|} dz (closed form, exact).
Real laplace_window(const Real& u, const Real& y);
// Theta(y) = max_{|t| <= e} |log J(y)/J(y - t)|, cancellation-free (docs/xiao2019.md), any real y. Exact.
Real pointwise_loss(const Real& u, const Real& e, const Real& y);

// Seed 000, Lemma 2.2.1 / Thm 2.2.1: the realised loss of one released coordinate x drawn around the interval
// [lo, hi] with Laplace rate beta and neighbouring shift s: Theta_{beta(hi-lo), beta s}(beta (x - lo)), at most
// beta s (the worst case).
double realised_coordinate_loss(double x, double lo, double hi, double beta, double shift);
// The same in binary64 (about 100 times faster): an estimate with an absolute error of a few ulps of
// max(1, beta s); not a certified figure.
double realised_coordinate_loss_estimate(double x, double lo, double hi, double beta, double shift);

// A run's realised loss summed over steps and coordinates next to its worst case sum beta_k s.
struct RunLoss {
  double realised = 0;
  double worst = 0;
};
RunLoss realised_run_loss(const std::vector<double>& released, const std::vector<double>& lo,
                          const std::vector<double>& hi, const std::vector<double>& beta, double shift);

}  // namespace dpl
