// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed002/objective_perturbation_privacy.h"

#include "accounting/errors.h"
#include "accounting/numeric/interval.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace dpl::algorithms::seed002 {

double curvature_bound(LossKind loss) {
  if (loss != LossKind::logistic)
    throw NotApplicable("loss=" + to_string(loss) +
                        ": objective perturbation's guarantee (Recycled ADMM Assumption 4: strictly convex, twice "
                        "differentiable, |L'| <= 1, L'' <= c_1) holds for loss=logistic only; allowed logistic");
  return 0.25;  // logistic: L'' = s(1 - s) <= 1/4
}

double perturbation_sensitivity(LossKind loss, double C, int rows, int dim) {
  (void)curvature_bound(loss);
  // Recycled ADMM (53): one replaced row moves (C/B_i) L' y x by at most 2 C sup|L'| max||x|| / B_i (logistic:
  // |L'| < 1, unit rows); in dimension 1 by at most 1.06 C / B_i (the gap of two scalar rows, header); rounded up.
  const double gap_times_c = dim == 1 ? std::nextafter(kLogisticGapOneDimension * C, HUGE_VAL) : 2.0 * C;  // 2C exact
  return std::nextafter(gap_times_c / static_cast<double>(rows), HUGE_VAL);
}

std::vector<AgentLedger> perturbation_ledgers(const PerturbationLedgerInputs& in) {
  std::vector<AgentLedger> out;
  const Interval C = exact(in.C), c1 = exact(in.c1), seven_fifths = exact_int(7) / exact_int(5);
  for (std::size_t i = 0; i < in.agents.size(); ++i) {
    const auto& a = in.agents[i];
    AgentLedger l;
    l.agent = static_cast<int>(i);
    const Interval B = exact_int(a.rows);
    const Interval floor = exact(in.rho_over_n) + exact(in.extra_curvature) + exact_int(2) * exact(in.eta) * exact_int(a.degree);
    const Interval x = C * c1 / (B * floor);
    l.x = hi_up(x);
    l.condition = certainly_lt(exact_int(2) * c1, B / C * floor);
    const Interval s = exact(perturbation_sensitivity(in.loss, in.C, a.rows, in.dim));  // (53), declared domain
    const Interval s_printed = exact(perturbation_sensitivity(in.loss, in.C, a.rows, 2));  // (53) as printed: 2C/B_i
    Interval printed = exact_int(0), total = exact_int(0);
    const bool finite = certainly_lt(x, exact_int(1));
    const Interval jac = finite ? -exact_int(2) * log1p(-x) : positive_infinity();  // (56)
    for (double rate : in.rates) {
      // R-ADMM: noise part alpha s_i (54). DVP: perturbation (C/B_i) e at rate zeta B_i/C: (zeta B_i/C) s_i.
      const Interval noise = in.dual_perturbation ? exact(rate) * s * B / C : exact(rate) * s;
      // (30): (2C/B_i)(1.4 c_1/floor + alpha); for DVP alpha = zeta B_i/C, i.e. 2 zeta + 2.8 x_i.
      printed += in.dual_perturbation ? exact(rate) * s_printed * B / C + exact_int(2) * seven_fifths * x
                                      : exact_int(2) * C / B * (seven_fifths * c1 / floor + exact(rate));
      if (finite) {
        const Interval r = noise + jac;
        total += r;
        l.per_round_exact.push_back(hi_up(r));
      } else {
        l.per_round_exact.push_back(HUGE_VAL);
      }
    }
    l.printed = hi_up(printed);
    l.exact = finite ? hi_up(total) : HUGE_VAL;
    out.push_back(std::move(l));
  }
  return out;
}

double smallest_admissible_eta(const PerturbationLedgerInputs& in) {
  double eta = 0;
  for (const auto& a : in.agents)
    eta = std::max(eta, (2 * in.c1 * in.C / a.rows - in.rho_over_n - in.extra_curvature) / (2.0 * a.degree));
  return eta;
}

}  // namespace dpl::algorithms::seed002
