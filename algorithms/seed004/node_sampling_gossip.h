// SPDX-License-Identifier: Apache-2.0
// The random gossip of Liu, Johansson and Shi ("Privacy Amplification via Node Sampling for Distributed
// Empirical Risk Minimization", Definition 3 and Assumption 2): at every step a random set of active nodes and a
// doubly-stochastic W^(t) supported on them (inactive rows e_i^T), with Metropolis weights on the sampled
// subgraph (the paper's experiments), and each node's exact marginal activation probability.
#pragma once

#include "algorithms/graphs/graph.h"
#include "algorithms/rng/portable_rng.h"

#include <string>
#include <utility>
#include <vector>

namespace dpl::algorithms::seed004 {

enum class Activation {
  edges,  // `count` distinct edges of the supergraph, uniformly; active = their endpoints (the experiments)
  nodes,  // `count` nodes uniformly (Definition 3); W = Metropolis on the supergraph induced on them
  all     // every node, W = Metropolis weights of the supergraph, fixed (conventional DDA)
};
Activation parse_activation(const std::string& key, const std::string& value);
std::string to_string(Activation a);

struct GossipStep {
  std::vector<int> active;                          // sorted
  std::vector<std::vector<std::pair<int, double>>> rows;  // per active node (same order): (j, w_ij), j incl. itself
};

class NodeSamplingGossip {
 public:
  // Throws InputError naming `count_key` if count is out of range (edges: [1, |E|]; nodes: [1, n]).
  NodeSamplingGossip(const Graph& supergraph, Activation scheme, int count, const std::string& count_key);
  GossipStep draw(Rng& rng) const;
  // Exact per-node marginal activation probabilities: edges 1 - C(|E| - d_i, k)/C(|E|, k); nodes k/n; all 1.
  const std::vector<double>& marginals() const { return marginals_; }
  // E|N^(t)|/n (the iota that makes (6) unbiased, Sec. 3.2) and the paper's nominal count: 2k/n for k edges
  // ("2 or 4 sampled nodes"), k/n for k nodes, 1 for all.
  double mean_marginal() const;
  double nominal_iota() const;

 private:
  std::vector<std::vector<std::pair<int, double>>> metropolis_rows(const std::vector<int>& active,
                                                                   const std::vector<std::pair<int, int>>& edges) const;
  const Graph& g_;
  Activation scheme_;
  int count_;
  std::vector<double> marginals_;
  GossipStep fixed_;  // Activation::all: the same W every step
};

}  // namespace dpl::algorithms::seed004
