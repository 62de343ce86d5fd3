// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed004/node_sampling_gossip.h"

#include "accounting/errors.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace dpl::algorithms::seed004 {

Activation parse_activation(const std::string& key, const std::string& value) {
  if (value == "edges") return Activation::edges;
  if (value == "nodes") return Activation::nodes;
  if (value == "all") return Activation::all;
  throw InputError(key + "=" + value + " is not allowed: allowed values edges, nodes, all");
}

std::string to_string(Activation a) {
  switch (a) {
    case Activation::edges: return "edges";
    case Activation::nodes: return "nodes";
    case Activation::all: return "all";
  }
  return "?";
}

NodeSamplingGossip::NodeSamplingGossip(const Graph& supergraph, Activation scheme, int count,
                                       const std::string& count_key)
    : g_(supergraph), scheme_(scheme), count_(count) {
  const int n = g_.nodes;
  const auto E = static_cast<int>(g_.edges.size());
  if (scheme == Activation::edges && (count < 1 || count > E))
    throw InputError(count_key + "=" + std::to_string(count) + " is out of range: allowed integers [1, " +
                     std::to_string(E) + "] (edges of the graph)");
  if (scheme == Activation::nodes && (count < 1 || count > n))
    throw InputError(count_key + "=" + std::to_string(count) + " is out of range: allowed integers [1, " +
                     std::to_string(n) + "] (agents)");
  marginals_.assign(static_cast<std::size_t>(n), 1.0);
  for (int i = 0; i < n; ++i) {
    if (scheme == Activation::nodes) {
      marginals_[static_cast<std::size_t>(i)] = static_cast<double>(count) / n;
    } else if (scheme == Activation::edges) {
      // P(no sampled edge touches i) = prod_{j<k} (|E| - d_i - j)/(|E| - j) (k edges without replacement).
      double none = 1;
      for (int j = 0; j < count; ++j) none *= std::max(0.0, static_cast<double>(E - g_.degree(i) - j)) / (E - j);
      marginals_[static_cast<std::size_t>(i)] = 1 - none;
    }
  }
  if (scheme == Activation::all) {
    for (int i = 0; i < n; ++i) fixed_.active.push_back(i);
    fixed_.rows = metropolis_rows(fixed_.active, g_.edges);
  }
}

double NodeSamplingGossip::mean_marginal() const {
  double s = 0;
  for (double p : marginals_) s += p;
  return s / static_cast<double>(marginals_.size());
}

double NodeSamplingGossip::nominal_iota() const {
  switch (scheme_) {
    case Activation::edges: return std::min(1.0, 2.0 * count_ / g_.nodes);
    case Activation::nodes: return static_cast<double>(count_) / g_.nodes;
    case Activation::all: return 1.0;
  }
  return 1.0;
}

// Metropolis weights on a subgraph (Xiao, Boyd and Kim 2007): w_ij = 1/(1 + max(d_i, d_j)) with the subgraph's
// degrees, w_ii = 1 - sum_j w_ij; symmetric and doubly stochastic.
std::vector<std::vector<std::pair<int, double>>> NodeSamplingGossip::metropolis_rows(
    const std::vector<int>& active, const std::vector<std::pair<int, int>>& edges) const {
  std::map<int, int> degree;
  for (int i : active) degree[i] = 0;
  for (const auto& [a, b] : edges) {
    ++degree[a];
    ++degree[b];
  }
  std::map<int, std::vector<std::pair<int, double>>> rows;
  for (const auto& [a, b] : edges) {
    const double w = 1.0 / (1 + std::max(degree[a], degree[b]));
    rows[a].emplace_back(b, w);
    rows[b].emplace_back(a, w);
  }
  std::vector<std::vector<std::pair<int, double>>> out;
  for (int i : active) {
    auto r = rows[i];
    double s = 0;
    for (const auto& [j, w] : r) s += w;
    r.emplace_back(i, 1 - s);
    out.push_back(std::move(r));
  }
  return out;
}

GossipStep NodeSamplingGossip::draw(Rng& rng) const {
  GossipStep s;
  std::vector<std::pair<int, int>> edges;
  if (scheme_ == Activation::all) return fixed_;
  if (scheme_ == Activation::edges) {
    // k distinct edges uniformly: a partial Fisher-Yates over the edge indices.
    const auto E = static_cast<int>(g_.edges.size());
    std::vector<int> idx(static_cast<std::size_t>(E));
    for (int e = 0; e < E; ++e) idx[static_cast<std::size_t>(e)] = e;
    std::set<int> act;
    for (int j = 0; j < count_; ++j) {
      const auto pick = j + static_cast<int>(rng.uniform_int(static_cast<std::uint64_t>(E - j)));
      std::swap(idx[static_cast<std::size_t>(j)], idx[static_cast<std::size_t>(pick)]);
      const auto& e = g_.edges[static_cast<std::size_t>(idx[static_cast<std::size_t>(j)])];
      edges.push_back(e);
      act.insert(e.first);
      act.insert(e.second);
    }
    s.active.assign(act.begin(), act.end());
  } else {
    std::vector<int> perm = rng.permutation(g_.nodes);
    s.active.assign(perm.begin(), perm.begin() + count_);
    std::sort(s.active.begin(), s.active.end());
    const std::set<int> act(s.active.begin(), s.active.end());
    for (const auto& e : g_.edges)
      if (act.count(e.first) && act.count(e.second)) edges.push_back(e);
  }
  s.rows = metropolis_rows(s.active, edges);
  return s;
}

}  // namespace dpl::algorithms::seed004
