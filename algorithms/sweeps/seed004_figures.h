// SPDX-License-Identifier: Apache-2.0
// Liu, Johansson and Shi (seed 004), Sec. V, Figures 1-5, by sweeps of `dp-dda-node-sampling` over seeds:
//   Fig. 1: l1-regularised SVM (hinge + 5e-4 |x|_1, a_t = 1, gamma_t = gamma0 sqrt(t)): suboptimality of
//           standard DDA (every node active, iota = 1) and Algorithm 1 (one sampled edge, iota = 0.1), each at the
//           paper's (eps, delta0) = (1, 0.01) and (0.5, 0.01), sigma from Theorem 1;
//   Fig. 2: the same problem, Algorithm 1 with one vs two sampled edges (2 vs 3-4 active nodes);
//   Fig. 3: privacy leakage against iterations: Remark 1's (7) (the paper's curve, the same with and without
//           sampling) next to dpledger's certified epsilon (delta 0.01) of the runs with and without sampling;
//   Fig. 4, 5: Figs. 1 and 2 on the l2-regularised SVM (hinge + (5e-4/2)|x|^2, a_t = t, gamma_t = 20).
// Keys: data (breast_cancer: rcv1 and the epsilon data set are not shipped; synthetic with synthetic_rows and
// synthetic_dim, e.g. 20 x 1012 rows for rcv1's rows per node), T (1000), loss (hinge | logistic), gamma0 (the l1
// figures' 0.1; the l2 figures' 20).
#pragma once

#include "accounting/progress_callback.h"
#include "algorithms/sweeps/figure.h"

namespace dpl::algorithms::sweeps {

Figure seed004_figure(int number, RunParameters& params, int seeds, const ProgressCallback& progress);

}  // namespace dpl::algorithms::sweeps
