// SPDX-License-Identifier: Apache-2.0
// `dpledger run ALGORITHM --plot FILE.svg`: one SVG with two panels over the iterations of the run, utility on top
// (the suboptimality F(x_t) - F* of the trace, log scale; the objective where no point is above the optimum) and
// the running epsilon below: the accounted one is the accountant of the run applied to the prefix of the run's
// ledger used by iteration t (accounting/composition/running_budget.h: certified, non-decreasing), the claimed one
// the paper's formula at t where the algorithm provides it; otherwise the final values are marked at the last
// iteration and the legend says why.
#pragma once

#include "algorithms/run/run_result.h"
#include "cli/output.h"

#include <string>

namespace dpl::cli {

struct RunPlot {
  std::string svg;
  Json summary;  // {"file"?, "panels": [...], "series": [names], "running_epsilon": {iterations, accounted, claimed}}
};

// Throws InputError when the run has no trace.
RunPlot run_plot(const algorithms::RunResult& r);

}  // namespace dpl::cli
