// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed000/private_admm_baselines.h"

#include "accounting/errors.h"
#include "accounting/numeric/portable_math.h"

#include <cmath>

namespace dpl::algorithms {

AdmmBaselineRun run_admm_baseline(const DistributedProblem& problem, AdmmBaseline which, const AdmmBaselineConfig& c,
                                  const Eigen::MatrixXd& x0, Rng& rng) {
  const int n = problem.agents(), d = problem.dim();
  if (x0.rows() != n || x0.cols() != d) throw InputError("x0: must be agents x dim");
  if (c.target < 0 || c.target >= n) throw InputError("target: not an agent");
  AdmmBaselineRun run;
  Eigen::MatrixXd x = x0, lambda = Eigen::MatrixXd::Zero(n, d);
  run.states.push_back(x);
  double beta = c.beta0, loss = 0;
  for (int k = 0; k < c.K; ++k) {
    beta *= c.growth;  // beta_{k+1}
    Eigen::MatrixXd next(n, d);
    for (int i = 0; i < n; ++i) {
      const auto& nb = problem.graph.neighbours[static_cast<std::size_t>(i)];
      const double D = which == AdmmBaseline::increasing_penalty_43
                           ? portable::pow(c.penalty_growth, k + 1) * static_cast<double>(nb.size())
                           : c.D;
      const Eigen::VectorXd g = problem.locals[static_cast<std::size_t>(i)].subgradient(x.row(i).transpose());
      for (int l = 0; l < d; ++l) {
        double xbar = 0;
        for (int j : nb) xbar += x(j, l);
        xbar /= static_cast<double>(nb.size());
        double lam = lambda(i, l);
        if (c.noise && which == AdmmBaseline::dual_perturbation_42) lam += rng.laplace_rate(beta);
        double v = 0.5 * x(i, l) + 0.5 * xbar + (-g(l) + lam) / D;
        if (c.noise && which != AdmmBaseline::dual_perturbation_42) v += rng.laplace_rate(beta);
        next(i, l) = v;
      }
      if (c.noise && i == c.target) {
        // Per coordinate: output noise rate beta, mean shift B_inf/D -> beta B_inf/D; [42]: rate beta D on x,
        // shift B_inf/D -> beta B_inf.
        const double per = which == AdmmBaseline::dual_perturbation_42 ? beta * c.b_inf : beta * c.b_inf / D;
        loss += d * per;
      }
    }
    for (int i = 0; i < n; ++i)
      for (int j : problem.graph.neighbours[static_cast<std::size_t>(i)])
        lambda.row(i) += c.zeta * (next.row(j) - next.row(i));
    x = next;
    run.states.push_back(x);
    run.worst_loss.push_back(loss);
  }
  return run;
}

}  // namespace dpl::algorithms
