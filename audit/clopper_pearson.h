// SPDX-License-Identifier: Apache-2.0
// Exact (Clopper-Pearson) one-sided confidence bounds on a binomial proportion, the bounds every audit verdict
// rests on.
#pragma once

#include <cstdint>

namespace dpl::audit {

// A p with P[p_true < lower] <= alpha: the alpha quantile of Beta(k, n - k + 1) (Clopper and Pearson 1934),
// 0 when k = 0. Throws InputError unless 0 <= k <= n, n >= 1 and 0 < alpha < 1.
double clopper_pearson_lower(std::uint64_t k, std::uint64_t n, double alpha);
// A p with P[p_true > upper] <= alpha: the 1 - alpha quantile of Beta(k + 1, n - k), 1 when k = n.
double clopper_pearson_upper(std::uint64_t k, std::uint64_t n, double alpha);

}  // namespace dpl::audit
