#include "algorithms/seed000/admm_random_aggregation.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "accounting/errors.h"
#include "algorithms/run/problem_setup.h"
#include "algorithms/seed000/random_aggregation_privacy.h"
#include "algorithms/seed000/trace_recording.h"

namespace dpl::algorithms {

RunResult run_admm_random_aggregation(RunParameters& params, std::uint64_t seed) {
  const auto K = static_cast<int>(params.integer("K", 100, 1, 10000000));
  const double D = params.real("D", 10, 0, 1e12, true);
  const double zeta = params.real("zeta", 0.5, 0, 1e12, true);
  const double beta0 = params.real("beta0", 1, 0, 1e12, true);
  const double growth = params.real("growth", 1.02, 0, 1e3, true);
  const bool random_weights = params.flag("random_weights", true);
  const bool printed_sign = params.choice("dual_sign", "corrected", {"corrected", "printed"}) == "printed";
  const bool noise = params.flag("noise", true);
  const auto target = static_cast<int>(params.integer("target", 0, 0, 100000));
  const double b_inf_in = params.real("b_inf", 0, 0, 1e12);
  const bool average_case = params.flag("average_case", true);
  const GammaMethod gamma_method =
      parse_gamma_method("gamma", params.choice("gamma", "auto", {"auto", "exact", "bound"}));
  ProblemDefaults defaults;
  defaults.agents = 10;
  defaults.graph = "random";
  defaults.edges = 20;
  Rng rng(seed);
  DistributedProblem problem = setup_problem(params, defaults, rng);
  params.reject_unknown();
  const int n = problem.agents();
  const int d = problem.dim();
  if (target >= n)
    throw InputError("target=" + std::to_string(target) +
                     " is out of range: allowed [0, agents-1=" + std::to_string(n - 1) + "]");
  const double b_inf = b_inf_in > 0 ? b_inf_in : problem.locals[static_cast<std::size_t>(target)].sensitivity_inf();
  const double shift = b_inf / D;  // Thm 2.2.1: mean-shift sensitivity B_inf / D_i per coordinate

  RunResult result;
  result.algorithm = "admm-random-aggregation";
  Rng init = rng.split();
  Rng weights = rng.split();
  Rng noise_rng = rng.split();
  Eigen::MatrixXd x(n, d), lambda = Eigen::MatrixXd::Zero(n, d);
  for (int i = 0; i < n; ++i)
    for (int l = 0; l < d; ++l) x(i, l) = init.uniform(-1, 1);  // x^0 random, data-independent
  result.trace.push_back(record_step(0, x, Eigen::MatrixXd(), problem.locals, network_average(x)));
  std::vector<AggregatedRelease> releases;
  bool diverged = false;
  int done = 0;
  double beta = beta0;
  for (int k = 0; k < K; ++k) {
    beta *= growth;  // beta_{k+1} = beta0 growth^{k+1}
    Eigen::MatrixXd next(n, d);
    for (int i = 0; i < n; ++i) {
      const auto& nb = problem.graph.neighbours[static_cast<std::size_t>(i)];
      const Eigen::VectorXd g = problem.locals[static_cast<std::size_t>(i)].gradient(x.row(i).transpose());
      for (int l = 0; l < d; ++l) {
        double xbar = 0;
        for (int j : nb) xbar += x(j, l);
        xbar /= static_cast<double>(nb.size());
        const double r = random_weights ? weights.uniform01() : 0.5;  // r = Gamma_i^{k+1}[l,l] / D_i
        const double offset = (-g(l) + lambda(i, l)) / D;
        const double mean = r * x(i, l) + (1 - r) * xbar + offset;  // (2.2), general-graph reading
        next(i, l) = mean + (noise ? noise_rng.laplace_rate(beta) : 0.0);
        if (noise && i == target) {
          AggregatedRelease rel;
          rel.step = k + 1;
          rel.released = next(i, l);
          rel.lo = random_weights ? std::min(x(i, l), xbar) + offset : mean;
          rel.hi = random_weights ? std::max(x(i, l), xbar) + offset : mean;
          rel.beta = beta;
          rel.shift = shift;
          releases.push_back(rel);
        }
      }
    }
    // Dual update after the exchange: lambda_i += zeta sum_{j in N_i}(x_j - x_i) (corrected, E4), or -= (printed).
    const double sign = printed_sign ? -1.0 : 1.0;
    for (int i = 0; i < n; ++i)
      for (int j : problem.graph.neighbours[static_cast<std::size_t>(i)])
        lambda.row(i) += sign * zeta * (next.row(j) - next.row(i));
    x = next;
    done = k + 1;
    result.trace.push_back(record_step(k + 1, x, Eigen::MatrixXd(), problem.locals, network_average(x)));
    if (!bounded_states(x) || !bounded_states(lambda)) {
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
    (*j)["sensitivity"] = shift;
  }
  result.extra["diverged"] = diverged;
  result.extra["b_inf_source"] =
      b_inf_in > 0 ? "parameter b_inf" : "LocalObjective::sensitivity_inf() of the target agent";
  result.extra["dual_sign"] = printed_sign ? "printed: lambda -= zeta sum(x_j - x_i) (diverges, notes/000 E4)"
                                           : "corrected: lambda += zeta sum(x_j - x_i) (notes/000 E4, from (3.5))";
  return result;
}

}  // namespace dpl::algorithms
