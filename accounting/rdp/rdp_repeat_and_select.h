// SPDX-License-Identifier: Apache-2.0
// Renyi-DP of private hyper-parameter tuning: run a mechanism a random number K of times and release only the best
// run (Papernot and Steinke 2022, "Hyperparameter tuning with Renyi differential privacy"; dp_accounting's
// RepeatAndSelectDpEvent).
#pragma once

#include "accounting/rdp/rdp_accountant.h"

#include <memory>

namespace dpl {

class RepeatAndSelectRdp final : public RdpCurve {
 public:
  // `run`: the ledger of one run; mean: E[K] >= 1; shape eta: 0 logarithmic, 1 geometric, (0, inf) truncated
  // negative binomial, inf Poisson. Throws InputError when the distribution's parameter cannot be found.
  RepeatAndSelectRdp(const Ledger& run, double mean, double shape);
  // Truncated negative binomial (Papernot-Steinke 2022, Thm 2): for every l > 1 and lh >= 1,
  //   eps'(l) <= eps(l) + (1 + eta)(1 - 1/lh) eps(lh) + (1 + eta) log(1/gamma)/lh + log(E[K])/(l - 1),
  // with lh chosen once (the minimiser of the two middle terms) and gamma rounded down (log(1/gamma) up).
  // Poisson (Thm 6): eps'(l) <= eps(l) + E[K] dh + log(E[K])/(l - 1), with the run (eh, dh)-DP at
  // eh = log(1 + 1/(l - 1)) (rounded down), dh from the run's RDP curve at its best order. Upper bound.
  Interval at(const Real& alpha) const override;
  Interval at_infinity() const override;
  double estimate(double alpha) const override;

  // The truncated negative binomial's gamma for this mean, rounded down: the mean at it is certainly >= `mean`
  // (E[K] decreases in gamma: eta (1 - gamma)/(gamma (1 - gamma^eta)), (1/gamma - 1)/log(1/gamma) at eta = 0).
  static double gamma_lower(double mean, double shape);

 private:
  double poisson_delta_estimate(double alpha) const;
  ComposedRdp run_;
  double mean_, shape_;
  double gamma_ = 1;    // truncated negative binomial parameter (rounded down)
  double lhat_ = 2;     // the order lh of the constant term
  Interval constant_;   // (1 + eta)((1 - 1/lh) eps(lh) + log(1/gamma)/lh), certified at lh
  double constant_estimate_ = 0;
};

}  // namespace dpl
