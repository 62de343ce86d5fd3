// SPDX-License-Identifier: Apache-2.0
// The common set-up of every distributed run: data (shipped, a user file, or synthetic), its split across the
// agents, the local objectives, the graph, and the non-private optimum. The keys it reads are the same for
// every algorithm; each algorithm passes its paper's defaults.
#pragma once

#include "algorithms/graphs/graph.h"
#include "algorithms/problems/centralized_optimum.h"
#include "algorithms/problems/local_objective.h"
#include "algorithms/run/run_parameters.h"

#include <string>
#include <vector>

namespace dpl::algorithms {

struct ProblemDefaults {
  std::string data = "breast_cancer";  // shipped name, a .csv/.libsvm path, or "synthetic"
  int agents = 10;                     // N
  int per_agent = 0;                   // rows per agent (0 = split all rows evenly)
  std::string graph = "random";        // complete | ring | random | erdos-renyi
  int edges = 20;                      // |E| for random / erdos-renyi
  std::string loss = "logistic";
  double l2 = 1.0;                     // seed 000's experiments: + (1/2)||x||^2 per agent
  double l1 = 0.0;
  int synthetic_rows = 1000, synthetic_dim = 14;
};

struct DistributedProblem {
  std::vector<LocalObjective> locals;
  Graph graph;
  Optimum optimum;
  int dim() const { return locals.front().dim(); }
  int agents() const { return static_cast<int>(locals.size()); }
  // rows x features over all agents (the cost of one pass over the data).
  double data_values() const {
    double v = 0;
    for (const auto& f : locals) v += static_cast<double>(f.rows()) * f.dim();
    return v;
  }
};

// Declared reads (with `defaults`): data, agents, per_agent, graph, edges, loss, l2, l1, huber_delta,
// synthetic_rows, synthetic_dim. Does not call reject_unknown(). Data come through preprocess() (binary labels
// to +-1 and features to [0,1] with unit rows) except for squared loss (labels kept). The graph and the split
// use `rng`. Solves the optimum (can take a moment for large data).
DistributedProblem setup_problem(RunParameters& params, const ProblemDefaults& defaults, Rng& rng);

}  // namespace dpl::algorithms
