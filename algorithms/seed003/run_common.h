// SPDX-License-Identifier: Apache-2.0
// Shared pieces of the seed-003 runs: the released point's utility and trace, and the JSON of the accounting.
#pragma once

#include "algorithms/run/run_result.h"
#include "algorithms/seed003/erm_problem.h"

#include <cstdint>

namespace dpl::algorithms::seed003 {

// Fills parameters, iterations, output, objective (F at the output), optimum, suboptimality, the start (F at
// `start`, the run's first released point) and the zero model's F, and the test objective (extra).
void finish_seed003_result(RunResult& r, const RunParameters& params, std::int64_t iterations,
                           const Eigen::VectorXd& output, const ErmProblem& problem, const Eigen::VectorXd& start);
// One trace row: the released point z (1 x p) and F(z).
TraceStep trace_point(std::int64_t k, const Eigen::VectorXd& z, const ErmProblem& problem);
// Every how many iterations a run keeps a trace row (about 100 rows).
std::int64_t trace_stride(std::int64_t iterations);

}  // namespace dpl::algorithms::seed003
