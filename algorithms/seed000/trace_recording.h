// SPDX-License-Identifier: Apache-2.0
// Recording one iteration of a seed-000 run: the states, the adversary's messages, the objective at the network
// average and the consensus error (run_result.h TraceStep), and the checks every run shares.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "algorithms/problems/local_objective.h"
#include "algorithms/run/problem_setup.h"
#include "algorithms/run/run_parameters.h"
#include "algorithms/run/run_result.h"

namespace dpl::algorithms {

// Row mean of `states` (rows = agents).
Eigen::VectorXd network_average(const Eigen::MatrixXd& states);
// sum_i ||x_i - xbar||^2.
double consensus_error(const Eigen::MatrixXd& states);
// A TraceStep with the objective sum_i f_i at `point`.
TraceStep record_step(int iteration, const Eigen::MatrixXd& states, const Eigen::MatrixXd& messages,
                      const std::vector<LocalObjective>& locals, const Eigen::VectorXd& point);
// True if every entry is finite and below 1e150 in magnitude (a diverging run is stopped, not overflowed).
bool bounded_states(const Eigen::MatrixXd& states);
// True if some entry is non-finite or above 1e6 * scale in magnitude (scale: the largest magnitude a converging
// run can plausibly reach, e.g. max of 1, the start, the optimum and the noise's 1 - e^{-50} quantile): an
// exploding run, stopped before it overflows.
bool exploding_states(const Eigen::MatrixXd& states, double scale);
// Fills the parameters (params.resolved()), the number of iterations run, and output, objective, optimum and
// suboptimality of `result` at `point`.
void finish_result(RunResult& result, const RunParameters& params, int iterations, const Eigen::VectorXd& point,
                   const DistributedProblem& problem);
// Sets result.start_objective (sum_i f_i at `start`, the run's starting point averaged over the agents) and
// result.baseline_objective (sum_i f_i at x = 0, the zero model), both times `scale` (1/n for a mean over agents).
void record_start_and_baseline(RunResult& result, const DistributedProblem& problem, const Eigen::VectorXd& start,
                               double scale = 1.0);

}  // namespace dpl::algorithms
