// SPDX-License-Identifier: Apache-2.0
// The standard normal distribution in binary64 (Boost.Math), for the audits' Gaussian-DP readings (not bounds:
// the callers widen what they report).
#pragma once

#include <boost/math/special_functions/erf.hpp>

#include <cmath>

namespace dpl::audit {

// Phi(x).
inline double normal_cdf(double x) { return 0.5 * boost::math::erfc(-x / std::sqrt(2.0)); }
// Phi^{-1}(p) for p in (0, 1).
inline double normal_quantile(double p) { return -std::sqrt(2.0) * boost::math::erfc_inv(2 * p); }

}  // namespace dpl::audit
