// SPDX-License-Identifier: Apache-2.0
// The declared data domain of a run (key `domain`) and the data-independent bounds of an agent's objective that
// every privacy ledger uses (algorithms/problems/sensitivity_bounds.h): the sensitivities never look at the
// private rows, only at the domain, the loss, the regulariser and the agent's (public) number of rows.
#pragma once

#include "algorithms/problems/sensitivity_bounds.h"
#include "algorithms/run/problem_setup.h"
#include "algorithms/run/run_parameters.h"

namespace dpl::algorithms {

// Declared read of `domain`: unit-rows (default) | unit-cube.
DataDomain read_data_domain(RunParameters& params);

// Checks every agent's rows against `domain` (InputError naming the agent, the row and the violated constraint:
// the run's data must lie in the domain its ledger assumes) and returns loss_bounds() for agent `agent`'s
// objective. Throws InputError if `agent` is not an agent.
LossBounds agent_loss_bounds(const DistributedProblem& problem, DataDomain domain, int agent);

// The largest replace-one sensitivities over all agents (the agent with the fewest rows), same checks.
LossBounds worst_agent_loss_bounds(const DistributedProblem& problem, DataDomain domain);

}  // namespace dpl::algorithms
