// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed004/private_dual_averaging.h"

#include "accounting/errors.h"
#include "accounting/numeric/portable_math.h"
#include "algorithms/run/run_limits.h"
#include "algorithms/seed000/trace_recording.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace dpl::algorithms::seed004 {

Eigen::VectorXd sample_subgradient(const LocalObjective& f, int row, const Eigen::VectorXd& x) {
  const Eigen::VectorXd z = f.data().features.row(row).transpose();
  const double y = f.data().labels(row);
  const double m = y * z.dot(x);
  switch (f.loss()) {
    case LossKind::logistic: {
      const double s = m > 0 ? portable::binary64::exp(-m) / (1 + portable::binary64::exp(-m)) : 1 / (1 + portable::binary64::exp(m));  // 1/(1 + e^m)
      return -s * y * z;
    }
    case LossKind::hinge: return m < 1 ? Eigen::VectorXd(-y * z) : Eigen::VectorXd::Zero(x.size());
    default: break;
  }
  throw NotApplicable("loss=" + to_string(f.loss()) + ": DP-DDA is defined for hinge and logistic losses (Lipschitz); "
                      "allowed hinge, logistic");
}

namespace {

double weight(WeightRule r, std::int64_t t) { return r == WeightRule::linear ? static_cast<double>(t) : 1.0; }
double prox_weight(const DualAveragingSettings& s, std::int64_t t) {
  return s.gamma_rule == ProxRule::sqrt ? s.gamma0 * std::sqrt(static_cast<double>(t)) : s.gamma0;
}

// (6) with d = ||x||^2/2: x = -S_{kappa l1}(z)/(kappa l2 + gamma) (soft threshold, then scale).
Eigen::VectorXd prox_step(const Regularizer& h, const Eigen::VectorXd& z, double kappa, double gamma) {
  Eigen::VectorXd x(z.size());
  const double thr = kappa * h.l1, den = kappa * h.l2 + gamma;
  for (Eigen::Index l = 0; l < z.size(); ++l) {
    const double a = std::fabs(z(l)) - thr;
    x(l) = a > 0 ? -std::copysign(a, z(l)) / den : 0.0;
  }
  return x;
}

std::set<std::int64_t> log_spaced(std::int64_t T, int points) {
  std::set<std::int64_t> s{T};
  for (int k = 0; k < points; ++k)
    s.insert(std::max<std::int64_t>(1, static_cast<std::int64_t>(
                                           std::llround(portable::pow(static_cast<double>(T), static_cast<double>(k) / points)))));
  return s;
}

}  // namespace

DualAveragingOutcome run_dual_averaging(const DistributedProblem& problem, const NodeSamplingGossip& gossip,
                                        const DualAveragingSettings& s, Rng& rng,
                                        const ProgressCallback& progress) {
  const int n = problem.agents(), d = problem.dim();
  // Per step: the subgradients (one sample per agent, or every local row: ~2 multiply-adds per stored value) and
  // the gossip averages (n (degree + 1) d, vectorised: a quarter of a unit each). Checked before the first step.
  const double degree = 2.0 * static_cast<double>(problem.graph.edges.size()) / n;
  require_run_work(static_cast<double>(s.T) * ((s.one_sample ? 2.0 * n * d : 2.0 * problem.data_values()) +
                                               0.25 * n * (degree + 1) * d),
                   "dual averaging with T=" + std::to_string(s.T) + ", agents=" + std::to_string(n) + ", dimension " +
                       std::to_string(d));
  const Regularizer& h = problem.locals.front().regularizer();
  if (!(h.l2 > 0) && !(s.gamma0 > 0))
    throw InputError("gamma0=0 is out of range when l2=0: allowed reals (0, 1e6] (step (6) needs iota A_t l2 + "
                     "gamma_t > 0)");
  Rng sample_rng = rng.split(), noise_rng = rng.split(), gossip_rng = rng.split();
  Eigen::MatrixXd Z = Eigen::MatrixXd::Zero(n, d), X(n, d), S = Eigen::MatrixXd::Zero(n, d);
  // Step 1: z_i^(1) = 0, x_i^(1) from (6) with A_1 = a_1, gamma_1.
  for (int i = 0; i < n; ++i)
    X.row(i) = prox_step(h, Z.row(i).transpose(), s.iota * weight(s.a, 1), prox_weight(s, 1)).transpose();
  DualAveragingOutcome out;
  out.activations.assign(static_cast<std::size_t>(n), 0);
  const std::set<std::int64_t> record = log_spaced(s.T, s.trace_points);
  double A = 0;
  Eigen::MatrixXd M(n, d);
  const std::int64_t stride = std::max<std::int64_t>(1, s.T / 100);  // progress about every percent
  for (std::int64_t t = 1; t <= s.T; ++t) {
    if (progress && (t - 1) % stride == 0)
      progress(static_cast<double>(t - 1) / static_cast<double>(s.T),
               "step " + std::to_string(t - 1) + "/" + std::to_string(s.T));
    const double a = weight(s.a, t);
    A += a;
    S += a * X;  // x~ accumulates a_t x_i^(t), the iterate in use at step t
    const GossipStep g = gossip.draw(gossip_rng);
    for (int i : g.active) {
      const auto& f = problem.locals[static_cast<std::size_t>(i)];
      const Eigen::VectorXd x = X.row(i).transpose();
      int row = 0;
      if (s.one_sample) {
        row = static_cast<int>(sample_rng.uniform_int(static_cast<std::uint64_t>(f.rows())));
        if (i == s.fixed_sample_node) row = 0;  // an audit's fault: the canary always the sample
      }
      Eigen::VectorXd zeta =
          s.one_sample ? sample_subgradient(f, row, x) : Eigen::VectorXd(f.gradient(x) - h.smooth_gradient(x));
      if (s.sigma > 0) {
        Eigen::VectorXd draw(d);
        for (int l = 0; l < d; ++l) draw(l) = noise_rng.gaussian(0, s.sigma * s.noise_scale);
        zeta += draw;
        if (s.observe_noise) s.observe_noise(i, draw);
      }
      M.row(i) = Z.row(i) + a * zeta.transpose();  // message (Step 5)
      ++out.activations[static_cast<std::size_t>(i)];
    }
    if (s.observe) {
      Eigen::MatrixXd zetas(static_cast<Eigen::Index>(g.active.size()), d);
      for (std::size_t r = 0; r < g.active.size(); ++r)
        zetas.row(static_cast<Eigen::Index>(r)) = (M.row(g.active[r]) - Z.row(g.active[r])) / a;
      s.observe(t, Z, X, g.active, zetas);
    }
    const double kappa = s.iota * (A + weight(s.a, t + 1)), gamma = prox_weight(s, t + 1);
    for (std::size_t r = 0; r < g.active.size(); ++r) {
      const int i = g.active[r];
      Eigen::RowVectorXd z = Eigen::RowVectorXd::Zero(d);
      for (const auto& [j, w] : g.rows[r]) z += w * M.row(j);  // (5)
      Z.row(i) = z;
    }
    for (int i : g.active) X.row(i) = prox_step(h, Z.row(i).transpose(), kappa, gamma).transpose();  // (6)
    if (record.count(t)) {
      const Eigen::MatrixXd avg = S / A;
      const Eigen::VectorXd point = network_average(avg);
      out.curve_t.push_back(t);
      out.curve_suboptimality.push_back(total_objective(problem.locals, point) - problem.optimum.value);
      Eigen::MatrixXd msgs(static_cast<Eigen::Index>(g.active.size()), d);
      for (std::size_t r = 0; r < g.active.size(); ++r) msgs.row(static_cast<Eigen::Index>(r)) = M.row(g.active[r]);
      out.trace.push_back(record_step(static_cast<int>(t), X, msgs, problem.locals, point));
    }
  }
  out.averages = S / A;
  return out;
}

}  // namespace dpl::algorithms::seed004
