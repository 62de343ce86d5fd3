// SPDX-License-Identifier: Apache-2.0
// What a reference-algorithm run returns: utility, the trace (iterates and what an adversary sees), and the
// privacy ledger: the paper's own claimed bound next to this tool's accounting of the same run.
#pragma once

#include "algorithms/run/run_parameters.h"

#include <Eigen/Dense>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace dpl::algorithms {

// One recorded iteration: every agent's state (rows = agents) and the messages the adversary observes at that
// iteration (rows = messages; empty if the algorithm only reveals states).
struct TraceStep {
  int iteration = 0;
  Eigen::MatrixXd states;
  Eigen::MatrixXd messages;
  double objective = 0;       // sum_i f_i at the network average (or the algorithm's output point)
  double consensus_error = 0;  // sum_i ||x_i - xbar||^2
  // For `run --plot`: how many steps of RunResult::mechanisms (in order) the run has used by this iteration (-1:
  // the run does not map its ledger to iterations), and the paper's claimed epsilon for the first `iteration`
  // iterations (NaN: the paper has no formula for it).
  std::int64_t ledger_steps = -1;
  double claimed_epsilon = std::numeric_limits<double>::quiet_NaN();
};

struct RunResult {
  std::string algorithm;
  Json parameters = Json::object();  // resolved, defaults filled in
  int iterations = 0;
  Eigen::VectorXd output;     // the algorithm's output point (network average unless the paper says otherwise)
  double objective = 0;       // sum_i f_i(output), or as objective_definition says
  double optimum = 0;         // the same objective at x* (solve_centralized)
  double suboptimality = 0;   // objective - optimum
  // The same objective at the run's starting point (x^0 averaged over the agents, z_0 = prox(u_0), ...) and at the
  // zero model x = 0 (a linear model's constant score: log 2 per record for logistic loss, 1 for hinge, the mean of
  // b^2/2 for squared loss): what a run must beat to have learned (learning_verdict.h). NaN until the run sets them.
  double start_objective = std::numeric_limits<double>::quiet_NaN();
  double baseline_objective = std::numeric_limits<double>::quiet_NaN();
  std::string objective_definition = "sum_i f_i at the output (the agents' objectives summed)";
  std::vector<TraceStep> trace;
  // The paper's claimed privacy (its own formula, with the theorem cited) and this tool's certified
  // accounting of the same run (through accounting/). Each is a JSON object with at least "epsilon"
  // (number or "inf"), "delta", "source"/"method".
  Json claimed = Json::object();
  Json accounted = Json::object();
  // The mechanism ledger the accounted epsilon composes, one JSON object per entry with the keys of the `-m`
  // specs ({"mechanism":"laplace","b":...,"sens":...,"steps":...}), for `--ledger-out`; empty when the run has no
  // ledger (noise off, diverged) or its accounting is not a composition of such entries.
  Json mechanisms = Json::array();
  // When the accounted epsilon is not a composition of ledger entries: exactly what the ledger format cannot
  // express (for the --ledger-out refusal); empty otherwise.
  std::string ledger_not_expressible;
  // Algorithm-specific extras (e.g. seed 000's realised average-case loss, rate fits).
  Json extra = Json::object();
};

}  // namespace dpl::algorithms
