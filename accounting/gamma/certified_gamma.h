// SPDX-License-Identifier: Apache-2.0
// A certified enclosure of seed 000's exact average-case ratio gamma (the quantity average_case_gamma() estimates
// by Gauss-Kronrod): the same integral by the composite midpoint rule with its rigorous remainder, so that a
// ledger can print gamma (and the expected loss) as an upper bound.
#pragma once

#include "accounting/numeric/interval.h"

namespace dpl {

struct GammaEnclosure {
  Interval gamma;          // contains the exact gamma
  int panels = 0;          // midpoint panels used
  bool converged = false;  // width(gamma) <= rel_tol * gamma reached within max_panels (else only wider)
};

// gamma = (1 - e^{-u})/u + (2/e) int_0^{u/2} f, f = J(y) Theta(y)/(2u) (u = beta omega, e = beta shift; notes on
// Xiao 2019 Thm 2.2.1, as in average_case_gamma). On each panel [a, b], int f = h f(m) + h^3 f''(xi)/24 (midpoint
// rule, f in C^2 on each of the pieces [0, min(e, u/2)] and [e, u/2]); f(m) is enclosed in interval arithmetic
// and f'' over the whole panel, with Theta, Theta', Theta'' on [e, u/2] by the mean-value form
// Theta^{(k)}(y) = e L^{(k+1)}(w), w in [y - e, y], L = log J (so the enclosures scale with e). Panels are
// bisected where the enclosure is widest until width <= rel_tol * value or max_panels. Throws InputError unless
// omega, beta, shift are finite and > 0, rel_tol > 0, max_panels >= 2.
GammaEnclosure certified_gamma(double omega, double beta, double shift, double rel_tol = 1e-7, int max_panels = 4000);
// The same from enclosures of u = beta omega and e = beta shift (the result encloses gamma at every point of
// them). Throws InputError unless U, E are certainly > 0 and finite.
GammaEnclosure certified_gamma(const Interval& U, const Interval& E, double rel_tol = 1e-7, int max_panels = 4000);

}  // namespace dpl
