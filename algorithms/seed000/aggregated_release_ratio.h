// SPDX-License-Identifier: Apache-2.0
// The statistic of an end-to-end audit of seed 000's randomized local aggregations (Algorithms 1, 2, 2*): a released
// coordinate is y = w a + (1 - w) b + offset + Lap(rate beta) with the aggregation weight w ~ U(0, 1) hidden from
// the auditor, so its mean is uniform on [lo, hi] + offset, lo = min(a, b), hi = max(a, b), given the released
// history; D and D' move only the offset (the agent's gradient term). The weight integrated out, the release's
// density is the Laplace density convolved with that uniform law (Xiao 2019 Lemma 2.2.1's J), and its
// log-likelihood ratio between D and D' is the Neyman-Pearson statistic of the release as the algorithm makes it.
#pragma once

namespace dpl::algorithms {

// log p_D(y) / p_D'(y) for a coordinate released as (mean uniform on [lo, hi] + offset) + Lap(rate beta), offset
// offset_d on D and offset_dprime on D' (lo == hi: a fixed weight, the Laplace density's ratio). Binary64, formed
// without cancellation (expm1, log of sums of positive terms) for any interval length, including tiny ones.
double aggregated_laplace_log_ratio(double y, double lo, double hi, double offset_d, double offset_dprime, double beta);

}  // namespace dpl::algorithms
