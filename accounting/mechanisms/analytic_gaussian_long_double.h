// SPDX-License-Identifier: Apache-2.0
// A certified enclosure of the Gaussian mechanism's privacy profile in x87 long double: the same bits on every
// CPU (portable_math), a few microseconds per evaluation where MPFR at 60 digits takes about a millisecond. The
// error analysis is in docs/accountants.md ("The analytic Gaussian's numerics").
#pragma once

#include <optional>

namespace dpl {

struct LongDoubleEnclosure {
  long double lo, hi;  // lo <= true value <= hi
};

// Balle and Wang 2018, Thm 8: delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu), enclosed for every mu
// in [mu_lo, mu_hi] (delta increases with mu) at the exact long double eps. nullopt outside the range the error
// analysis covers (mu outside [1e-4000, 1e150], eps above 10^4, a term below 1e-4000 where delta is not certainly
// below 1e-4900, or an argument error the first-order bound does not cover); the caller then evaluates in MPFR.
std::optional<LongDoubleEnclosure> analytic_gaussian_delta_long_double(long double mu_lo, long double mu_hi,
                                                                       long double eps);

}  // namespace dpl
