#include "algorithms/seed000/dsgd_random_aggregation_minmax.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "accounting/errors.h"
#include "algorithms/run/problem_setup.h"
#include "algorithms/seed000/random_aggregation_privacy.h"
#include "algorithms/seed000/trace_recording.h"

namespace dpl::algorithms {

RunResult run_dsgd_random_aggregation_minmax(RunParameters& params, std::uint64_t seed) {
  const auto K = static_cast<int>(params.integer("K", 100, 1, 10000000));
  const double eta0 = params.real("eta0", 1, 0, 1e12, true);
  const double eta_decay = params.real("eta_decay", 0.93, 0, 1, true);
  const double beta0 = params.real("beta0", 1, 0, 1e12, true);
  const double growth = params.real("growth", 1.02, 0, 1e3, true);
  const bool random_weights = params.flag("random_weights", true);
  const bool noise = params.flag("noise", true);
  const auto target = static_cast<int>(params.integer("target", 0, 0, 100000));
  const double b_inf_in = params.real("b_inf", 0, 0, 1e12);
  const bool average_case = params.flag("average_case", true);
  const GammaMethod gamma_method =
      parse_gamma_method("gamma", params.choice("gamma", "auto", {"auto", "exact", "bound"}));
  ProblemDefaults defaults;
  defaults.agents = 10;
  defaults.graph = "random";
  defaults.edges = 40;
  Rng rng(seed);
  DistributedProblem problem = setup_problem(params, defaults, rng);
  params.reject_unknown();
  const int n = problem.agents();
  const int d = problem.dim();
  if (target >= n)
    throw InputError("target=" + std::to_string(target) +
                     " is out of range: allowed [0, agents-1=" + std::to_string(n - 1) + "]");
  const double b_inf = b_inf_in > 0 ? b_inf_in : problem.locals[static_cast<std::size_t>(target)].sensitivity_inf();

  RunResult result;
  result.algorithm = "dsgd-random-aggregation-minmax";
  Rng init = rng.split();
  Rng weights = rng.split();
  Rng noise_rng = rng.split();
  Eigen::MatrixXd x(n, d);
  for (int i = 0; i < n; ++i)
    for (int l = 0; l < d; ++l) x(i, l) = init.uniform(-1, 1);
  result.trace.push_back(record_step(0, x, Eigen::MatrixXd(), problem.locals, network_average(x)));
  std::vector<AggregatedRelease> releases;
  double eta = eta0, beta = beta0;
  bool diverged = false;
  int done = 0;
  for (int k = 0; k < K; ++k) {
    eta *= eta_decay;  // eta_{k+1}
    beta *= growth;    // beta_{k+1}
    Eigen::MatrixXd next(n, d);
    for (int i = 0; i < n; ++i) {
      const Eigen::VectorXd g = problem.locals[static_cast<std::size_t>(i)].gradient(x.row(i).transpose());
      const auto& nb = problem.graph.neighbours[static_cast<std::size_t>(i)];
      for (int l = 0; l < d; ++l) {
        double lo = x(i, l), hi = x(i, l);  // closed neighbourhood N~_i
        for (int j : nb) {
          lo = std::min(lo, x(j, l));
          hi = std::max(hi, x(j, l));
        }
        const double w = random_weights ? weights.uniform01() : 0.5;
        const double offset = -eta * g(l);
        const double mean = w * lo + (1 - w) * hi + offset;  // (E.1)
        next(i, l) = mean + (noise ? noise_rng.laplace_rate(beta) : 0.0);
        if (noise && i == target) {
          AggregatedRelease rel;
          rel.step = k + 1;
          rel.released = next(i, l);
          rel.lo = random_weights ? lo + offset : mean;
          rel.hi = random_weights ? hi + offset : mean;
          rel.beta = beta;
          rel.shift = eta * b_inf;  // App. C with D_i^{-1} -> eta_{k+1}
          releases.push_back(rel);
        }
      }
    }
    x = next;
    done = k + 1;
    result.trace.push_back(record_step(k + 1, x, Eigen::MatrixXd(), problem.locals, network_average(x)));
    if (!bounded_states(x)) {
      diverged = true;
      break;
    }
  }
  result.parameters = params.resolved();
  result.iterations = done;
  finish_result(result, network_average(x), problem.locals, problem.optimum.value);
  if (noise && !diverged) {
    const AggregationLedger ledger = account_random_aggregation(releases, average_case, gamma_method);
    result.claimed = ledger.claimed;
    result.accounted = ledger.accounted;
    result.extra["privacy_curves"] = ledger.curves;
  } else {
    const std::string why = noise ? "the run diverged: no accounting" : "noise=off: the plain algorithm, no privacy";
    result.claimed = {{"epsilon", "inf"}, {"delta", 0.0}, {"source", why}};
    result.accounted = {{"epsilon", "inf"}, {"delta", 0.0}, {"method", why}};
  }
  for (Json* j : {&result.claimed, &result.accounted}) {
    (*j)["agent"] = target;
    (*j)["b_inf"] = b_inf;
    (*j)["sensitivity_convention"] = "s = eta_{k+1} B_inf (App. C, D_i^{-1} -> eta_{k+1})";
  }
  result.extra["diverged"] = diverged;
  return result;
}

}  // namespace dpl::algorithms
