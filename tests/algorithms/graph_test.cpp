// SPDX-License-Identifier: Apache-2.0
// Graphs: constructors (edge counts, connectivity, normal form), Metropolis weights (symmetric, doubly
// stochastic, spectral gap > 0 on connected graphs), seed 001's negative-Laplacian form and its kappa, and the
// checks' ability to reject broken matrices.
#include "algorithms/graphs/graph.h"

#include "accounting/errors.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <map>
#include <set>

namespace dpl::algorithms {
namespace {

// Normal form: i < j, sorted unique edges, neighbourhoods consistent with edges and sorted.
bool well_formed(const Graph& g) {
  std::set<std::pair<int, int>> seen;
  for (const auto& [i, j] : g.edges) {
    if (!(0 <= i && i < j && j < g.nodes)) return false;
    if (!seen.insert({i, j}).second) return false;
  }
  if (static_cast<int>(g.neighbours.size()) != g.nodes) return false;
  std::size_t total = 0;
  for (int v = 0; v < g.nodes; ++v) {
    const auto& nb = g.neighbours[static_cast<std::size_t>(v)];
    if (!std::is_sorted(nb.begin(), nb.end())) return false;
    for (int w : nb)
      if (!seen.count({std::min(v, w), std::max(v, w)})) return false;
    total += nb.size();
  }
  return total == 2 * g.edges.size();
}

TEST(Graph, CompleteAndRing) {
  const Graph k5 = complete_graph(5);
  EXPECT_EQ(k5.edges.size(), 10u);
  EXPECT_TRUE(well_formed(k5));
  EXPECT_TRUE(k5.connected());
  const Graph r6 = ring_graph(6);
  EXPECT_EQ(r6.edges.size(), 6u);
  EXPECT_TRUE(well_formed(r6));
  for (int i = 0; i < 6; ++i) EXPECT_EQ(r6.degree(i), 2);
  EXPECT_EQ(ring_graph(2).edges.size(), 1u);
  EXPECT_THROW(ring_graph(1), InputError);
  EXPECT_THROW(complete_graph(0), InputError);
}

TEST(Graph, ConnectedDetectsAMissingBridge) {
  Graph g;
  g.nodes = 4;
  g.edges = {{0, 1}, {2, 3}};
  g.neighbours = {{1}, {0}, {3}, {2}};
  EXPECT_FALSE(g.connected());
  g.edges.emplace_back(1, 2);
  g.neighbours = {{1}, {0, 2}, {1, 3}, {2}};
  EXPECT_TRUE(g.connected());
}

RC_GTEST_PROP(GraphProperty, RandomConnectedGraphHasExactlyEEdgesAndIsConnected, ()) {
  const int n = *rc::gen::inRange(2, 30);
  const int max_e = n * (n - 1) / 2;
  const int e = *rc::gen::inRange(n - 1, max_e + 1);
  Rng rng(*rc::gen::arbitrary<std::uint64_t>());
  const Graph g = random_connected_graph(n, e, rng);
  RC_ASSERT(g.nodes == n);
  RC_ASSERT(static_cast<int>(g.edges.size()) == e);
  RC_ASSERT(well_formed(g));
  RC_ASSERT(g.connected());
}

TEST(Graph, PrueferTreesAreUniform) {
  // Cayley: K_4 has 4^2 = 16 labelled spanning trees; each should appear with frequency 1/16.
  Rng rng(21);
  std::map<std::vector<std::pair<int, int>>, int> counts;
  const int n = 32000;
  for (int i = 0; i < n; ++i) ++counts[random_connected_graph(4, 3, rng).edges];
  ASSERT_EQ(counts.size(), 16u);
  double chi = 0;
  for (const auto& [t, c] : counts) chi += (c - n / 16.0) * (c - n / 16.0) / (n / 16.0);
  EXPECT_LT(chi, 44.26);  // chi-square, 15 degrees of freedom, level 1e-4
}

TEST(Graph, RandomGraphRejectsImpossibleEdgeCounts) {
  Rng rng(1);
  try {
    random_connected_graph(5, 3, rng);
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("edges=3"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("[4, 10]"), std::string::npos);
  }
  EXPECT_THROW(random_connected_graph(5, 11, rng), InputError);
  EXPECT_THROW(random_connected_graph(1, 0, rng), InputError);
}

TEST(Graph, ErdosRenyiAndMakeGraph) {
  Rng rng(2);
  const Graph g = erdos_renyi_graph(12, 0.4, rng);
  EXPECT_TRUE(g.connected());
  EXPECT_TRUE(well_formed(g));
  EXPECT_THROW(erdos_renyi_graph(12, 0.0, rng), InputError);
  EXPECT_THROW(erdos_renyi_graph(40, 0.001, rng), InputError);  // never connected in 1000 draws
  EXPECT_EQ(make_graph("complete", 4, 99, rng).edges.size(), 6u);
  EXPECT_EQ(make_graph("ring", 4, 99, rng).edges.size(), 4u);
  EXPECT_EQ(make_graph("random", 10, 20, rng).edges.size(), 20u);
  EXPECT_EQ(make_graph("erdos-renyi", 5, 10, rng).edges.size(), 10u);  // p = 1
  EXPECT_THROW(make_graph("star", 4, 3, rng), InputError);
  EXPECT_THROW(make_graph("erdos-renyi", 5, 11, rng), InputError);
}

RC_GTEST_PROP(GraphProperty, MetropolisWeightsAreSymmetricDoublyStochasticWithAGap, ()) {
  const int n = *rc::gen::inRange(2, 25);
  const int e = *rc::gen::inRange(n - 1, n * (n - 1) / 2 + 1);
  Rng rng(*rc::gen::arbitrary<std::uint64_t>());
  const Graph g = random_connected_graph(n, e, rng);
  const Eigen::MatrixXd w = metropolis_weights(g);
  const WeightCheck c = check_mixing_matrix(w);
  RC_ASSERT(c.symmetric);
  RC_ASSERT(c.doubly_stochastic);
  RC_ASSERT(c.spectral_gap > 1e-9);  // connected graph: the second eigenvalue is inside (-1, 1)
  // Zero off the edges, positive on them.
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (i != j) {
        const bool edge = std::binary_search(g.neighbours[static_cast<std::size_t>(i)].begin(),
                                             g.neighbours[static_cast<std::size_t>(i)].end(), j);
        RC_ASSERT((edge ? w(i, j) > 0 : w(i, j) == 0));
      }
  const Eigen::MatrixXd l = negative_laplacian_weights(g);
  RC_ASSERT(l.rowwise().sum().cwiseAbs().maxCoeff() <= 1e-15);
  RC_ASSERT((l - w + Eigen::MatrixXd::Identity(n, n)).cwiseAbs().maxCoeff() <= 1e-15);
  const double kappa = wang_nedic_kappa(l);
  RC_ASSERT(kappa > 0);
  RC_ASSERT(std::fabs(kappa - c.spectral_gap) <= 1e-12);  // I + W' = metropolis: same matrix
}

TEST(Graph, MetropolisByHandOnAPath) {
  Graph g;  // path 0 - 1 - 2: degrees 1, 2, 1
  g.nodes = 3;
  g.edges = {{0, 1}, {1, 2}};
  g.neighbours = {{1}, {0, 2}, {1}};
  const Eigen::MatrixXd w = metropolis_weights(g);
  Eigen::MatrixXd expected(3, 3);
  expected << 2.0 / 3, 1.0 / 3, 0, 1.0 / 3, 1.0 / 3, 1.0 / 3, 0, 1.0 / 3, 2.0 / 3;
  EXPECT_LT((w - expected).cwiseAbs().maxCoeff(), 1e-15);
  // Eigenvalues of this W: 1, 2/3, 0 -> ||W - 11^T/3|| = 2/3.
  EXPECT_NEAR(check_mixing_matrix(w).spectral_norm_minus_average, 2.0 / 3, 1e-14);
  EXPECT_NEAR(check_mixing_matrix(w).spectral_gap, 1.0 / 3, 1e-14);
}

TEST(Graph, ChecksRejectBrokenMatrices) {
  Eigen::MatrixXd w = metropolis_weights(complete_graph(4));
  Eigen::MatrixXd bad = w;
  bad(0, 1) += 0.01;
  bad(0, 0) -= 0.01;  // rows still sum to 1 but not symmetric, columns off
  WeightCheck c = check_mixing_matrix(bad);
  EXPECT_FALSE(c.symmetric);
  EXPECT_FALSE(c.doubly_stochastic);
  Eigen::MatrixXd negative = Eigen::MatrixXd::Zero(2, 2);
  negative << 1.5, -0.5, -0.5, 1.5;  // symmetric, sums 1, negative entries
  c = check_mixing_matrix(negative);
  EXPECT_TRUE(c.symmetric);
  EXPECT_FALSE(c.doubly_stochastic);
  // Disconnected: two blocks -> spectral gap 0.
  Eigen::MatrixXd blocks = Eigen::MatrixXd::Zero(4, 4);
  blocks.topLeftCorner(2, 2).setConstant(0.5);
  blocks.bottomRightCorner(2, 2).setConstant(0.5);
  EXPECT_NEAR(check_mixing_matrix(blocks).spectral_gap, 0.0, 1e-14);
  // kappa: rows not summing to zero, asymmetric, or a disconnected Laplacian.
  EXPECT_LE(wang_nedic_kappa(w), 0.0);
  EXPECT_LE(wang_nedic_kappa(bad - Eigen::MatrixXd::Identity(4, 4)), 0.0);
  EXPECT_LE(wang_nedic_kappa(blocks - Eigen::MatrixXd::Identity(4, 4)), 1e-14);
}

}  // namespace
}  // namespace dpl::algorithms
