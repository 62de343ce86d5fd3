// SPDX-License-Identifier: Apache-2.0
// Zhang, Khalili and Liu (seed 002), Sec. V, Figures 1 and 2, by sweeps over seeds:
//   Fig. 1: non-private R-ADMM (eta 0.5) for several gamma against conventional ADMM, on a small (N = 5) and a
//           large (N = 20) randomly generated network: the average training loss L(t) against t;
//   Fig. 2: private R-ADMM (gamma 0.2, eta 1, alpha 2 and 4) against the paper's baselines with noise chosen for
//           the same total bound: DVP (Zhang and Zhu 2017: dual-variable perturbation) and PP (M-ADMM of the same
//           authors, ICML 2018: objective perturbation in every iteration with an increasing penalty
//           eta 1.01^t), accuracy L(t) and the privacy loss bound P(t) of Theorem IV.1's form.
// Keys: data (breast_cancer: Adult is not shipped), C (Fig. 2: 100), K (odd rounds: Fig. 1 100, Fig. 2 10).
#pragma once

#include "accounting/progress_callback.h"
#include "algorithms/sweeps/figure.h"

namespace dpl::algorithms::sweeps {

Figure seed002_figure(int number, RunParameters& params, int seeds, const ProgressCallback& progress);

}  // namespace dpl::algorithms::sweeps
