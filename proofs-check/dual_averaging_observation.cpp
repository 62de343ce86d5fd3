// SPDX-License-Identifier: Apache-2.0
#include "proofs-check/dual_averaging_observation.h"

#include "accounting/errors.h"
#include "algorithms/rng/portable_rng.h"
#include "algorithms/run/run_parameters.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <string>

namespace dpl::proofs {
namespace {

// Liu-Johansson-Shi (8) with d = ||x||^2/2: y = argmin <z, x> + kappa h(x) + gamma d(x), h = l1|.|_1 + (l2/2)|.|^2,
// i.e. y = -S_{kappa l1}(z)/(kappa l2 + gamma) (soft threshold; exact).
Eigen::VectorXd dual_averaging_point(const Eigen::VectorXd& z, double kappa, double gamma, double l1, double l2) {
  Eigen::VectorXd y(z.size());
  for (Eigen::Index k = 0; k < z.size(); ++k) {
    const double a = std::fabs(z(k)) - kappa * l1;
    y(k) = a > 0 ? -std::copysign(a, z(k)) / (kappa * l2 + gamma) : 0.0;
  }
  return y;
}

double h_value(const Eigen::VectorXd& x, double l1, double l2) { return l1 * x.lpNorm<1>() + 0.5 * l2 * x.squaredNorm(); }

}  // namespace

DdaProblem make_dda_problem(const DdaInstance& inst) {
  algorithms::RunParameters params = algorithms::RunParameters::from_assignments(
      {"data=synthetic", "agents=" + std::to_string(inst.n), "per_agent=" + std::to_string(inst.q),
       "synthetic_rows=" + std::to_string(inst.n * inst.q), "synthetic_dim=" + std::to_string(inst.m),
       "graph=complete", "loss=logistic", "l2=" + std::to_string(inst.l2), "l1=" + std::to_string(inst.l1)});
  algorithms::Rng rng(inst.data_seed);
  DdaProblem p{algorithms::setup_problem(params, algorithms::ProblemDefaults{}, rng), {}, 0, 0, 0, 1, inst.l2, inst.m};
  p.supergraph = p.problem.graph;
  const int n = inst.n;
  p.iota = 2.0 / n;
  // E[W^T W] over the |E| equally likely edges, W = I - v v^T/2 with v = e_i - e_j (W^T W = W).
  Eigen::MatrixXd EW = Eigen::MatrixXd::Zero(n, n);
  const auto& edges = p.supergraph.edges;
  for (const auto& [i, j] : edges) {
    Eigen::MatrixXd W = Eigen::MatrixXd::Identity(n, n);
    W(i, i) = W(j, j) = 0.5;
    W(i, j) = W(j, i) = 0.5;
    EW += W.transpose() * W;
  }
  EW /= static_cast<double>(edges.size());
  EW -= Eigen::MatrixXd::Constant(n, n, 1.0 / n);
  const double rho = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(EW).eigenvalues().cwiseAbs().maxCoeff();
  p.beta = std::sqrt(rho);
  p.M = p.iota * p.L * p.L / 2 + 2 * std::sqrt(p.iota) * p.L * p.L / (1 - p.beta);
  return p;
}

std::vector<DdaCheckpoint> observe_dda_run(const DdaProblem& p, algorithms::seed004::DualAveragingSettings s,
                                           const std::vector<std::int64_t>& checkpoints, std::uint64_t seed) {
  const auto& prob = p.problem;
  const int n = prob.agents(), m = prob.dim();
  const auto& reg = prob.locals.front().regularizer();
  const double l1 = reg.l1, l2 = reg.l2, iota = p.iota;
  const Eigen::VectorXd xs = prob.optimum.x;
  const double Fstar = prob.optimum.value / n;
  s.iota = iota;
  s.T = checkpoints.back();
  s.trace_points = 1;
  const algorithms::seed004::NodeSamplingGossip gossip(p.supergraph, algorithms::seed004::Activation::edges, 1, "edges");
  std::vector<DdaCheckpoint> out;
  std::size_t next = 0;
  double A = 0, sum_ratio = 0, l5_lhs = 0, l5_rhs_printed = 0, l5_rhs_modulus = 0;
  Eigen::MatrixXd Xsum = Eigen::MatrixXd::Zero(n, m);
  Eigen::VectorXd Ysum = Eigen::VectorXd::Zero(m);
  const auto weight = [&](std::int64_t t) {
    return s.a == algorithms::seed004::WeightRule::linear ? static_cast<double>(t) : 1.0;
  };
  const auto prox_weight = [&](std::int64_t t) {
    return s.gamma_rule == algorithms::seed004::ProxRule::sqrt ? s.gamma0 * std::sqrt(static_cast<double>(t)) : s.gamma0;
  };
  s.observe = [&](std::int64_t t, const Eigen::MatrixXd& Z, const Eigen::MatrixXd& X, const std::vector<int>& active,
                  const Eigen::MatrixXd& zeta) {
    const double a = weight(t), gamma = prox_weight(t);
    A += a;
    const Eigen::VectorXd zbar = Z.colwise().mean().transpose();
    const Eigen::VectorXd y = dual_averaging_point(zbar, iota * A, gamma, l1, l2);  // y^(t) of (8)
    Xsum += a * X;
    Ysum += a * y;
    sum_ratio += a * a / (p.mu * iota * A + gamma);
    // Lemma 5 (21): theta = (1/n) sum_i eta_i zeta_i over the active nodes.
    Eigen::VectorXd theta = Eigen::VectorXd::Zero(m);
    for (Eigen::Index r = 0; r < zeta.rows(); ++r) theta += zeta.row(r).transpose();
    theta /= n;
    (void)active;
    l5_lhs += a * (theta.dot(y - xs) / iota + h_value(y, l1, l2) - h_value(xs, l1, l2));
    l5_rhs_printed += 0.5 * a * a / (iota * (p.mu * A + gamma)) * theta.squaredNorm();
    l5_rhs_modulus += 0.5 * a * a / (iota * (p.mu * iota * A + gamma)) * theta.squaredNorm();
    if (next < checkpoints.size() && t == checkpoints[next]) {
      DdaCheckpoint c;
      c.t = t;
      c.A = A;
      c.gamma = gamma;
      const Eigen::VectorXd ytilde = Ysum / A;
      double F = 0;
      for (const auto& f : prob.locals) F += f.value(ytilde);
      c.gap = F / n - Fstar;
      for (int i = 0; i < n; ++i) {
        const double e = (X.row(i).transpose() - y).norm();
        c.lemma4_mean += e / n;
        c.lemma4_mean_sq += e * e / n;
        const Eigen::VectorXd xt = Xsum.row(i).transpose() / A;
        c.xtilde_sq_error += (xt - xs).squaredNorm() / n;
        c.xtilde_consensus += (xt - ytilde).norm() / n;
      }
      c.lemma5_lhs = l5_lhs;
      c.lemma5_rhs_printed = l5_rhs_printed + gamma / iota * 0.5 * xs.squaredNorm();
      c.lemma5_rhs_modulus = l5_rhs_modulus + gamma / iota * 0.5 * xs.squaredNorm();
      c.sum_weight_ratio = sum_ratio;
      out.push_back(c);
      ++next;
    }
  };
  algorithms::Rng rng(seed);
  algorithms::seed004::run_dual_averaging(prob, gossip, s, rng);
  if (out.size() != checkpoints.size()) throw NotApplicable("the DDA run did not reach every checkpoint");
  return out;
}

}  // namespace dpl::proofs
