// SPDX-License-Identifier: Apache-2.0
// The numeric side of the derivation checks: a claimed rate or constant that a paper derives from one of its own
// bounds is recomputed by minimising that bound over the free horizon (iterations K or T) at the noise the paper
// calibrates, and the exponent of the result in each parameter is fitted on a log-log sweep.
#pragma once

#include <functional>
#include <vector>

namespace dpl::proofs {

// min over h in [lo, hi] of g(h) (g smooth in h; a geometric grid of ratio 1.2, then golden-section refinement
// around the best grid point).
double minimise_over_horizon(const std::function<double(double)>& g, double lo, double hi);

// The least-squares exponent of f in its argument over `values` (all positive; f(values) positive).
double fitted_exponent(const std::vector<double>& values, const std::function<double(double)>& f);

}  // namespace dpl::proofs
