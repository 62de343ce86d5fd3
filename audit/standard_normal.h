// SPDX-License-Identifier: Apache-2.0
// The standard normal distribution for the audits' Gaussian-DP readings (not bounds: the callers widen what they
// report), from portable_distributions.h: the same bits on every CPU.
#pragma once

#include "accounting/numeric/portable_distributions.h"

namespace dpl::audit {

// Phi(x).
inline double normal_cdf(double x) { return portable::normal_cdf(x); }
// Phi^{-1}(p) for p in (0, 1).
inline double normal_quantile(double p) { return portable::normal_quantile(p); }

}  // namespace dpl::audit
