// SPDX-License-Identifier: Apache-2.0
#include "algorithms/baselines/pdop.h"

#include "accounting/errors.h"
#include "algorithms/graphs/graph.h"

#include <algorithm>
#include <cmath>

namespace dpl::algorithms::baselines {

namespace {

Eigen::VectorXd clip_l1(const Eigen::VectorXd& g, double C) {
  const double n = g.lpNorm<1>();
  return n > C ? Eigen::VectorXd(g * (C / n)) : g;
}

void validate(const PdopConfig& c) {
  if (!(c.q > 0 && c.q < c.p && c.p < 1))
    throw InputError("PDOP: allowed 0 < q < p < 1 (q = " + std::to_string(c.q) + ", p = " + std::to_string(c.p) + ")");
  if (!(c.c > 0) || !(c.c_p > 0) || !(c.C > 0)) throw InputError("PDOP: c, c_p and C must be > 0");
}

}  // namespace

// Huang, Mitra and Vaidya 2015, Thm 2's budget (upper bound): eps = 2 C c p / (c_p (p - q)).
double pdop_noise_scale_for(double epsilon, const PdopConfig& c) {
  validate(c);
  if (!(epsilon > 0)) throw InputError("PDOP: epsilon must be > 0");
  return 2 * c.C * c.c * c.p / (epsilon * (c.p - c.q));
}

PdopRun run_pdop(const DistributedProblem& problem, const PdopConfig& c, const Eigen::MatrixXd& x_start, Rng& rng) {
  validate(c);
  const int m = problem.agents(), d = problem.dim();
  const Eigen::MatrixXd W = metropolis_weights(problem.graph);
  Eigen::MatrixXd X = x_start, Y(m, d), next(m, d);
  PdopRun run;
  std::int64_t record = 1;
  double gamma = c.c, scale = c.c_p;
  for (std::int64_t k = 0; k < c.iterations; ++k) {
    Y = X;
    if (c.noise)
      for (int j = 0; j < m; ++j)
        for (int l = 0; l < d; ++l) Y(j, l) += rng.laplace_scale(scale);
    const Eigen::MatrixXd V = W * Y;  // closed-neighbourhood averages of the broadcasts (public)
    for (int i = 0; i < m; ++i) {
      const Eigen::VectorXd v = V.row(i).transpose();
      const auto& f = problem.locals[static_cast<std::size_t>(i)];
      const Eigen::VectorXd g = clip_l1(f.regularizer().l1 > 0 ? f.subgradient(v) : f.gradient(v), c.C);
      next.row(i) = (v - gamma * g).transpose();
    }
    X.swap(next);
    scale *= c.p;  // M_{k+1}: the scale of the broadcast of the state just computed
    run.epsilon += 2 * c.C * gamma / scale;
    gamma *= c.q;
    const std::int64_t done = k + 1;
    if (done == record || done == c.iterations) {
      run.iterations.push_back(done);
      run.optimality_error.push_back((X.rowwise() - problem.optimum.x.transpose()).rowwise().norm().sum());
      if (done == record) record = std::max(done + 1, static_cast<std::int64_t>(std::ceil(static_cast<double>(done) * 1.12)));
    }
  }
  run.states = X;
  return run;
}

}  // namespace dpl::algorithms::baselines
