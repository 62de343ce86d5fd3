// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed000/trace_recording.h"

#include <algorithm>
#include <cmath>

namespace dpl::algorithms {

Eigen::VectorXd network_average(const Eigen::MatrixXd& states) { return states.colwise().mean().transpose(); }

double consensus_error(const Eigen::MatrixXd& states) {
  const Eigen::RowVectorXd mean = states.colwise().mean();
  return (states.rowwise() - mean).squaredNorm();
}

TraceStep record_step(int iteration, const Eigen::MatrixXd& states, const Eigen::MatrixXd& messages,
                      const std::vector<LocalObjective>& locals, const Eigen::VectorXd& point) {
  TraceStep t;
  t.iteration = iteration;
  t.states = states;
  t.messages = messages;
  t.objective = bounded_states(point.transpose()) ? total_objective(locals, point) : HUGE_VAL;
  t.consensus_error = consensus_error(states);
  return t;
}

bool bounded_states(const Eigen::MatrixXd& states) {
  for (Eigen::Index i = 0; i < states.size(); ++i)
    if (!(std::fabs(states.data()[i]) < 1e150)) return false;
  return true;
}

bool exploding_states(const Eigen::MatrixXd& states, double scale) {
  const double limit = std::min(1e150, 1e6 * scale);
  for (Eigen::Index i = 0; i < states.size(); ++i)
    if (!(std::fabs(states.data()[i]) <= limit)) return true;
  return false;
}

void finish_result(RunResult& result, const RunParameters& params, int iterations, const Eigen::VectorXd& point,
                   const DistributedProblem& problem) {
  result.parameters = params.resolved();
  result.iterations = iterations;
  result.output = point;
  result.objective = bounded_states(point.transpose()) ? total_objective(problem.locals, point) : HUGE_VAL;
  result.optimum = problem.optimum.value;
  result.suboptimality = result.objective - problem.optimum.value;
}

}  // namespace dpl::algorithms

namespace dpl::algorithms {

void record_start_and_baseline(RunResult& result, const DistributedProblem& problem, const Eigen::VectorXd& start,
                               double scale) {
  result.start_objective =
      bounded_states(start.transpose()) ? scale * total_objective(problem.locals, start) : HUGE_VAL;
  result.baseline_objective = scale * total_objective(problem.locals, Eigen::VectorXd::Zero(problem.dim()));
}

}  // namespace dpl::algorithms
