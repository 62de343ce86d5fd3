// SPDX-License-Identifier: Apache-2.0
// Certified binomial probabilities (MPFI): point masses and tails of Bin(n, q).
#pragma once

#include "accounting/numeric/interval.h"

#include <cstdint>

namespace dpl {

// log P[Bin(n, q) = k] = log C(n, k) + k log q + (n - k) log(1 - q), 0 <= k <= n, 0 < q < 1. Enclosure.
Interval binomial_log_pmf(std::int64_t n, double q, std::int64_t k);

// P[Bin(n, q) >= k], 0 <= q <= 1: the point masses from k on (or 1 minus those below k, whichever side of the mode
// k is on), each from the previous by the exact ratio (n - j)/(j + 1) q/(1 - q), until the remaining ones are
// bounded by a geometric series (the ratios decrease away from the mode) below 1e-40 of the sum. Enclosure. Work
// ~ 15 standard deviations of terms: n q (1 - q) up to ~1e9 is fine; the caller bounds n.
Interval binomial_upper_tail(std::int64_t n, double q, std::int64_t k);

}  // namespace dpl
