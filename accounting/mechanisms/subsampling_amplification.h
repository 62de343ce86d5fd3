// SPDX-License-Identifier: Apache-2.0
// Amplification by subsampling for (eps, delta)-DP guarantees.
#pragma once

#include "accounting/mechanisms/per_step_guarantee.h"

namespace dpl {

// Poisson subsampling with probability q, add/remove neighbours: (log(1 + q(e^eps - 1)), q delta)
// (Balle, Barthe, Gaboardi 2018, Thm 8; tight for eps). Upper bound.
DpGuarantee amplify_poisson(const DpGuarantee& g, const Interval& q);
// Sampling without replacement of a fixed-size batch, ratio q = m/n, replace-one neighbours:
// (log(1 + q(e^eps - 1)), q delta) (Balle, Barthe, Gaboardi 2018, Thm 9, for M DP under substitution). Upper bound.
DpGuarantee amplify_without_replacement(const DpGuarantee& g, const Interval& q);

}  // namespace dpl
