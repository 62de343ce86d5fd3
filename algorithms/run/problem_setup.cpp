// SPDX-License-Identifier: Apache-2.0
#include "algorithms/run/problem_setup.h"

#include "accounting/errors.h"
#include "algorithms/run/audit_probe.h"
#include "algorithms/run/run_limits.h"

#include <set>

namespace dpl::algorithms {

DistributedProblem setup_problem(RunParameters& params, const ProblemDefaults& defaults, Rng& rng) {
  // Declared reads first, so that resolved() records every key even when a later check fails.
  const std::string data = params.text("data", defaults.data);
  const auto agents = static_cast<int>(params.integer("agents", defaults.agents, 2, 100000));
  const auto per_agent = static_cast<int>(params.integer("per_agent", defaults.per_agent, 0, 10000000));
  const std::string graph = params.choice("graph", defaults.graph, {"complete", "ring", "random", "erdos-renyi"});
  const auto edges = static_cast<int>(params.integer("edges", defaults.edges, 1, 1000000000));
  const LossKind loss = parse_loss("loss", params.choice("loss", defaults.loss, {"logistic", "hinge", "squared", "huber"}));
  const double l2 = params.real("l2", defaults.l2, 0, 1e6);
  const double l1 = params.real("l1", defaults.l1, 0, 1e6);
  const double huber_delta = params.real("huber_delta", 1.0, 0, 1e6, true, false);
  const auto synthetic_rows = static_cast<int>(params.integer("synthetic_rows", defaults.synthetic_rows, 2, 10000000));
  const auto synthetic_dim = static_cast<int>(params.integer("synthetic_dim", defaults.synthetic_dim, 1, 100000));

  if (loss == LossKind::hinge && !(l2 > 0) && !(l1 > 0))
    throw InputError("l2=0 and l1=0 are out of range for loss=hinge: allowed l2 > 0 or l1 > 0 (the hinge loss alone "
                     "may have no minimiser)");
  // An audit's runs share one problem, set up once from the audit's seed (audit_probe.h).
  if (AuditProbe* probe = params.audit_probe(); probe && probe->setup_cache()) {
    AuditProbe* const none = nullptr;
    return probe->setup<DistributedProblem>([&](std::uint64_t s) {
      RunParameters again = params;
      again.set_audit_probe(none);
      Rng fixed(s);
      return setup_problem(again, defaults, fixed);
    });
  }

  // Data: synthetic sets are generated in the papers' conventions already (logistic: features in [0,1] with
  // unit rows and +-1 labels; regression: Gaussian design, real labels) and are not rescaled. Files and shipped
  // sets go through preprocess(): labels to +-1 for logistic and hinge; for huber too when they are binary;
  // kept as they are for squared loss (regression).
  Dataset all;
  if (data == "synthetic") {
    require_data_size(synthetic_rows, synthetic_dim,
                      "synthetic_rows=" + std::to_string(synthetic_rows) + ", synthetic_dim=" + std::to_string(synthetic_dim));
    all = loss == LossKind::squared ? synthetic_regression(synthetic_rows, synthetic_dim, rng)
                                    : synthetic_logistic(synthetic_rows, synthetic_dim, rng);
  } else {
    const Dataset raw = load_dataset(data);
    require_data_size(raw.rows(), raw.dim(), "data=" + data);
    bool binary = loss == LossKind::logistic || loss == LossKind::hinge;
    if (loss == LossKind::huber) {
      const std::set<double> values(raw.labels.data(), raw.labels.data() + raw.labels.size());
      binary = values.size() == 2;
    }
    all = preprocess(raw, binary);
  }
  if (agents > all.rows())
    throw InputError("agents=" + std::to_string(agents) + " is out of range for data " + all.name + " with " +
                     std::to_string(all.rows()) + " rows: allowed integers [2, " + std::to_string(all.rows()) + "]");

  const std::vector<Dataset> parts = split_across_agents(all, agents, rng, per_agent);

  DistributedProblem p;
  const Regularizer reg{l2, l1};
  p.locals.reserve(parts.size());
  for (const auto& part : parts) p.locals.emplace_back(part, loss, reg, huber_delta);
  p.graph = make_graph(graph, agents, edges, rng);
  p.optimum = solve_centralized(p.locals);
  return p;
}

}  // namespace dpl::algorithms
