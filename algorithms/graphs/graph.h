// SPDX-License-Identifier: Apache-2.0
// Communication graphs of the distributed algorithms, their weight matrices, and checks of the papers'
// assumptions (doubly stochastic; seed 001 Assumption 1; spectral gap).
#pragma once

#include "algorithms/rng/portable_rng.h"

#include <Eigen/Dense>

#include <string>
#include <utility>
#include <vector>

namespace dpl::algorithms {

struct Graph {
  int nodes = 0;
  std::vector<std::pair<int, int>> edges;   // undirected, i < j, no duplicates
  std::vector<std::vector<int>> neighbours;  // open neighbourhoods, sorted
  int degree(int i) const { return static_cast<int>(neighbours[i].size()); }
  bool connected() const;
};

Graph complete_graph(int n);
Graph ring_graph(int n);
// A uniformly random spanning tree (random Pruefer sequence) plus uniformly chosen extra edges, to exactly
// `edges` edges; requires n - 1 <= edges <= n (n - 1) / 2 (InputError otherwise).
Graph random_connected_graph(int n, int edges, Rng& rng);
// G(n, p), redrawn until connected (at most 1000 tries, then InputError).
Graph erdos_renyi_graph(int n, double p, Rng& rng);
// By name: "complete", "ring", "random" (n, edges), "erdos-renyi" (n, p = edges / (n(n-1)/2)).
Graph make_graph(const std::string& kind, int n, int edges, Rng& rng);

// Metropolis-Hastings weights: w_ij = 1/(1 + max(d_i, d_j)) on edges, w_ii = 1 - sum_j w_ij. Symmetric,
// doubly stochastic.
Eigen::MatrixXd metropolis_weights(const Graph& g);
// Seed 001's form: W = metropolis - I, i.e. w_ij > 0 on edges and w_ii = -sum_j w_ij (a negative Laplacian).
Eigen::MatrixXd negative_laplacian_weights(const Graph& g);

struct WeightCheck {
  bool symmetric = false;
  bool doubly_stochastic = false;  // rows and columns sum to 1, entries >= 0 (tolerance 1e-12)
  double spectral_norm_minus_average = 0;  // ||W - 11^T/n||_2
  double spectral_gap = 0;                 // 1 - ||W - 11^T/n||_2
};
WeightCheck check_mixing_matrix(const Eigen::MatrixXd& w);
// Seed 001 Assumption 1: W symmetric, W1 = 0, ||I + W - 11^T/m|| < 1; returns kappa = 1 - that norm (<= 0 if
// the assumption fails).
double wang_nedic_kappa(const Eigen::MatrixXd& w);

}  // namespace dpl::algorithms
