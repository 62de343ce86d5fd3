// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed003/run_common.h"

#include <algorithm>

namespace dpl::algorithms::seed003 {

void finish_seed003_result(RunResult& r, const RunParameters& params, std::int64_t iterations,
                           const Eigen::VectorXd& output, const ErmProblem& problem, const Eigen::VectorXd& start) {
  r.parameters = params.resolved();
  r.iterations = static_cast<int>(iterations);
  r.output = output;
  r.objective = problem.objective(output);
  r.optimum = problem.optimum_value;
  r.suboptimality = r.objective - r.optimum;
  r.start_objective = problem.objective(start);
  r.baseline_objective = problem.objective(Eigen::VectorXd::Zero(problem.dim()));
  r.objective_definition = "F(z) = (1/n) sum_i loss_i(z) + r(z) at the released z (Cyffers, Bellet and Basu 2023's ERM objective)";
  r.extra["objective_definition"] = "F(x) = (1/n) sum_i loss_i(x) + r(x) on the training records (one per user)";
  r.extra["test_objective"] = problem.test_objective(output);
  r.extra["test_objective_at_optimum"] = problem.test_objective(problem.optimum);
  r.extra["test_objective_zero_model"] = problem.test_objective(Eigen::VectorXd::Zero(problem.dim()));
  r.extra["optimum_method"] = problem.optimum_method;
  r.extra["records"] = problem.records();
}

TraceStep trace_point(std::int64_t k, const Eigen::VectorXd& z, const ErmProblem& problem) {
  TraceStep t;
  t.iteration = static_cast<int>(k);
  t.states = z.transpose();
  t.objective = problem.objective(z);
  return t;
}

std::int64_t trace_stride(std::int64_t iterations) { return std::max<std::int64_t>(1, iterations / 100); }

}  // namespace dpl::algorithms::seed003
