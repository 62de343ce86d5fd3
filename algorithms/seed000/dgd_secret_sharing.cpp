// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed000/dgd_secret_sharing.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>
#include <string>

#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/numeric/interval.h"
#include "accounting/numeric/portable_math.h"
#include "algorithms/run/audit_probe.h"
#include "algorithms/run/domain_bounds.h"
#include "algorithms/run/end_to_end_audit.h"
#include "algorithms/run/problem_setup.h"
#include "algorithms/run/run_limits.h"
#include "algorithms/run/run_progress.h"
#include "algorithms/run/shortest_decimal.h"
#include "algorithms/seed000/agent_canary.h"
#include "algorithms/seed000/initial_states.h"
#include "algorithms/seed000/secret_sharing.h"
#include "algorithms/seed000/trace_recording.h"

namespace dpl::algorithms {

namespace {

// One sharing round (Sec. 2.1 steps 2-6): every agent splits each coordinate of its state into N shares mod p,
// agent j sums the shares it holds (s_hat_j, broadcast), and everyone reconstructs sum_i x_i = sum_j s_hat_j.
// Returns the decoded sum; `broadcasts` receives s_hat (rows = agents).
Eigen::VectorXd share_and_reconstruct(const Eigen::MatrixXd& states, const FixedPointCodec& codec, Rng& rng,
                                      Eigen::MatrixXd& broadcasts, double& max_error) {
  const auto n = static_cast<int>(states.rows());
  const auto d = static_cast<int>(states.cols());
  const std::uint64_t p = codec.modulus();
  broadcasts.setZero(n, d);
  Eigen::VectorXd sum(d);
  std::vector<std::uint64_t> held(static_cast<std::size_t>(n)), shares(static_cast<std::size_t>(n));
  const UniformModP uniform(p);
  for (int l = 0; l < d; ++l) {
    std::fill(held.begin(), held.end(), 0);
    double plain = 0;
    for (int i = 0; i < n; ++i) {
      plain += states(i, l);
      split_into_shares(codec.encode(states(i, l)), uniform, p, rng, shares);
      for (int j = 0; j < n; ++j)
        held[static_cast<std::size_t>(j)] =
            addmod(held[static_cast<std::size_t>(j)], shares[static_cast<std::size_t>(j)], p);
    }
    if (std::fabs(plain) > codec.max_abs())
      throw InputError(
          "frac_bits=" + std::to_string(codec.frac_bits()) + ": the sum of the states " + std::to_string(plain) +
          " wraps around the modulus (allowed |sum| <= " + std::to_string(codec.max_abs()) + "); lower frac_bits");
    for (int j = 0; j < n; ++j) broadcasts(j, l) = static_cast<double>(held[static_cast<std::size_t>(j)]);
    sum(l) = codec.decode(reconstruct(held, p));
    max_error = std::max(max_error, std::fabs(sum(l) - plain));
  }
  return sum;
}

Json inf_json() { return Json("inf"); }

// Above this mu = sqrt(K) sens / sigma the run is practically noiseless and its epsilon (~ mu^2/2) is given in
// closed form rather than by the accountants' searches.
constexpr double kNoiselessMu = 1e6;

}  // namespace

RunResult run_dgd_secret_sharing(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress) {
  const auto K = static_cast<int>(params.integer("K", 50, 1, 100000));
  const double eta = params.real("eta", 0.5, 0, 1e6, true);
  const double sigma = params.real("sigma", 0.1, 0, 1e12, true);
  const double delta = params.real("delta", 1e-5, 0, 1, true, true);
  const auto honest_in = static_cast<int>(params.integer("honest", 0, 0, 100000));
  const auto frac_bits = static_cast<int>(params.integer("frac_bits", 32, 0, 52));
  const bool noise = params.flag("noise", true);
  const DataDomain domain = read_data_domain(params);
  Rng rng(seed);
  DistributedProblem problem = setup_problem(params, {.agents = 10, .graph = "complete"}, rng);
  AuditProbe* const probe = params.audit_probe();
  const bool lean = probe && probe->lean();
  params.reject_unknown();
  if (probe && !noise) throw NotApplicable("audit: noise=off releases the sums exactly: nothing to audit");
  const int n = problem.agents();
  const int d = problem.dim();
  if (params.resolved().value("graph", std::string("complete")) != "complete")
    throw NotApplicable("graph=" + params.resolved().value("graph", std::string()) +
                        ": dgd-secret-sharing runs on the complete graph (Sec. 2.1); allowed: complete");
  if (n < 3)
    throw InputError("agents=" + std::to_string(n) + " is out of range: allowed [3, 100000] (Thm 2.1.1 needs N >= 3)");
  const int honest = honest_in == 0 ? n : honest_in;
  if (honest > n)
    throw InputError("honest=" + std::to_string(honest) + " is out of range: allowed [1, agents=" + std::to_string(n) +
                     "] (0 = all)");
  const FixedPointCodec codec(frac_bits);
  const std::string what = "dgd-secret-sharing with K=" + std::to_string(K) + ", agents=" + std::to_string(n) +
                           ", dimension " + std::to_string(d);
  require_run_work(K * (2 * problem.data_values() + (static_cast<double>(n) * n * d + n * d) * kRandomDrawWork), what);
  require_trace_size((K + 1.0) * 2 * n * d, what);
  // Privacy. Delta = eta * (largest l2 sensitivity of an agent's local gradient to one replaced row), from the
  // declared domain (the agent with the fewest rows), never from the rows themselves.
  const double sens_l2 = noise ? worst_agent_loss_bounds(problem, domain).sensitivity_l2 : 0.0;
  if (noise && !std::isfinite(sens_l2))
    throw NotApplicable("loss=" + to_string(problem.locals.front().loss()) +
                        ": the gradient's sensitivity to one replaced row is unbounded on the declared domain, so no "
                        "privacy bound exists; use loss=logistic, hinge or huber (or noise=off)");

  // End-to-end audit (end_to_end_audit.h): the run executes on D or D', row 0 of the canary agent (the honest agent
  // with the fewest rows, whose bound Delta2 is the ledger's) the canary (agent_canary.h), with the injected faults
  // in its gradient code; it reports each round's honest sum against its means on D and D'. Nothing is skipped.
  EndToEndAudit* const e2e = probe ? end_to_end_audit() : nullptr;
  const InjectedFaults faults = e2e ? e2e->faults() : InjectedFaults{};
  int canary_agent = 0;
  for (int i = 1; i < honest; ++i)
    if (problem.locals[static_cast<std::size_t>(i)].rows() < problem.locals[static_cast<std::size_t>(canary_agent)].rows())
      canary_agent = i;
  std::optional<CanaryObjectives> canary;
  if (e2e) {
    canary = canary_objectives(problem.locals[static_cast<std::size_t>(canary_agent)], domain, faults);
    problem.locals[static_cast<std::size_t>(canary_agent)] = canary->of(e2e->on_d());
  }

  RunResult result;
  result.algorithm = "dgd-secret-sharing";
  Rng init = rng.split();
  Rng shares = rng.split();
  Rng noise_rng = rng.split();
  Eigen::MatrixXd x = random_initial_states(n, d, init);  // data-independent x^0
  // Audit: the noise drawn is noise_factor sigma.
  const double noise_sd = sigma * (probe ? probe->noise_factor() : 1.0);
  record_start_and_baseline(result, problem, network_average(x));
  Eigen::MatrixXd broadcasts;
  double max_error = 0;
  Eigen::VectorXd sum = share_and_reconstruct(x, codec, shares, broadcasts, max_error);
  if (!lean) result.trace.push_back(record_step(0, x, broadcasts, problem.locals, network_average(x)));
  // Progress: the rounds, then the accounting (one composition, usually quick).
  RunProgress bar(progress);
  bar.phase(0, 0.9, "round");
  Eigen::MatrixXd grads;  // an end-to-end audit's record of the agents' gradients this round
  for (int k = 1; k <= K; ++k) {
    // Sec. 2.1 step 1: x_i^k = (sum_j x_j^{k-1})/N - eta grad f_i(x_i^{k-1}) + N(0, sigma^2 I).
    Eigen::MatrixXd next(n, d);
    if (e2e) grads.resize(n, d);
    for (int i = 0; i < n; ++i) {
      // Subgradient: an l1 term enters as l1 sign(x) (data-independent: the sensitivity is unchanged).
      const Eigen::VectorXd g = audited_subgradient(problem.locals[static_cast<std::size_t>(i)], x.row(i).transpose(), faults);
      for (int l = 0; l < d; ++l) next(i, l) = sum(l) / n - eta * g(l) + (noise ? noise_rng.gaussian(0, noise_sd) : 0.0);
      if (e2e) grads.row(i) = g.transpose();
    }
    if (e2e) {
      // The colluders' view: the honest agents' sum, against its means on D and D' from the released sum and the
      // agents' previous states (public in the thesis's model, as in the ledger): the other agents' gradients are
      // the same on D and D', the canary agent's computed on each data set by its own code; claimed std
      // sqrt(N') sigma per coordinate.
      Eigen::VectorXd y = Eigen::VectorXd::Zero(d), m_d = Eigen::VectorXd::Zero(d);
      for (int i = 0; i < honest; ++i) {
        y += next.row(i).transpose();
        if (i != canary_agent) m_d += sum / n - eta * grads.row(i).transpose();
      }
      const Eigen::VectorXd own = x.row(canary_agent).transpose();
      Eigen::VectorXd m_dprime = m_d + sum / n - eta * audited_subgradient(canary->on_dprime, own, faults);
      m_d += sum / n - eta * audited_subgradient(canary->on_d, own, faults);
      e2e->release_gaussian(y.data(), m_d.data(), m_dprime.data(), d, std::sqrt(static_cast<double>(honest)) * sigma);
    }
    x = next;
    sum = share_and_reconstruct(x, codec, shares, broadcasts, max_error);
    if (!lean) result.trace.push_back(record_step(k, x, broadcasts, problem.locals, network_average(x)));
    bar.step(k, K);
  }
  if (lean) return result;  // an audit run: its end-to-end context has the statistic
  bar.phase(0.9, 1, "accounting");
  finish_result(result, params, K, network_average(x), problem);

  const double step_sens = hi_up(exact(eta) * exact(sens_l2));  // rounded up
  if (!noise) {
    result.claimed = {{"epsilon", inf_json()}, {"delta", 0.0}, {"source", "noise=off: plain DGD, no privacy"}};
    result.accounted = {{"epsilon", inf_json()}, {"delta", 0.0}, {"method", "noise=off: no privacy"}};
  } else {
    // Classical Gaussian calibration (Dwork-Roth Thm A.1; valid for eps < 1): eps = Delta sqrt(2 ln(1.25/delta))/sigma;
    // Thm 2.1.1: eps/sqrt(N') per round (upper bound as claimed); K rounds by basic composition (the thesis is silent).
    const double eps_agent = step_sens * std::sqrt(2 * portable::binary64::log(1.25 / delta)) / sigma;
    const double eps_round = eps_agent / std::sqrt(static_cast<double>(honest));
    result.claimed = {
        {"epsilon", K * eps_round},
        {"delta", K * delta},
        {"source",
         "Xiao 2019 Thm 2.1.1: (eps/sqrt(N'), delta) per round, eps = Delta sqrt(2 ln(1.25/delta))/sigma "
         "(classical calibration), Delta = eta * l2 sensitivity of the local gradient"},
        {"epsilon_per_round", eps_round},
        {"epsilon_per_agent_step", eps_agent},
        {"honest", honest},
        {"note",
         std::string("the thesis is silent on composition over the K rounds; K times the per-round figure "
                     "(basic composition) is reported") +
             (eps_agent >= 1 ? "; the classical calibration is only valid for eps < 1 and eps >= 1 here" : "")}};
    // Colluders see the honest agents' sum: noise N(0, N' sigma^2) per coordinate, l2 sensitivity eta Delta2 per
    // round; K rounds composed exactly (analytic Gaussian, Balle-Wang 2018) by the automatic accountant.
    LedgerEntry entry;
    entry.mechanism.kind = MechanismKind::gaussian;
    // Rounded in the safe direction: the noise down, the sensitivity up (interval arithmetic).
    entry.mechanism.sigma = lo_down(sqrt(exact_int(honest)) * exact(sigma));
    entry.mechanism.sens = step_sens;  // already rounded up
    entry.steps = K;
    result.mechanisms.push_back(Json{{"mechanism", "gaussian"},
                                     {"sigma", entry.mechanism.sigma},
                                     {"sens", entry.mechanism.sens},
                                     {"steps", entry.steps}});
    // The K rounds are one Gaussian with mu = sqrt(K) sens / sigma (rounded up).
    const Interval mu = sqrt(exact_int(K)) * exact(entry.mechanism.sens) / exact(entry.mechanism.sigma);
    const std::string spec = "gaussian:sigma=" + shortest_decimal(entry.mechanism.sigma) + ",sens=" + shortest_decimal(step_sens) +
                             ",steps=" + std::to_string(K);
    const std::string setting = "of gaussian:sigma=sqrt(N')*sigma,sens=eta*Delta2,steps=K: the colluders see the "
                                "honest sum; each agent's own previous state is treated as public as in the thesis; "
                                "certified upper bound";
    if (certainly_gt(mu, exact(kNoiselessMu)) || !(entry.mechanism.sigma > 0)) {
      // Practically no noise: Mironov 2017 Prop. 3 on the curve alpha mu^2/2 (Prop. 7) at its best order
      // alpha = 1 + sqrt(2 log(1/delta))/mu gives eps <= mu^2/2 + mu sqrt(2 log(1/delta)) (upper bound; within
      // a factor 1 + O(1/mu) of the exact curve), in closed form instead of a search over a degenerate curve.
      const Interval eps = mu * mu / exact(2.0) + mu * sqrt(exact(2.0) * log(exact(1.0) / exact(delta)));
      result.accounted = {{"epsilon", entry.mechanism.sigma > 0 ? hi_up(eps) : HUGE_VAL},
                          {"delta", delta},
                          {"method", "closed form mu^2/2 + mu sqrt(2 log(1/delta)) (RDP of the Gaussian, Mironov 2017 "
                                     "Prop. 3 and 7, at its best order; mu = sqrt(K) sens/sigma > 1e6: practically "
                                     "no noise) " + setting},
                          {"spec", spec}};
    } else {
      const AccountingResult r =
          compose(Ledger{entry}, Target::for_delta(delta), AccountantKind::automatic, bar.phase_callback());
      result.accounted = {{"epsilon", hi_up(r.epsilon)},
                          {"delta", delta},
                          {"method", "dpl::compose (auto -> " + r.accountant + ") " + setting},
                          {"spec", spec},
                          {"note", r.note}};
    }
  }
  // For `run --plot`: round k has used k entries of the ledger (one Gaussian per round); the thesis' figure after
  // k rounds is k times the per-round one.
  for (auto& t : result.trace) {
    t.ledger_steps = t.iteration;
    if (result.claimed.contains("epsilon_per_round") && result.claimed["epsilon_per_round"].is_number())
      t.claimed_epsilon = t.iteration * result.claimed["epsilon_per_round"].get<double>();
  }
  result.extra = {{"paper_setting",
                   "Xiao 2019 Sec. 2.1 runs no experiment with this protocol: sigma 0.1, eta 0.5, K 50 on the thesis's "
                   "problem (logistic + |x|^2/2 per agent, unit rows); data " +
                       params.resolved().value("data", std::string()) + " stands in for Adult"},
                  {"sensitivity_l2", sens_l2},
                  {"domain", describe(domain)},
                  {"modulus", std::to_string(codec.modulus())},
                  {"frac_bits", frac_bits},
                  {"max_reconstruction_error", max_error},
                  {"reconstruction_error_bound", n * std::ldexp(1.0, -frac_bits - 1)},
                  {"messages", "share sums s_hat_j in Z_p as doubles (rounded to 53 bits)"}};
  bar.finish();
  return result;
}

}  // namespace dpl::algorithms
