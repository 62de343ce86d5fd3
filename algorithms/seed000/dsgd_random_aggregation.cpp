#include "algorithms/seed000/dsgd_random_aggregation.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "accounting/errors.h"
#include "algorithms/run/problem_setup.h"
#include "algorithms/seed000/initial_states.h"
#include "algorithms/seed000/random_aggregation_privacy.h"
#include "algorithms/seed000/trace_recording.h"

namespace dpl::algorithms {

RunResult run_dsgd_random_aggregation(RunParameters& params, std::uint64_t seed) {
  const auto K = static_cast<int>(params.integer("K", 25, 1, 100000));
  const double eta0 = params.real("eta0", 1, 0, 1e12, true);
  const double eta_decay = params.real("eta_decay", 0.95, 0, 1, true);
  const double beta0 = params.real("beta0", 1, 0, 1e12, true);
  const double growth = params.real("growth", 1.02, 0, 1e3, true);
  const bool printed_scaling = params.choice("scaling", "rescaled", {"rescaled", "printed"}) == "printed";
  const bool random_weights = params.flag("random_weights", true);
  const AggregationPrivacyKeys keys = read_aggregation_privacy_keys(params);
  const bool ergodic = params.choice("output", "ergodic", {"ergodic", "last"}) == "ergodic";
  Rng rng(seed);
  DistributedProblem problem = setup_problem(params, {.agents = 100, .graph = "complete"}, rng);
  params.reject_unknown();
  const int n = problem.agents();
  const int d = problem.dim();
  if (n < 2 * K)
    throw InputError("K=" + std::to_string(K) + " is out of range for agents=" + std::to_string(n) +
                     ": allowed [1, agents/2] (Algorithm 2 needs N >= 2K groups)");
  const double c = printed_scaling ? static_cast<double>(n) : 1.0;
  const double b_inf = target_b_inf(keys, problem.locals);

  RunResult result;
  result.algorithm = "dsgd-random-aggregation";
  Rng init = rng.split();
  Rng groups_rng = rng.split();
  Rng weights = rng.split();
  Rng noise_rng = rng.split();
  // Random partition into 2K groups of sizes differing by at most one.
  const std::vector<int> perm = groups_rng.permutation(n);
  std::vector<std::vector<int>> groups(static_cast<std::size_t>(2 * K));
  for (int t = 0; t < n; ++t)
    groups[static_cast<std::size_t>(t % (2 * K))].push_back(perm[static_cast<std::size_t>(t)]);
  Eigen::MatrixXd y = random_initial_states(2, d, init);
  Eigen::VectorXd ergodic_sum = Eigen::VectorXd::Zero(d);
  result.trace.push_back(record_step(0, y, Eigen::MatrixXd(), problem.locals, network_average(y)));
  std::vector<AggregatedRelease> releases;
  int target_step = 0;
  double eta = eta0, beta = beta0;
  for (int k = 0; k < K; ++k) {
    eta *= eta_decay;  // eta_{k+1}
    beta *= growth;    // beta_{k+1}
    ergodic_sum += y.row(0).transpose() + y.row(1).transpose();
    const Eigen::VectorXd mid = network_average(y);
    const auto& g1 = groups[static_cast<std::size_t>(2 * k)];
    const auto& g2 = groups[static_cast<std::size_t>(2 * k + 1)];
    Eigen::MatrixXd released(static_cast<Eigen::Index>(g1.size() + g2.size()), d);
    Eigen::MatrixXd next = Eigen::MatrixXd::Zero(2, d);
    int row = 0;
    for (int side = 0; side < 2; ++side) {
      const auto& group = side == 0 ? g1 : g2;
      for (int i : group) {
        // Subgradient: an l1 term enters as l1 sign(x) (data-independent: the sensitivity is unchanged).
        const Eigen::VectorXd g = problem.locals[static_cast<std::size_t>(i)].subgradient(mid);
        for (int l = 0; l < d; ++l) {
          const double w = random_weights ? weights.uniform01() : 0.5;
          const double offset = -eta * c * g(l);
          const double mean = w * y(0, l) + (1 - w) * y(1, l) + offset;  // (2.3)
          released(row, l) = mean + (keys.noise ? noise_rng.laplace_rate(beta) : 0.0);
          if (keys.noise && i == keys.target)
            releases.push_back({.step = k + 1,
                                .released = released(row, l),
                                .lo = random_weights ? std::min(y(0, l), y(1, l)) + offset : mean,
                                .hi = random_weights ? std::max(y(0, l), y(1, l)) + offset : mean,
                                .beta = beta,
                                // E9: eta_{k+1} B_inf (rescaled) or eta_{k+1} N B_inf (printed)
                                .shift = eta * c * b_inf});
        }
        next.row(side) += released.row(row) / static_cast<double>(group.size());
        if (i == keys.target) target_step = k + 1;
        ++row;
      }
    }
    y = next;
    result.trace.push_back(record_step(k + 1, y, released, problem.locals, network_average(y)));
  }
  const Eigen::VectorXd last = network_average(y);
  finish_result(result, params, K, ergodic ? Eigen::VectorXd(ergodic_sum / (2.0 * K)) : last, problem);

  if (keys.noise)
    record_aggregation_ledger(result, releases, keys);
  else
    record_no_ledger(result, "noise=off: the plain algorithm, no privacy", "noise=off: no privacy");
  const std::string convention =
      printed_scaling ? "printed (2.3): gradient eta_{k+1} N grad f_i, sensitivity s = eta_{k+1} N B_inf"
                      : "rescaled (App. C / (I.1)): gradient eta_{k+1} grad f_i, sensitivity s = eta_{k+1} B_inf";
  add_to_both_ledgers(result, {{"agent", keys.target},
                               {"agent_step", target_step},
                               {"b_inf", b_inf},
                               {"sensitivity_convention", convention},
                               {"composition", "none: each agent releases once (d coordinates at one step)"}});
  result.extra["output"] =
      ergodic ? "ergodic average sum_{k<K} (y1^k + y2^k)/(2K) (Thm 3.2.1)" : "last (y1^K + y2^K)/2";
  result.extra["last_iterate_objective"] = total_objective(problem.locals, last);
  result.extra["group_size_min"] = n / (2 * K);
  return result;
}

}  // namespace dpl::algorithms
