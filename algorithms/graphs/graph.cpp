// SPDX-License-Identifier: Apache-2.0
#include "algorithms/graphs/graph.h"

#include "accounting/errors.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <set>

namespace dpl::algorithms {

namespace {

void require_nodes(int n, const std::string& what, int min_nodes) {
  if (n < min_nodes)
    throw InputError(what + ": agents=" + std::to_string(n) + " is out of range: allowed integers >= " +
                     std::to_string(min_nodes));
}

// Builds the normalised graph (i < j, sorted, no duplicates) and its neighbourhoods.
Graph from_edge_set(int n, const std::set<std::pair<int, int>>& edge_set) {
  Graph g;
  g.nodes = n;
  g.neighbours.assign(static_cast<std::size_t>(n), {});
  for (const auto& [a, b] : edge_set) {
    g.edges.emplace_back(a, b);
    g.neighbours[static_cast<std::size_t>(a)].push_back(b);
    g.neighbours[static_cast<std::size_t>(b)].push_back(a);
  }
  for (auto& nb : g.neighbours) std::sort(nb.begin(), nb.end());
  return g;
}

std::pair<int, int> ordered(int a, int b) { return a < b ? std::pair{a, b} : std::pair{b, a}; }

double spectral_norm_symmetric(const Eigen::MatrixXd& m) {
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(m, Eigen::EigenvaluesOnly);
  return es.eigenvalues().cwiseAbs().maxCoeff();
}

}  // namespace

bool Graph::connected() const {
  if (nodes <= 1) return true;
  std::vector<char> seen(static_cast<std::size_t>(nodes), 0);
  std::vector<int> stack{0};
  seen[0] = 1;
  int count = 1;
  while (!stack.empty()) {
    const int v = stack.back();
    stack.pop_back();
    for (int w : neighbours[static_cast<std::size_t>(v)]) {
      if (!seen[static_cast<std::size_t>(w)]) {
        seen[static_cast<std::size_t>(w)] = 1;
        ++count;
        stack.push_back(w);
      }
    }
  }
  return count == nodes;
}

Graph complete_graph(int n) {
  require_nodes(n, "complete graph", 1);
  std::set<std::pair<int, int>> e;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) e.emplace(i, j);
  return from_edge_set(n, e);
}

Graph ring_graph(int n) {
  require_nodes(n, "ring graph", 2);
  std::set<std::pair<int, int>> e;
  for (int i = 0; i < n; ++i) e.insert(ordered(i, (i + 1) % n));
  return from_edge_set(n, e);
}

// Pruefer 1918: sequences in [0,n)^{n-2} are in bijection with labelled trees on n nodes, so a uniform
// sequence gives a uniform spanning tree of K_n (exact). Extra edges: uniform among the non-tree pairs.
Graph random_connected_graph(int n, int edges, Rng& rng) {
  require_nodes(n, "random graph", 2);
  const long long max_edges = static_cast<long long>(n) * (n - 1) / 2;
  if (edges < n - 1 || edges > max_edges)
    throw InputError("edges=" + std::to_string(edges) + " is out of range for " + std::to_string(n) +
                     " agents: allowed integers [" + std::to_string(n - 1) + ", " + std::to_string(max_edges) + "]");
  std::set<std::pair<int, int>> e;
  if (n == 2) {
    e.emplace(0, 1);
  } else {
    std::vector<int> seq(static_cast<std::size_t>(n - 2));
    for (auto& s : seq) s = static_cast<int>(rng.uniform_int(static_cast<std::uint64_t>(n)));
    std::vector<int> degree(static_cast<std::size_t>(n), 1);
    for (int s : seq) ++degree[static_cast<std::size_t>(s)];
    // Decoding: repeatedly join the smallest leaf to the next sequence element (O(n^2), n is small).
    for (int s : seq) {
      int leaf = 0;
      while (degree[static_cast<std::size_t>(leaf)] != 1) ++leaf;
      e.insert(ordered(leaf, s));
      --degree[static_cast<std::size_t>(leaf)];
      --degree[static_cast<std::size_t>(s)];
    }
    int u = -1, w = -1;
    for (int i = 0; i < n; ++i) {
      if (degree[static_cast<std::size_t>(i)] == 1) (u < 0 ? u : w) = i;
    }
    e.insert(ordered(u, w));
  }
  // Extra edges: a uniformly random subset of the remaining pairs, by a partial Fisher-Yates over them.
  std::vector<std::pair<int, int>> rest;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (!e.count({i, j})) rest.emplace_back(i, j);
  const auto need = static_cast<std::size_t>(edges) - e.size();
  for (std::size_t k = 0; k < need; ++k) {
    const auto r = k + static_cast<std::size_t>(rng.uniform_int(rest.size() - k));
    std::swap(rest[k], rest[r]);
    e.insert(rest[k]);
  }
  return from_edge_set(n, e);
}

Graph erdos_renyi_graph(int n, double p, Rng& rng) {
  require_nodes(n, "erdos-renyi graph", 2);
  if (!(p > 0 && p <= 1))
    throw InputError("erdos-renyi edge probability p=" + std::to_string(p) + " is out of range: allowed (0, 1]");
  for (int attempt = 0; attempt < 1000; ++attempt) {
    std::set<std::pair<int, int>> e;
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j)
        if (rng.uniform01() < p) e.emplace(i, j);
    Graph g = from_edge_set(n, e);
    if (g.connected()) return g;
  }
  throw InputError("erdos-renyi graph with " + std::to_string(n) + " agents and p=" + std::to_string(p) +
                   " was not connected in 1000 draws: raise edges (p = edges / (n(n-1)/2))");
}

Graph make_graph(const std::string& kind, int n, int edges, Rng& rng) {
  if (kind == "complete") return complete_graph(n);
  if (kind == "ring") return ring_graph(n);
  if (kind == "random") return random_connected_graph(n, edges, rng);
  if (kind == "erdos-renyi") {
    const double pairs = static_cast<double>(n) * (n - 1) / 2;
    if (edges < 1 || edges > pairs)
      throw InputError("edges=" + std::to_string(edges) + " is out of range for an erdos-renyi graph on " +
                       std::to_string(n) + " agents: allowed integers [1, " +
                       std::to_string(static_cast<long long>(pairs)) + "]");
    return erdos_renyi_graph(n, edges / pairs, rng);
  }
  throw InputError("graph=" + kind + " is not allowed: allowed values complete, ring, random, erdos-renyi");
}

// Metropolis-Hastings weights (Xiao, Boyd and Lall 2005, IPSN): w_ij = 1/(1+max(d_i,d_j)); exact.
Eigen::MatrixXd metropolis_weights(const Graph& g) {
  Eigen::MatrixXd w = Eigen::MatrixXd::Zero(g.nodes, g.nodes);
  for (const auto& [i, j] : g.edges) {
    const double v = 1.0 / (1.0 + std::max(g.degree(i), g.degree(j)));
    w(i, j) = v;
    w(j, i) = v;
  }
  for (int i = 0; i < g.nodes; ++i) w(i, i) = 1.0 - w.row(i).sum();
  return w;
}

Eigen::MatrixXd negative_laplacian_weights(const Graph& g) {
  Eigen::MatrixXd w = metropolis_weights(g);
  w.diagonal().array() -= 1.0;
  // Exact zero row sums: set the diagonal from the off-diagonal entries rather than by subtraction.
  for (int i = 0; i < g.nodes; ++i) {
    w(i, i) = 0;
    w(i, i) = -w.row(i).sum();
  }
  return w;
}

WeightCheck check_mixing_matrix(const Eigen::MatrixXd& w) {
  WeightCheck c;
  const auto n = w.rows();
  if (n == 0 || w.cols() != n) return c;
  const double tol = 1e-12;
  c.symmetric = (w - w.transpose()).cwiseAbs().maxCoeff() <= tol;
  const bool rows_ok = ((w.rowwise().sum().array() - 1.0).abs() <= tol).all();
  const bool cols_ok = ((w.colwise().sum().array() - 1.0).abs() <= tol).all();
  c.doubly_stochastic = rows_ok && cols_ok && (w.array() >= -tol).all();
  const Eigen::MatrixXd centred = w - Eigen::MatrixXd::Constant(n, n, 1.0 / static_cast<double>(n));
  if (c.symmetric) {
    c.spectral_norm_minus_average = spectral_norm_symmetric(0.5 * (centred + centred.transpose()));
  } else {
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(centred);
    c.spectral_norm_minus_average = svd.singularValues()(0);
  }
  c.spectral_gap = 1.0 - c.spectral_norm_minus_average;
  return c;
}

// Wang and Nedic, Assumption 1: kappa = 1 - ||I + W - 11^T/m||_2 (upper bound direction irrelevant: exact up
// to floating point); returns a non-positive value if W is not symmetric or W1 != 0.
double wang_nedic_kappa(const Eigen::MatrixXd& w) {
  const auto m = w.rows();
  if (m == 0 || w.cols() != m) return -1.0;
  const double tol = 1e-12;
  if ((w - w.transpose()).cwiseAbs().maxCoeff() > tol) return -1.0;
  if (w.rowwise().sum().cwiseAbs().maxCoeff() > tol) return -1.0;
  const Eigen::MatrixXd a = Eigen::MatrixXd::Identity(m, m) + w -
                            Eigen::MatrixXd::Constant(m, m, 1.0 / static_cast<double>(m));
  return 1.0 - spectral_norm_symmetric(0.5 * (a + a.transpose()));
}

}  // namespace dpl::algorithms
