// SPDX-License-Identifier: Apache-2.0
// Tails of the standard normal distribution in long double, for the loss pairs' survival functions.
#pragma once

#include "accounting/numeric/portable_math.h"

#include <cmath>

namespace dpl {

// Upper tail of the standard normal, 1 - Phi(x), without cancellation, evaluated in long double by portable::erfc (the
// same bits on every CPU; the arguments are long double too) and rounded once to double by the callers: relative error <= u + the long-double chain's
// error (a few u_ld times erfc's conditioning 2 y^2 <= 1400 for survival values above 1e-300), well below the
// 1e-15 the discretisation assumes (docs/pld_accountant.md, 1).
inline long double normal_upper_tail(long double x) { return 0.5L * portable::erfc(x / std::sqrt(2.0L)); }
// Lower tail Phi(x), the same way.
inline long double normal_lower_tail(long double x) { return 0.5L * portable::erfc(-x / std::sqrt(2.0L)); }

}  // namespace dpl
