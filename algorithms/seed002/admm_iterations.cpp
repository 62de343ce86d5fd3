// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed002/admm_iterations.h"

#include "accounting/errors.h"
#include "accounting/numeric/portable_math.h"
#include "algorithms/seed000/trace_recording.h"
#include "algorithms/seed002/local_newton.h"
#include "algorithms/seed002/norm_exponential_noise.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace dpl::algorithms::seed002 {

Eigen::MatrixXd recycled_step_from_broadcasts(const Graph& g, const Eigen::MatrixXd& F_before_odd,
                                              const Eigen::MatrixXd& F_odd, double eta, double gamma) {
  Eigen::MatrixXd next = F_odd;
  for (int i = 0; i < g.nodes; ++i) {
    const auto& nb = g.neighbours[static_cast<std::size_t>(i)];
    Eigen::RowVectorXd s = Eigen::RowVectorXd::Zero(F_odd.cols());
    for (int j : nb) s += F_before_odd.row(i) + F_before_odd.row(j) - 2 * F_odd.row(j);
    next.row(i) -= eta / (2 * eta * static_cast<double>(nb.size()) + gamma) * s;
  }
  return next;
}

AdmmOutcome run_admm_iterations(const DistributedProblem& problem, const AdmmSettings& s, const Eigen::MatrixXd& F0,
                                Rng& noise, const ProgressCallback& progress) {
  const int n = problem.agents();
  const int d = problem.dim();
  const Graph& g = problem.graph;
  if (F0.rows() != n || F0.cols() != d) throw InputError("F0: must be agents x dim");
  AdmmOutcome out;
  Eigen::MatrixXd F = F0, lambda = Eigen::MatrixXd::Zero(n, d);
  Eigen::MatrixXd F_prev = F0, lambda_prev = lambda;  // f(t-1), lambda(t-1) before the current odd step
  out.trace.push_back(record_step(0, F, Eigen::MatrixXd(), problem.locals, network_average(F)));
  if (s.noise != AdmmNoise::none) out.trace.back().ledger_steps = 0;
  int perturbed = 0;  // perturbed iterations so far
  const int stride = std::max(1, s.iterations / 100);  // progress about every percent
  for (int t = 1; t <= s.iterations; ++t) {
    if (progress && (t - 1) % stride == 0)
      progress(static_cast<double>(t - 1) / s.iterations,
               "iteration " + std::to_string(t - 1) + "/" + std::to_string(s.iterations));
    const bool even = s.recycled && t % 2 == 0;
    const double eta = s.eta * portable::pow(s.eta_growth, t - 1);
    Eigen::MatrixXd next(n, d);
    if (!even) {
      // Exact step (8)/(12)/(28): argmin O_i + (2 lambda_i + e_i)^T f + eta sum_j ||(f_i + f_j)/2 - f||^2.
      const bool perturb = s.noise != AdmmNoise::none;
      if (perturb && perturbed >= static_cast<int>(s.rates.size()))
        throw InputError("rates: one noise rate per perturbed iteration is needed");
      const double rate = perturb ? s.rates[static_cast<std::size_t>(perturbed)] : 0.0;
      for (int i = 0; i < n; ++i) {
        const auto& nb = g.neighbours[static_cast<std::size_t>(i)];
        const auto& fi = problem.locals[static_cast<std::size_t>(i)];
        Eigen::VectorXd lin = 2 * lambda.row(i).transpose();
        for (int j : nb) lin -= eta * (F.row(i) + F.row(j)).transpose();
        const Eigen::VectorXd lin_public = s.observe_primal ? lin : Eigen::VectorXd();
        if (perturb) {
          const Eigen::VectorXd e = norm_exponential_noise(d, rate / s.noise_scale, noise);
          out.noise_norms.push_back(e.norm());
          // objective: + e^T f (28); dual (Zhang-Zhu DVP): lambda + (C/(2 B_i)) e in the 2 lambda^T f term.
          lin += s.noise == AdmmNoise::objective ? e : (s.C / static_cast<double>(fi.rows())) * e;
        }
        const double quad = eta * static_cast<double>(nb.size()) + 0.5 * s.phi;
        const ArgminResult r = solve_admm_argmin(fi, s.C * s.loss_scale, lin, quad, F.row(i).transpose(), s.newton_tol);
        next.row(i) = r.x.transpose();
        if (perturb && s.observe_primal) s.observe_primal(t, i, lin_public, quad, r.x);
        out.max_kkt_residual = std::max(out.max_kkt_residual, r.residual);
        out.max_newton_iterations = std::max(out.max_newton_iterations, r.newton_iterations);
        ++out.argmin_solves;
      }
      if (perturb) ++perturbed;
      F_prev = F;
      lambda_prev = lambda;
      // Dual update (9)/(13): lambda_i += (eta/2) sum_j (f_i - f_j), from the (unperturbed) broadcasts.
      for (int i = 0; i < n; ++i)
        for (int j : g.neighbours[static_cast<std::size_t>(i)])
          lambda.row(i) += 0.5 * eta * (next.row(i) - next.row(j));
    } else {
      // Recycled step, dual frozen (11). Non-private: (10) with the stored gradient grad O_i(f_i(2k-1)).
      // Private: (29) with e_i + grad O_i reconstructed from the KKT condition of (28) (public values only).
      for (int i = 0; i < n; ++i) {
        const auto& nb = g.neighbours[static_cast<std::size_t>(i)];
        const auto V = static_cast<double>(nb.size());
        Eigen::RowVectorXd recycled(d);
        if (s.noise == AdmmNoise::none) {
          recycled = s.C * problem.locals[static_cast<std::size_t>(i)].gradient(F.row(i).transpose()).transpose();
        } else {
          recycled = -2 * lambda_prev.row(i);
          // The KKT condition of the odd step t - 1, at its penalty.
          const double eta_odd = s.eta * portable::pow(s.eta_growth, t - 2);
          for (int j : nb) recycled -= eta_odd * (2 * F.row(i) - F_prev.row(i) - F_prev.row(j));
        }
        Eigen::RowVectorXd consensus = Eigen::RowVectorXd::Zero(d);
        for (int j : nb) consensus += F.row(i) - F.row(j);
        next.row(i) = F.row(i) - (recycled + 2 * lambda.row(i) + eta * consensus) / (2 * eta * V + s.gamma);
      }
    }
    F = next;
    out.trace.push_back(record_step(t, F, Eigen::MatrixXd(), problem.locals, network_average(F)));
    // The ledger has one round per perturbed iteration (record_perturbation_ledger): its prefix used by t.
    if (s.noise != AdmmNoise::none) out.trace.back().ledger_steps = perturbed;
    if (!bounded_states(F) || !bounded_states(lambda)) {
      out.diverged = true;
      break;
    }
  }
  out.F = F;
  out.lambda = lambda;
  return out;
}

}  // namespace dpl::algorithms::seed002
