// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed000/dsgd_random_aggregation.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "accounting/errors.h"
#include "accounting/numeric/interval.h"
#include "algorithms/run/audit_probe.h"
#include "algorithms/run/end_to_end_audit.h"
#include "algorithms/run/problem_setup.h"
#include "algorithms/run/run_limits.h"
#include "algorithms/run/run_progress.h"
#include "algorithms/seed000/aggregated_release_ratio.h"
#include "algorithms/seed000/agent_canary.h"
#include "algorithms/seed000/initial_states.h"
#include "algorithms/seed000/random_aggregation_privacy.h"
#include "algorithms/seed000/trace_recording.h"

namespace dpl::algorithms {

RunResult run_dsgd_random_aggregation(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress) {
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
  AuditProbe* const probe = params.audit_probe();
  const bool lean = probe && probe->lean();
  params.reject_unknown();
  const int n = problem.agents();
  const int d = problem.dim();
  if (probe && !keys.noise) throw NotApplicable("audit: noise=off releases the states exactly: nothing to audit");
  // Audit: the noise drawn is noise_factor times the claimed Laplace scale 1/beta.
  const double noise_factor = probe ? probe->noise_factor() : 1.0;
  // End-to-end audit (end_to_end_audit.h): the run executes on D or D', the target agent's row 0 the canary
  // (agent_canary.h), with the injected faults in its gradient code; it reports the target's releases with the
  // statistic of the hidden weight integrated out (aggregated_release_ratio.h). Nothing is skipped.
  EndToEndAudit* const e2e = probe ? end_to_end_audit() : nullptr;
  const InjectedFaults faults = e2e ? e2e->faults() : InjectedFaults{};
  if (n < 2 * K)
    throw InputError("K=" + std::to_string(K) + " is out of range for agents=" + std::to_string(n) +
                     ": allowed [1, agents/2] (Algorithm 2 needs N >= 2K groups)");
  const std::string what = "dsgd-random-aggregation with K=" + std::to_string(K) + ", agents=" + std::to_string(n) +
                           ", dimension " + std::to_string(d);
  const double iteration_work = 2 * problem.data_values() + n * d * 2 * kRandomDrawWork;
  const double ledger_work = keys.noise ? d * kLedgerReleaseWork : 0.0;
  require_run_work(iteration_work + d * kLedgerReleaseWork, what);
  require_trace_size(n * d + (K + 1.0) * 2 * d, what);
  const double c = printed_scaling ? static_cast<double>(n) : 1.0;
  const double b_inf = keys.noise ? target_b_inf(keys, problem) : 0.0;
  // Every agent's B_inf when every agent is accounted (target=worst), else the target's.
  std::vector<double> agent_b(static_cast<std::size_t>(n), b_inf);
  if (keys.noise && keys.worst_agent)
    for (int i = 0; i < n; ++i) agent_b[static_cast<std::size_t>(i)] = agent_b_inf(keys, problem, i);
  // The canary goes in after the ledger's bounds are taken from the declared domain (a clip fault puts it outside).
  std::optional<CanaryObjectives> canary;
  if (e2e) {
    canary = canary_objectives(problem.locals[static_cast<std::size_t>(keys.target)], keys.domain, faults);
    problem.locals[static_cast<std::size_t>(keys.target)] = canary->of(e2e->on_d());
  }

  RunResult result;
  result.algorithm = "dsgd-random-aggregation";
  Rng init = rng.split();
  Rng groups_rng = rng.split();
  // An audit holds the groups fixed (public, drawn once from the audit's seed): the target's step, and so its claim,
  // is the same in every run.
  if (probe && probe->setup_cache()) groups_rng = Rng(probe->setup_cache()->seed ^ 0x9e3779b97f4a7c15ULL);
  Rng weights = rng.split();
  Rng noise_rng = rng.split();
  // Random partition into 2K groups of sizes differing by at most one.
  const std::vector<int> perm = groups_rng.permutation(n);
  std::vector<std::vector<int>> groups(static_cast<std::size_t>(2 * K));
  for (int t = 0; t < n; ++t)
    groups[static_cast<std::size_t>(t % (2 * K))].push_back(perm[static_cast<std::size_t>(t)]);
  Eigen::MatrixXd y = random_initial_states(2, d, init);
  record_start_and_baseline(result, problem, network_average(y));
  Eigen::VectorXd ergodic_sum = Eigen::VectorXd::Zero(d);
  if (!lean) result.trace.push_back(record_step(0, y, Eigen::MatrixXd(), problem.locals, network_average(y)));
  std::vector<std::vector<AggregatedRelease>> releases(static_cast<std::size_t>(n));
  std::vector<int> agent_step(static_cast<std::size_t>(n), 0);
  double eta = eta0, beta = beta0;
  // Divergence: |y| beyond 1e6 times the scale a converging run stays within (start, optimum, noise quantile).
  const double start_scale = std::max({1.0, y.cwiseAbs().maxCoeff(), problem.optimum.x.cwiseAbs().maxCoeff()});
  bool diverged = false;
  int done = 0;
  // Progress: the iterations, then the ledger, in proportion to their work estimates.
  RunProgress bar(progress);
  const double split = iteration_work / (iteration_work + ledger_work);
  bar.phase(0, split, "iteration");
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
        const Eigen::VectorXd g = audited_subgradient(problem.locals[static_cast<std::size_t>(i)], mid, faults);
        // The auditor's copy of the target's update on D and on D' at the released midpoint.
        const bool audited = e2e && i == keys.target;
        const Eigen::VectorXd g_d = audited ? audited_subgradient(canary->on_d, mid, faults) : Eigen::VectorXd();
        const Eigen::VectorXd g_dprime = audited ? audited_subgradient(canary->on_dprime, mid, faults) : Eigen::VectorXd();
        for (int l = 0; l < d; ++l) {
          const double w = random_weights ? weights.uniform01() : 0.5;
          const double offset = -eta * c * g(l);
          const double mean = w * y(0, l) + (1 - w) * y(1, l) + offset;  // (2.3)
          const double noise = keys.noise ? noise_rng.laplace_rate(beta / noise_factor) : 0.0;
          released(row, l) = mean + noise;
          if (audited) {
            // The release against its laws on D and D' (claimed scale 1/beta), the weight integrated out.
            const double lo = random_weights ? std::min(y(0, l), y(1, l)) : 0.5 * y(0, l) + 0.5 * y(1, l);
            const double hi = random_weights ? std::max(y(0, l), y(1, l)) : lo;
            e2e->laplace_draw(noise, 1 / beta);
            e2e->release_log_ratio(
                aggregated_laplace_log_ratio(released(row, l), lo, hi, -eta * c * g_d(l), -eta * c * g_dprime(l), beta));
          }
          if (keys.noise && ledger_keeps_agent(keys, i) && !lean)
            releases[static_cast<std::size_t>(i)].push_back({.step = k + 1,
                                .released = released(row, l),
                                .lo = random_weights ? std::min(y(0, l), y(1, l)) + offset : mean,
                                .hi = random_weights ? std::max(y(0, l), y(1, l)) + offset : mean,
                                .beta = beta,
                                // E9: eta_{k+1} B_inf (rescaled) or eta_{k+1} N B_inf (printed)
                                .shift = hi_up(exact(eta) * exact(c) * exact(agent_b[static_cast<std::size_t>(i)]))});
        }
        next.row(side) += released.row(row) / static_cast<double>(group.size());
        agent_step[static_cast<std::size_t>(i)] = k + 1;
        ++row;
      }
    }
    y = next;
    done = k + 1;
    if (!lean) result.trace.push_back(record_step(k + 1, y, released, problem.locals, network_average(y)));
    const double noise_scale = keys.noise ? 50.0 / beta : 0.0;  // P(|Lap(1/beta)| > 50/beta) = e^{-50}
    if (exploding_states(y, std::max(start_scale, noise_scale)) || exploding_states(released, std::max(start_scale, noise_scale))) {
      diverged = true;
      break;
    }
    bar.step(k + 1, K);
  }
  if (lean) return result;  // an audit run: its end-to-end context has the statistic
  const Eigen::VectorXd last = network_average(y);
  finish_result(result, params, done, ergodic ? Eigen::VectorXd(ergodic_sum / (2.0 * done)) : last, problem);

  bar.phase(split, 1, "ledger");
  const int agent = keys.noise && !diverged ? accounted_agent(releases, keys) : keys.target;
  record_ledger_unless_diverged(result, releases[static_cast<std::size_t>(agent)], keys, diverged, bar.phase_callback());
  const std::string convention =
      printed_scaling ? "printed (2.3): gradient eta_{k+1} N grad f_i, sensitivity s = eta_{k+1} N B_inf"
                      : "rescaled (App. C / (I.1)): gradient eta_{k+1} grad f_i, sensitivity s = eta_{k+1} B_inf";
  if (keys.noise && !diverged)
    add_to_both_ledgers(result, sensitivity_fields(keys, agent, n, agent_b[static_cast<std::size_t>(agent)],
                                                   {{"agent_step", agent_step[static_cast<std::size_t>(agent)]},
                                                    {"sensitivity_convention", convention},
                                                    {"composition",
                                                     "none: each agent releases once (d coordinates at one step)"}}));
  result.extra["diverged"] = diverged;
  result.extra["paper_setting"] =
      "Xiao 2019 App. E (d): eta_k = 0.95^k, beta_k = 1.02^k, N 100 (example E-4's size), K 25 groups pairs; every "
      "agent releases once (eps = one step's d coordinates); data " + params.resolved().value("data", std::string()) +
      " stands in for Adult, with about 6 rows per agent";
  if (diverged)
    result.extra["diverged_note"] = "iterates exceeded 1e6 times the start/optimum/noise scale at iteration " +
                                    std::to_string(done) + ": stopped; no privacy ledger for a diverged run";
  result.extra["output"] =
      ergodic ? "ergodic average sum_{k<K} (y1^k + y2^k)/(2K) (Thm 3.2.1)" : "last (y1^K + y2^K)/2";
  result.extra["last_iterate_objective"] = total_objective(problem.locals, last);
  result.extra["group_size_min"] = n / (2 * K);
  bar.finish();
  return result;
}

}  // namespace dpl::algorithms
