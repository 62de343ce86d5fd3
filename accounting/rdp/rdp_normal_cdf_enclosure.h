// SPDX-License-Identifier: Apache-2.0
// The standard normal CDF Phi enclosed in binary64 interval arithmetic without MPFR's erfc (whose cost grows
// with the argument: 50-250 us at 53 bits for |x| in [3, 10]). Used by the fast certified RDP path
// (docs/rdp_double_precision.md, sec. 2, "Phi without erfc").
#pragma once

#include "accounting/rdp/rdp_double_interval.h"

namespace dpl {

// Mills ratio R(t) = Phi(-t) / phi(t) for t >= 1, enclosed: Laplace's continued fraction (Abramowitz and Stegun
// 26.2.14) R(t) = 1/(t+ 1/(t+ 2/(t+ 3/(t+ ...)))) has positive elements, so R(t) lies between any two consecutive
// convergents (docs/rdp_double_precision.md); both are evaluated backwards in interval arithmetic.
DoubleInterval mills_ratio(double t);
// Phi(x) at a binary64 point x, enclosed: the series erf(y) = 2/sqrt(pi) e^{-y^2} sum_n 2^n y^{2n+1}/(2n+1)!!
// (Abramowitz and Stegun 7.1.6, all terms positive) for -1 < x < 2, else 1 - phi(x) R(x) or phi(x) R(-x).
DoubleInterval normal_cdf_at(double x);
// e^{l} Phi(x) at binary64 points, enclosed; for x <= -1 as e^{l - x^2/2 - log sqrt(2 pi)} R(-x), so that
// neither factor over- or underflows where the product does not.
DoubleInterval exp_times_normal_cdf_at(double l, double x);

}  // namespace dpl
