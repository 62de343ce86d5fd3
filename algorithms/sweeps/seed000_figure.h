// SPDX-License-Identifier: Apache-2.0
// Xiao 2019 (seed 000), Figure 2-1. Left: the average-case amplification gamma against the interval length omega
// (0.1 .. 1) for Laplace rates beta 2 .. 10 at B_inf/D_i = 0.001 (exact, by quadrature; the thesis's eq. (2.6)
// dashed at beta 10: below the exact value, so not a bound). Right, example (a) ("Fig. 2(a)" and "2(b)"): accuracy
// and privacy loss of Algorithm 1 against the baselines the thesis compares with ([42], [43], [48] of example (a)
// and [45] of example (c)), all at beta_k = 1.02^k, D 10, zeta 0.5, N 10 agents on 20 random edges, K 100.
// Keys: data (breast_cancer: Adult is not shipped), K (100), beta0 (1: the thesis's rate).
#pragma once

#include "accounting/progress_callback.h"
#include "algorithms/sweeps/figure.h"

namespace dpl::algorithms::sweeps {

Figure seed000_figure2_1(RunParameters& params, int seeds, const ProgressCallback& progress);

}  // namespace dpl::algorithms::sweeps
