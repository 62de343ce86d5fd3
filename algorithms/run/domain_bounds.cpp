// SPDX-License-Identifier: Apache-2.0
#include "algorithms/run/domain_bounds.h"

#include "accounting/errors.h"

namespace dpl::algorithms {

namespace {

void require_problem_in_domain(const DistributedProblem& problem, DataDomain domain) {
  for (int i = 0; i < problem.agents(); ++i) {
    const LocalObjective& f = problem.locals[static_cast<std::size_t>(i)];
    require_in_domain(f.data(), domain, f.loss(), "data " + f.data().name);
  }
}

LossBounds bounds_of(const LocalObjective& f, DataDomain domain) {
  return loss_bounds(f.loss(), f.regularizer(), f.huber_delta(), domain, f.dim(), f.rows());
}

}  // namespace

DataDomain read_data_domain(RunParameters& params) {
  return parse_data_domain("domain", params.choice("domain", "unit-rows", {"unit-rows", "unit-cube"}));
}

LossBounds agent_loss_bounds(const DistributedProblem& problem, DataDomain domain, int agent) {
  if (agent < 0 || agent >= problem.agents())
    throw InputError("target=" + std::to_string(agent) + " is out of range: allowed [0, agents-1=" +
                     std::to_string(problem.agents() - 1) + "]");
  require_problem_in_domain(problem, domain);
  return bounds_of(problem.locals[static_cast<std::size_t>(agent)], domain);
}

LossBounds worst_agent_loss_bounds(const DistributedProblem& problem, DataDomain domain) {
  require_problem_in_domain(problem, domain);
  int fewest = 0;
  for (int i = 1; i < problem.agents(); ++i)
    if (problem.locals[static_cast<std::size_t>(i)].rows() < problem.locals[static_cast<std::size_t>(fewest)].rows())
      fewest = i;
  return bounds_of(problem.locals[static_cast<std::size_t>(fewest)], domain);
}

}  // namespace dpl::algorithms
