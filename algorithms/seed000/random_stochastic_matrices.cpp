// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed000/random_stochastic_matrices.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "accounting/errors.h"
#include "accounting/numeric/portable_math.h"

namespace dpl::algorithms {

namespace {

void require_neighbours(const Graph& g) {
  for (int i = 0; i < g.nodes; ++i)
    if (g.degree(i) == 0)
      throw InputError("graph: node " + std::to_string(i) + " has no neighbour (Sec. 3.3 models need degree >= 1)");
}

}  // namespace

// Xiao 2019 Sec. 3.3, Fig. 3-1 and Fig. 3-2 generators (Fig. 3-2 with the factor 2 that makes rows sum to 1).
Eigen::MatrixXd random_stochastic_matrix(const Graph& g, StochasticMatrixModel model, Rng& rng) {
  require_neighbours(g);
  Eigen::MatrixXd w = Eigen::MatrixXd::Zero(g.nodes, g.nodes);
  for (int i = 0; i < g.nodes; ++i) {
    const auto& nb = g.neighbours[static_cast<std::size_t>(i)];
    const double di = static_cast<double>(nb.size());
    const double r = rng.uniform01();
    if (model == StochasticMatrixModel::self_weight) {
      w(i, i) = r;
      for (int j : nb) w(i, j) = (1 - r) / di;
    } else {
      std::vector<int> closed = nb;
      closed.push_back(i);
      for (int j : closed) w(i, j) = 1 / (di + 1);
      const auto m = static_cast<std::uint64_t>(closed.size());
      const auto a = rng.uniform_int(m);
      auto b = rng.uniform_int(m - 1);
      if (b >= a) ++b;  // j2 uniform among the others: (j1, j2) a uniform ordered pair of distinct nodes
      w(i, closed[a]) = 2 * r / (di + 1);
      w(i, closed[b]) = 2 * (1 - r) / (di + 1);
    }
  }
  return w;
}

Eigen::MatrixXd expected_stochastic_matrix(const Graph& g, StochasticMatrixModel model) {
  require_neighbours(g);
  Eigen::MatrixXd w = Eigen::MatrixXd::Zero(g.nodes, g.nodes);
  for (int i = 0; i < g.nodes; ++i) {
    const auto& nb = g.neighbours[static_cast<std::size_t>(i)];
    const double di = static_cast<double>(nb.size());
    if (model == StochasticMatrixModel::self_weight) {
      w(i, i) = 0.5;
      for (int j : nb) w(i, j) = 0.5 / di;
    } else {
      w(i, i) = 1 / (di + 1);
      for (int j : nb) w(i, j) = 1 / (di + 1);
    }
  }
  return w;
}

// Xiao 2019 Lemma 3.3.1, model (b).
Eigen::MatrixXd half_split_random_matrix(int n, Rng& rng) {
  if (n < 2 || n % 2 != 0) throw InputError("agents=" + std::to_string(n) + " is out of range: allowed even N >= 2");
  Eigen::MatrixXd w(n, n);
  for (int i = 0; i < n; ++i) {
    const double r = rng.uniform01();
    for (int j = 0; j < n; ++j) w(i, j) = (j < n / 2 ? r : 1 - r) * 2.0 / n;
  }
  return w;
}

double spread(const Eigen::VectorXd& v) { return v.maxCoeff() - v.minCoeff(); }

namespace {
double mean_column_spread(const Eigen::MatrixXd& p) {
  double s = 0;
  for (Eigen::Index j = 0; j < p.cols(); ++j) s += spread(p.col(j));
  return s / static_cast<double>(p.cols());
}
}  // namespace

std::vector<double> consensus_decay(const Graph& g, StochasticMatrixModel model, bool random, int k_max, int draws,
                                    Rng& rng) {
  if (k_max < 1) throw InputError("k_max=" + std::to_string(k_max) + " is out of range: allowed [1, inf)");
  if (random && draws < 1) throw InputError("draws=" + std::to_string(draws) + " is out of range: allowed [1, inf)");
  std::vector<double> out(static_cast<std::size_t>(k_max), 0.0);
  const int runs = random ? draws : 1;
  const Eigen::MatrixXd fixed = expected_stochastic_matrix(g, model);
  for (int r = 0; r < runs; ++r) {
    Eigen::MatrixXd p = Eigen::MatrixXd::Identity(g.nodes, g.nodes);
    for (int k = 0; k < k_max; ++k) {
      p = (random ? random_stochastic_matrix(g, model, rng) : fixed) * p;  // P_K = W_K P_{K-1}
      out[static_cast<std::size_t>(k)] += mean_column_spread(p) / runs;
    }
  }
  return out;
}

LogLinearFit fit_log_linear(const std::vector<double>& values) {
  const auto n = static_cast<double>(values.size());
  if (values.size() < 2) throw InputError("fit: need at least two values");
  double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (!(values[k] > 0)) throw InputError("fit: values must be positive");
    const double x = static_cast<double>(k + 1), y = portable::binary64::log(values[k]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
    syy += y * y;
  }
  LogLinearFit f;
  const double vx = sxx - sx * sx / n, vy = syy - sy * sy / n, cxy = sxy - sx * sy / n;
  f.slope = cxy / vx;
  f.intercept = (sy - f.slope * sx) / n;
  f.r_squared = vy > 0 ? cxy * cxy / (vx * vy) : 1.0;
  return f;
}

LemmaCheck lemma_331_check(int n, int draws, Rng& rng) {
  if (draws < 1) throw InputError("draws=" + std::to_string(draws) + " is out of range: allowed [1, inf)");
  LemmaCheck c;
  double pairs = 0;
  for (int t = 0; t < draws; ++t) {
    const Eigen::MatrixXd w1 = half_split_random_matrix(n, rng);
    const Eigen::MatrixXd w2 = half_split_random_matrix(n, rng);
    const Eigen::MatrixXd prod = w1 * w2;
    double lhs = 0;
    for (int i1 = 0; i1 < n; ++i1)
      for (int i2 = i1 + 1; i2 < n; ++i2)
        for (int j = 0; j < n; ++j) lhs += std::fabs(prod(i1, j) - prod(i2, j));
    pairs = 0.5 * n * (n - 1) * n;
    c.lhs += lhs / pairs;
    double rhs = 0;
    for (int j = 0; j < n; ++j) rhs += spread(w2.col(j));
    c.rhs += rhs / n;
  }
  c.lhs /= draws;
  c.rhs /= draws;
  return c;
}

}  // namespace dpl::algorithms
