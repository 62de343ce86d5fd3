// SPDX-License-Identifier: Apache-2.0
// Wang and Nedic (seed 001), Fig. 1: the optimisation error sum_i ||x_i - theta*|| of Algorithm 1 against DGD
// under the same noise (Nedic-Ozdaglar 2009, [3]: gamma^k = 1) and PDOP under the same privacy budget (Huang,
// Mitra and Vaidya 2015, [12]: its budget 2 C c p/(c_p (p - q)) set to Algorithm 1's claimed eps at the infinite
// horizon), on the paper's Sec. VI problem (5 sensors, 3 measurements of theta in R^2 each), over seeds.
// Keys: K (10000), C (3), pdop_q (0.9: steps c q^k with c = lambda's first value), pdop_p (0.95).
#pragma once

#include "accounting/progress_callback.h"
#include "algorithms/sweeps/figure.h"

namespace dpl::algorithms::sweeps {

Figure seed001_figure1(RunParameters& params, int seeds, const ProgressCallback& progress);

}  // namespace dpl::algorithms::sweeps
