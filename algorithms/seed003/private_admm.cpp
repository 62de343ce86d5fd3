// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed003/private_admm.h"

#include "accounting/errors.h"
#include "algorithms/run/audit_probe.h"
#include "algorithms/run/end_to_end_audit.h"
#include "algorithms/run/mechanism_ledger.h"
#include "algorithms/run/run_progress.h"
#include "algorithms/seed003/consensus_admm_operator.h"
#include "algorithms/seed003/erm_problem.h"
#include "algorithms/seed003/lasso_coordinate_descent.h"
#include "algorithms/seed003/ledger_epsilon.h"
#include "algorithms/seed003/paper_privacy_claims.h"
#include "algorithms/seed003/record_sensitivity.h"
#include "algorithms/seed003/run_common.h"

#include <algorithm>
#include <cmath>

namespace dpl::algorithms::seed003 {

namespace {

enum class Deployment { centralized, federated, decentralized, lasso };

struct AdmmKeys {
  std::int64_t K;
  double gamma, lambda, sigma, clip, delta;
  int m = 0;
  bool printed = false;
};

Json candidate(const std::string& name, const std::vector<std::string>& specs, double delta, AccountantKind kind) {
  Json c = ledger_epsilon(specs, delta, kind);
  c["name"] = name + " / " + to_string(kind);
  return c;
}

RunResult run_admm(RunParameters& params, std::uint64_t seed, Deployment dep, const ProgressCallback& progress) {
  Rng rng(seed);
  ErmDefaults defaults;
  if (dep == Deployment::lasso) {
    defaults.data = "lasso-synthetic";
    defaults.loss = "squared";
    defaults.l2 = 0;
    defaults.l1 = 0.001;  // far from zero: F* = 0.0074 against F(0) = 0.0149 (kappa 0.01 gives 0.0147 vs 0.0149)
  }
  ErmProblem problem = setup_erm(params, defaults, rng);
  const int n = problem.records(), p = problem.dim();
  // Defaults. The DR operator's contraction is set by the record step gamma_p (|1 - gamma_p h|/(1 + gamma_p h) on a
  // quadratic of curvature h): gamma_p = 10 (Lasso: 5) contracts fast where the data curve and through the l2 term
  // elsewhere; gamma_p = 0.05 needed ~3e4 rounds. Clipping x_i - z at C keeps the sensitivity 2C independent of
  // gamma_p and leaves the fixed point unchanged (x_i = z there). The sampled variants update q = m/n (federated)
  // or 1/n (decentralized: K counts walk steps, one user each) of the blocks per iteration, so they need about
  // 1/q times the rounds (block-coordinate Krasnosel'skii-Mann converges in expectation at a rate proportional to
  // q); non-private runs (sigma=0) reach suboptimality < 1e-6 with these defaults (tests/algorithms).
  // The centralized run's defaults are set for privacy (below): K 30, gamma_p 30, C 0.03; without noise K 100,
  // gamma_p 10, C 0.05 reach suboptimality < 1e-6.
  const std::int64_t default_K = dep == Deployment::centralized ? 30
                                 : dep == Deployment::federated ? 2000
                                 : dep == Deployment::decentralized ? 200 * static_cast<std::int64_t>(n)
                                                                    : 100;
  AdmmKeys k;
  k.K = params.integer("K", default_K, 1, 100000000);
  k.gamma = params.real("gamma", dep == Deployment::lasso ? 10.0 * n : dep == Deployment::centralized ? 30.0 : 10.0, 0,
                        1e12, true);
  // lambda < 1 for the randomly activated blocks (block-coordinate Krasnosel'skii-Mann needs an averaged map).
  const bool sampled = dep == Deployment::federated || dep == Deployment::decentralized;
  k.lambda = params.real("lambda", sampled ? 0.5 : 1.0, 0, 1, true);
  // sigma: 0.3746 for the centralized run (eps 9.4 at delta 1e-6, record-level: with K 30 and C 0.03 all of
  // seeds 1-5 beat the zero model; at eps ~ 4.7 one of them does not); the user-level runs learn only with far
  // less noise under the certified accounting (their users' own participations, no amplification): at sigma 2
  // (eps ~ 8) they end above the zero model, at 0.25 (eps ~ 135) they learn; Algorithm 6 on the Lasso needs 0.05
  // (eps ~ 990): the noise of every record's block accumulates in the mean of u, which the DR map contracts by
  // only 1/(1 + gamma_p lambda_min) per round (docs/cyffers2023.md).
  const double default_sigma = dep == Deployment::centralized ? 0.3746 : dep == Deployment::lasso ? 0.05 : 0.25;
  k.sigma = params.real("sigma", default_sigma, 0, 1e6);
  k.clip = params.real("C", dep == Deployment::centralized ? 0.03 : 0.05, 0, 1e12);
  k.delta = params.real("delta", 1e-6, 0, 1, true, true);
  if (dep == Deployment::federated)
    k.m = static_cast<int>(params.integer("m", std::max<std::int64_t>(1, std::lround(n / 10.0)), 1, n));
  if (dep == Deployment::lasso) k.printed = params.choice("scaling", "fixed", {"fixed", "printed"}) == "printed";
  const bool account_run = params.flag("account", true);  // off: no accountant (a sweep's tuning runs)
  AuditProbe* const probe = params.audit_probe();
  params.reject_unknown();
  const int per_step = dep == Deployment::decentralized ? 1 : dep == Deployment::federated ? k.m : n;
  if (static_cast<double>(k.K) * per_step * p > 1e9)
    throw InputError("K=" + std::to_string(k.K) + " is too large: allowed K x (users per step) x dim <= 1e9 (a few "
                     "seconds)");
  const double clip = k.clip > 0 ? k.clip : HUGE_VAL;
  if (dep == Deployment::lasso && problem.loss != LossKind::squared)
    throw InputError("admm-lasso needs loss=squared: got " + to_string(problem.loss));

  // Steps: Algorithm 2's prox_{gamma f_i} and prox_{gamma r}; Algorithm 6 prints (a a^T + (2n/gamma) I)^{-1}, the
  // prox of step gamma/(2n) on (1/2)(a^T x - b)^2, with S_{gamma kappa} (printed) or S_{gamma kappa/(2n)} (fixed).
  const double t = dep == Deployment::lasso ? k.gamma / (2.0 * n) : k.gamma;
  const double t_z = dep == Deployment::lasso && k.printed ? k.gamma : t;
  // End-to-end audit: the run's data set is D or D' (record 0 the canary, with_canary_record), and the faults
  // injected into this code: the clipping bound used (the ledger below keeps k.clip) and the records' contribution.
  EndToEndAudit* const e2e = probe ? end_to_end_audit() : nullptr;
  const InjectedFaults faults = e2e ? e2e->faults() : InjectedFaults{};
  if (e2e) problem = with_canary_record(problem, e2e->on_d());
  const double clip_used = clip * faults.clip;
  ConsensusAdmmOperator R(
      n, p, [&problem](int i, const Eigen::VectorXd& v, double s) { return problem.record_prox(i, v, s); },
      [&problem](const Eigen::VectorXd& v, double s) { return problem.reg.prox(v, s); }, t, t_z, clip_used);
  R.set_contribution_scale(faults.sensitivity);
  FixedPointConfig cfg;
  cfg.iterations = k.K;
  cfg.block_dim = p;
  cfg.lambda = k.lambda;
  cfg.sigma = k.sigma;  // u_i += lambda (R_i(u) + eta_i - u_i) = u_i + 2 lambda (Clip(x_i - z) + eta_i/2)
  cfg.reuse_noise = faults.reuse_noise;
  // The white-box auditor of an end-to-end run: this same operator on D and on D' (the canary record +1 and -1),
  // giving record 0's block update on each from the released state.
  const ErmProblem canary_d = e2e ? with_canary_record(problem, true) : ErmProblem{};
  const ErmProblem canary_dprime = e2e ? with_canary_record(problem, false) : ErmProblem{};
  auto auditor_of = [&](const ErmProblem& data) {
    ConsensusAdmmOperator a(
        n, p, [&data](int i, const Eigen::VectorXd& v, double s) { return data.record_prox(i, v, s); },
        [&data](const Eigen::VectorXd& v, double s) { return data.reg.prox(v, s); }, t, t_z, clip_used);
    a.set_contribution_scale(faults.sensitivity);
    return a;
  };
  const ConsensusAdmmOperator auditor_d = auditor_of(e2e ? canary_d : problem);
  const ConsensusAdmmOperator auditor_dprime = auditor_of(e2e ? canary_dprime : problem);
  Eigen::VectorXd released_before;  // the state released at the previous step (end-to-end audits)
  std::int64_t block0_touches = 0;
  if (e2e) {
    if (!(k.sigma > 0)) throw NotApplicable("audit: sigma=0 releases the iterates without noise: nothing to audit");
    cfg.sigma = k.sigma * probe->noise_factor();
  }
  cfg.activation = dep == Deployment::federated || dep == Deployment::decentralized ? BlockActivation::fixed_size
                                                                                     : BlockActivation::all;
  cfg.active_count = per_step;
  RunResult r;
  r.algorithm = dep == Deployment::centralized     ? "admm-centralized"
                : dep == Deployment::federated     ? "admm-federated"
                : dep == Deployment::decentralized ? "admm-decentralized"
                                                   : "admm-lasso";
  const Eigen::VectorXd u0 = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(n) * p);
  const std::int64_t stride = trace_stride(k.K);
  r.trace.push_back(trace_point(0, R.z_of(u0), problem));
  r.trace.back().ledger_steps = 0;
  Rng noise = rng.split();
  bool diverged = false;
  const bool per_user = dep == Deployment::federated || dep == Deployment::decentralized;
  // Progress: the rounds, then the accounting (a few compositions of one Gaussian ledger).
  RunProgress bar(progress);
  bar.phase(0, 0.8, dep == Deployment::decentralized ? "walk step" : "round");
  if (e2e) released_before = u0;
  const FixedPointRun run = private_fixed_point_iteration(u0, R, cfg, noise, {}, [&](std::int64_t it, const FixedPointRun& now) {
    bar.step(it, k.K);
    if (e2e) {
      // Record 0's block as released (when active), against its update on D and on D' from the state released
      // before: m = (1 - lambda) u_0 + lambda R_0(u), the noise lambda eta (claimed std lambda sigma).
      const auto released = now.u.head(p);
      if (now.touches[0] > block0_touches) {
        block0_touches = now.touches[0];
        const Eigen::VectorXd before = released_before.head(p);
        const Eigen::VectorXd m_d = (1 - k.lambda) * before + k.lambda * auditor_d.block(released_before, 0);
        const Eigen::VectorXd m_dprime = (1 - k.lambda) * before + k.lambda * auditor_dprime.block(released_before, 0);
        const Eigen::VectorXd y = released;
        e2e->release_gaussian(y.data(), m_d.data(), m_dprime.data(), p, k.lambda * k.sigma);
      }
      // The released state is the history: only the blocks this step updated changed.
      for (int b : now.active) released_before.segment(static_cast<Eigen::Index>(b) * p, p) = now.u.segment(static_cast<Eigen::Index>(b) * p, p);
    }
    if (probe && probe->lean()) return;  // an audit run: no trace
    if (it % stride == 0 || it == k.K) {
      r.trace.push_back(trace_point(it, R.z_of(now.u), problem));
      // The ledger's steps used by then: every round (record-level), or the most participations of a user so far.
      r.trace.back().ledger_steps = per_user ? *std::max_element(now.touches.begin(), now.touches.end()) : it;
      diverged = diverged || !std::isfinite(r.trace.back().objective);
    }
  });
  if (probe && probe->lean()) return r;  // an audit run: the end-to-end audit has its statistics
  const Eigen::VectorXd z = R.z_of(run.u);  // the only release
  finish_seed003_result(r, params, k.K, z, problem, R.z_of(u0));
  const std::string data = params.resolved().value("data", std::string());
  r.extra["paper_setting"] =
      dep == Deployment::lasso
          ? "Cyffers, Bellet and Basu 2023 App. E: Lasso on synthetic n 1000, p 64 at delta 1e-6 (this data, kappa 0.001 so "
            "that the optimum is far from zero); the paper's Figure 1 budgets are those of its federated model; "
            "Algorithm 6 learns here only at eps ~ 990 (sigma 0.05): the records' noise accumulates in mean(u)"
      : dep == Deployment::centralized
          ? "Cyffers, Bellet and Basu 2023 Algorithm 2 at App. E's delta 1e-6, eps 9.4 (record-level; each record's block "
            "carries its own noise, so the mean of u is sqrt(n) times noisier than one noisy gradient: at eps ~ 4.7 "
            "the run barely moves from zero); " + data +
                " stands in for the paper's synthetic Lasso (data=lasso-synthetic)"
          : "Cyffers, Bellet and Basu 2023 Algorithm " + std::string(dep == Deployment::federated ? "3" : "4") +
                ", user-level, one record per user, delta 1e-6; the paper's Figure 1 budgets use subsampling "
                "amplification, which does not certify here (users' persistent u_i): under the certified "
                "accounting it does not learn at eps ~ 8 (sigma 2) and the default sigma 0.25 costs eps ~ 135; " +
                data + " stands in for the paper's synthetic Lasso";
  r.extra["diverged"] = diverged;
  r.extra["prox_step_gamma_p"] = t;
  r.extra["regulariser_step"] = t_z;
  const std::int64_t K_i = *std::max_element(run.touches.begin(), run.touches.end());
  r.extra["max_participations"] = K_i;

  if (dep == Deployment::lasso) {
    const double l1_target = k.printed ? 2.0 * n * problem.reg.l1 : problem.reg.l1;
    const LassoSolution target = lasso_coordinate_descent(problem.train.features, problem.train.labels, l1_target,
                                                          problem.reg.l2);
    r.extra["scaling"] = k.printed ? "printed: x-update step gamma/(2n) with S_{gamma kappa}; the fixed point is the "
                                     "Lasso with 2 n kappa, not kappa (Cyffers, Bellet and Basu 2023 App. E bug)"
                                   : "fixed: x-update step gamma/(2n) with S_{gamma kappa/(2n)}; the fixed point is the "
                                     "Lasso with kappa";
    r.extra["fixed_point_l1"] = l1_target;
    r.extra["distance_to_fixed_point_lasso"] = (z - target.x).norm();
  }

  // Privacy. The noised per-record quantity is Clip(x_i - z, C) + eta_i/2: sensitivity 2 min(L gamma_p, C)
  // (replace-one), noise std sigma/2.
  const double L = problem.record_lipschitz();
  const double L_gamma = std::min(L * t, clip);
  const double sens = record_sensitivity(L * t, clip, Neighbouring::replace_one);
  if (k.sigma == 0 || !std::isfinite(sens)) {
    const std::string why = k.sigma == 0 ? "sigma=0: no noise" : "the loss is not Lipschitz on the domain and C=0 (no "
                                                                 "clipping): unbounded sensitivity";
    r.claimed = {{"epsilon", "inf"}, {"source", why}};
    r.accounted = {{"epsilon", "inf"}, {"delta", 0}, {"method", why}};
    bar.finish();
    return r;
  }
  if (!account_run) {
    r.claimed = {{"epsilon", "not computed (account=off)"}};
    r.accounted = {{"epsilon", "not computed (account=off)"}, {"delta", k.delta}};
    bar.finish();
    return r;
  }
  bar.phase(0.8, 1, "accounting");
  const std::string gauss = "gaussian:sigma=" + spec_number(k.sigma / 2) + ",sens=" + spec_number(sens);
  Json candidates = Json::array();
  Json notes = Json::object();
  // The paper's formula after the first t rounds (steps), for `run --plot`.
  for (auto& point : r.trace) {
    if (point.iteration == 0) continue;
    point.claimed_epsilon = dep == Deployment::federated ? theorem3_central(point.iteration, L_gamma, k.sigma, k.m, n, k.delta).epsilon
                            : dep == Deployment::decentralized ? theorem4(point.ledger_steps, L_gamma, k.sigma, n, k.delta).epsilon
                                                               : theorem2(point.iteration, L_gamma, k.sigma, n, k.delta).epsilon;
  }
  if (dep == Deployment::centralized || dep == Deployment::lasso) {
    r.claimed = to_json(theorem2(k.K, L_gamma, k.sigma, n, k.delta));
    if (std::isfinite(clip) && clip < L * t)
      r.claimed["note"] = "with clipping, C replaces L gamma in the formula (App. E: clipping gives the sensitivity)";
    const std::vector<std::string> ledger{gauss + ",steps=" + std::to_string(k.K)};
    for (auto kind : {AccountantKind::rdp, AccountantKind::optimal})
      candidates.push_back(candidate("composition over the K rounds", ledger, k.delta, kind));
    notes["model"] = "record-level, replace-one; the whole u trajectory released (z_K is post-processing), each round a "
                     "Gaussian on the record's block";
    notes["iteration"] = "amplification by iteration gives nothing here: the record is used in every round (Theorem 6 "
                         "with s_k = Delta at every step is the composition)";
    notes["paper_gap"] = "Theorem 2's 1/n^2 holds only if gamma is n times Algorithm 2's prox step (docs/cyffers2023.md sec. 3): "
                         "with the printed prox_{gamma f_i} its bound is n^2 times too small";
  } else if (dep == Deployment::federated) {
    r.claimed = to_json(theorem3_central(k.K, L_gamma, k.sigma, k.m, n, k.delta));
    r.claimed["local"] = to_json(theorem3_local(K_i, L_gamma, k.sigma, k.delta));
    const std::vector<std::string> local{gauss + ",steps=" + std::to_string(K_i)};
    for (auto kind : {AccountantKind::rdp, AccountantKind::optimal})
      candidates.push_back(candidate("user's own participations (local view; central by post-processing)", local,
                                     k.delta, kind));
    const Json sub = ledger_epsilon({gauss + ",q=" + spec_number(static_cast<double>(k.m) / n) + ",sampling=wor,steps=" +
                                     std::to_string(k.K)},
                                    k.delta, AccountantKind::rdp);
    notes["subsampled_epsilon_not_certified"] = sub["epsilon"];
    notes["subsampled_ledger"] = sub["ledger"];
    notes["subsampled_note"] =
        "fixed-size subsampling (m of n, replace-one) over K rounds, as the paper's central model assumes; NOT "
        "certified: the users' persistent u_i depend on their unreleased past noise, so adaptive composition over "
        "the released z_k does not apply as is; aggregation helps by 1/m, not the paper's 1/m^2, and Lemma C.1 gives "
        "4q^2, not 2q^2";
    notes["model"] = "user-level (one record per user), replace-one; every message of the user released";
  } else {
    r.claimed = to_json(theorem4(K_i, L_gamma, k.sigma, n, k.delta));
    const std::vector<std::string> local{gauss + ",steps=" + std::to_string(K_i)};
    for (auto kind : {AccountantKind::rdp, AccountantKind::optimal})
      candidates.push_back(candidate("user's own contributions (every message released)", local, k.delta, kind));
    notes["model"] = "user-level, replace-one; every z_k released to everyone (any user's view is post-processing)";
    notes["paper_gap"] =
        "Theorem 4's proof applies amplification by iteration to single-block updates, which are expansive (Lipschitz "
        "constant above 1 for gamma h != 1, test seed003_consensus_admm_test), plugs losses where shifts belong and "
        "drops the weak-convexity factor (1+c); dpledger does not use it";
  }
  const Json best = best_certified(candidates);
  r.accounted = best;
  if (best["epsilon"].is_number()) r.mechanisms = mechanism_ledger_json(best["ledger"].get<std::vector<std::string>>());
  r.accounted.erase("name");
  r.accounted.erase("from");
  r.accounted["best_epsilon"] = best["epsilon"];
  r.accounted["best_from"] = best.value("from", std::string("none"));
  r.accounted["candidates"] = candidates;
  r.accounted["accountants_note"] = "unsampled Gaussian ledgers: rdp and optimal (the exact analytic Gaussian curve; PLD "
                                    "adds nothing there and is slow at large epsilon)";
  for (auto& [key, v] : notes.items()) r.accounted[key] = v;
  bar.finish();
  return r;
}

}  // namespace

RunResult run_admm_centralized(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress) {
  return run_admm(params, seed, Deployment::centralized, progress);
}
RunResult run_admm_federated(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress) {
  return run_admm(params, seed, Deployment::federated, progress);
}
RunResult run_admm_decentralized(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress) {
  return run_admm(params, seed, Deployment::decentralized, progress);
}
RunResult run_admm_lasso(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress) {
  return run_admm(params, seed, Deployment::lasso, progress);
}

}  // namespace dpl::algorithms::seed003
