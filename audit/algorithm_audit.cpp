// SPDX-License-Identifier: Apache-2.0
#include "audit/algorithm_audit.h"

#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/mechanisms/ledger_file.h"
#include "accounting/numeric/portable_distributions.h"
#include "accounting/numeric/portable_math.h"
#include "accounting/pld/pld_composition_memo.h"
#include "algorithms/run/algorithm_registry.h"
#include "algorithms/run/assignments.h"
#include "algorithms/run/audit_probe.h"
#include "algorithms/run/end_to_end_audit.h"
#include "audit/block_sampler.h"
#include "audit/clopper_pearson.h"
#include "audit/noise_factor_setting.h"
#include "audit/worker_threads.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>
#include <thread>

namespace dpl::audit {

namespace {

struct Profile {
  std::uint64_t runs;              // default runs
  std::vector<std::string> claim;  // extra keys for the claim run (cheaper accounting that gives the same epsilon and
                                   // ledger: seed 000's expected and realised losses are not read here)
  std::string threat, canary;
  std::vector<std::string> config = {};  // the audit configuration (before the user's --set)
  std::vector<std::string> faults = {"noise"};  // what --inject can put into its code
};

const std::vector<std::pair<std::string, Profile>>& profiles() {
  static const std::string seed000_canary =
      "the target agent's row 0 is a record at the corner of the declared data domain (unit-rows: e_1; unit-cube: "
      "the all-ones row) labelled +1 on D and -1 on D'; with hinge loss its gradients on D and D' differ by B_inf "
      "(the domain's replace-one bound) on the corner's coordinates while |<row, x>| < 1, so its released "
      "coordinates' means move by the ledger's shift; both runs execute the algorithm, the means on D and D' from the "
      "target's own update code at the released history";
  static const std::vector<std::pair<std::string, Profile>> p = {
      {"admm-random-aggregation",
       {2000, {"average_case=off", "loss_precision=double"},
        "every iterate: the target agent's noisy state, every coordinate at every step; its aggregation weight r is "
        "hidden, so each release's density is the Laplace density convolved with the uniform law of its mean on "
        "[min(x_i, mean of the neighbours), max(...)] + the gradient term (the weight integrated out; the ledger "
        "treats each release as a Laplace mechanism of the worst-case shift)",
        seed000_canary,
        {"data=synthetic", "synthetic_dim=1", "loss=hinge", "K=1", "D=0.005", "beta0=0.47"},
        {"noise", "clip", "sensitivity"}}},
      {"dsgd-random-aggregation",
       {1000, {"average_case=off", "loss_precision=double"},
        "every iterate: the target agent's noisy released point (once, at its group's step; the groups are held "
        "fixed); its weight w is hidden, so each release's density is the Laplace density convolved with the uniform "
        "law of its mean on [min(y1, y2), max(y1, y2)] + the gradient term (the weight integrated out)",
        seed000_canary,
        {"data=synthetic", "synthetic_rows=200", "synthetic_dim=1", "loss=hinge", "K=1", "eta0=4", "beta0=0.5"},
        {"noise", "clip", "sensitivity"}}},
      {"dgd-secret-sharing",
       {8000, {}, "the colluders' view: every round's sum of the honest agents' states (secret shares reconstructed), "
        "each agent's previous state public as in the thesis's model and the ledger",
        "the canary agent (the honest agent with the fewest rows, whose bound Delta2 is the ledger's) has row 0 at "
        "the corner of the declared domain (unit-rows: e_1) labelled +1 on D and -1 on D'; with hinge loss its "
        "gradients differ by Delta2 in l2 (all on the first coordinate) while |x_1| < 1, so the honest sum moves by "
        "eta Delta2; both runs execute the algorithm (shares and all), the means on D and D' from the agents' own "
        "update code",
        {"loss=hinge", "K=2", "sigma=0.0158"}, {"noise", "clip", "sensitivity"}}},
      {"dsgd-random-aggregation-minmax",
       {1000, {"average_case=off", "loss_precision=double"},
        "every iterate: the target agent's noisy state, every coordinate at every step; its weight w is hidden, so "
        "each release's density is the Laplace density convolved with the uniform law of its mean on [min, max of "
        "the closed neighbourhood's states] + the gradient term (the weight integrated out)",
        seed000_canary,
        {"data=synthetic", "synthetic_dim=1", "loss=hinge", "K=1", "eta0=500", "beta0=0.2"},
        {"noise", "clip", "sensitivity"}}},
      {"dp-sgd",
       {4000, {}, "every iterate: each step's noisy clipped-gradient sum (observed on the canary's coordinate)",
        "a canary record whose gradient (10 C on a model coordinate of its own) goes through the run's clipping, "
        "summation, noise and update; Poisson-sampled with q like every record; D has it, D' not",
        {"K=10", "q=0.5", "sigma=4"}, {"noise", "clip", "sensitivity", "unsampled", "reuse-noise"}}},
      {"dp-cd",
       {2000, {}, "every iterate: each step's updated coordinates (which ones is visible), against their means on D "
        "and D' from the released state",
        "replace-one: record 0 is the feature row radius e_1 with label +1 on D and -1 on D' (a corner of the declared "
        "domain): its clipped gradients, 2C apart on coordinate 1 while clipping is active, go through the run's "
        "clipping, mean and coordinate step; both runs execute the real steps, the releases on D and D' observed",
        {"K=10", "C=0.1", "sigma=14.2", "coordinates=30"}, {"noise", "clip", "sensitivity"}}},
      {"admm-centralized",
       {2000, {}, "every iterate: the whole state u released at every round; the statistic reads record 0's block",
        "replace-one: record 0 is the feature row radius e_1 with label +1 on D and -1 on D' (a corner of the "
        "declared domain); both runs execute the real rounds, the releases on D and D' observed",
        {"K=5", "C=0.003", "sigma=0.06"}, {"noise", "clip", "sensitivity", "reuse-noise"}}},
      {"admm-lasso",
       {2000, {}, "every iterate: the whole state u released at every round; the statistic reads record 0's block",
        "replace-one: record 0 is the feature row radius e_1 with label +1 on D and -1 on D' (a corner of the "
        "declared domain); both runs execute the real rounds, the releases on D and D' observed",
        {"rows=200", "dim=16", "K=5", "C=0.003", "sigma=0.06"}, {"noise", "clip", "sensitivity", "reuse-noise"}}},
      {"admm-federated",
       {2000, {}, "every iterate: the whole state u released at every round; the statistic reads user 0's block at "
        "each round it takes part (its participations beyond the claim's steps are not counted)",
        "replace-one: user 0's record is the feature row radius e_1 with label +1 on D and -1 on D' (a corner of the "
        "declared domain); both runs execute the real rounds, the releases on D and D' observed",
        {"data=lasso-synthetic", "loss=squared", "rows=200", "dim=16", "m=180", "K=6", "C=0.003", "sigma=0.066"},
        {"noise", "clip", "sensitivity", "reuse-noise"}}},
      {"admm-decentralized",
       {2000, {}, "every iterate: the whole state u released at every walk step; the statistic reads user 0's block "
        "at each step it takes (its steps beyond the claim's are not counted)",
        "replace-one: user 0's record is the feature row radius e_1 with label +1 on D and -1 on D' (a corner of the "
        "declared domain); both runs execute the real walk, the releases on D and D' observed",
        {"data=lasso-synthetic", "loss=squared", "rows=4", "dim=4", "K=160", "C=0.003", "sigma=0.18"},
        {"noise", "clip", "sensitivity", "reuse-noise"}}},
      {"dp-dda-node-sampling",
       {8000, {}, "every message (Definition 2): the target node's noisy subgradient message at each step it is "
        "active (at the audit configuration every node is active at every step, so the ledger's number of active "
        "steps is T surely; with node sampling the active set is visible anyway: an inactive node's z does not "
        "change); the node's one local sample is hidden, so each message's density is the mixture of the Gaussians "
        "of its rows' subgradients (the claim audited is dpledger's accounting: the hidden sample as subsampling "
        "without replacement at ratio 1/q, replace-one; the paper's Theorem 1 amplifies by iota as if the active "
        "set were hidden, which `dpledger check 004/eq-16` refutes)",
        "replace-one at the corner of the declared domain, the worst case of the hidden sample: on D every row of the "
        "target node (the fewest rows, q, among the most often active) is the feature row e_1 labelled +1; on D' its "
        "row 0 is labelled -1 (hinge subgradients -L e_1 and +L e_1, 2L apart while |x_1| < 1, L = 1 the ledger's), "
        "so the message is N(-e_1, sigma^2) on D and the mixture with weight 1/q on N(+e_1, sigma^2) on D'; both runs "
        "execute the real steps; each message scored by the likelihood ratio of the two mixtures over the node's "
        "hidden sample, from the released history",
        {"activation=all", "T=10", "sigma=1.9", "gamma0=100", "delta=1e-5"}, {"noise", "unsampled"}}},
      {"wang-nedic",
       {1000, {}, "every iterate: the audited agent's noisy messages y^k = x^k + Lap(nu^k) (the agent whose accounted "
        "loss sum_k s^k/nu^k is the largest), every coordinate; the other agents' messages, also released, have the "
        "same density on D and D' given the released history",
        "replace-one in the audited agent's data: its row 0 is the feature row e_1 with label +1e9 on D and -1e9 on "
        "D', so that its squared-loss gradient, clipped to l1 norm C, is -C e_1 on D and +C e_1 on D' at every step "
        "(2C apart in one direction: message k moves by the accumulated sensitivity s^k the ledger composes); both "
        "runs execute the real iterations",
        {"K=2", "nu_form=affine", "nu_a=0.9", "nu_b=0"}, {"noise", "clip", "sensitivity"}}},
      {"dvp-admm",
       {1000, {}, "every iterate: the audited agent's primal broadcast f_i(t) at every iteration (the agent with the "
        "largest accounted epsilon); its density's noise part: the dual perturbation e, density proportional to "
        "exp(-zeta ||e||), entering the exact step as (C/B_i) e",
        "replace-one at the corner of the declared domain: the agent's row 0 is the feature row e_1 with label +1 "
        "on D and -1 on D' (in one dimension their logistic gradients differ by exactly C/B_i at every point, within "
        "the ledger's one-dimensional bound 1.06 C/B_i); both runs execute the real iterations; from each broadcast "
        "the auditor recovers the "
        "perturbation D and D' imply (the exact step's optimality condition, the run's own objective on each) and "
        "scores its density; the Jacobian factor (bounded in the ledger by -2 ln(1 - x_i)) is left out of the "
        "statistic",
        {"T=1", "zeta=1.79", "data=synthetic", "synthetic_dim=1"}, {"noise", "clip", "sensitivity"}}},
      {"private-radmm",
       {1000, {}, "every iterate: the audited agent's primal broadcast at every odd (perturbed) round (the agent with "
        "the largest accounted epsilon); the even rounds are post-processing (Lemma IV.1); its density's noise part: "
        "the objective perturbation e, density proportional to exp(-alpha ||e||)",
        "replace-one at the corner of the declared domain: the agent's row 0 is the feature row e_1 with label +1 "
        "on D and -1 on D' (in one dimension their logistic gradients differ by exactly C/B_i at every point, within "
        "the ledger's one-dimensional bound 1.06 C/B_i); both runs execute the real rounds; from each odd broadcast "
        "the auditor recovers the "
        "perturbation D and D' imply (the exact step's optimality condition, the run's own objective on each) and "
        "scores its density; the Jacobian factor (bounded in the ledger by -2 ln(1 - x_i)) is left out of the "
        "statistic",
        {"K=1", "alpha=3.58", "data=synthetic", "synthetic_dim=1"}, {"noise", "clip", "sensitivity"}}},
  };
  return p;
}

const Profile* profile(const std::string& a) {
  for (const auto& [name, p] : profiles())
    if (name == a) return &p;
  return nullptr;
}

double number_or(const algorithms::Json& j, const std::string& key, double def) {
  return j.contains(key) && j.at(key).is_number() ? j.at(key).get<double>() : def;
}

// The claim's largest allowed P(E) given Q(E) <= q, over the curve's points: an (eps, delta)-DP pair has
// P <= e^eps Q + delta and 1 - Q <= e^eps (1 - P) + delta (Kairouz, Oh and Viswanath 2015).
double allowed_p(const std::vector<ClaimPoint>& curve, double q) {
  double best = 1;
  for (const auto& c : curve) {
    const double e = portable::binary64::exp(c.epsilon);
    best = std::min({best, e * q + c.delta, 1 - (1 - c.delta - q) / e});
  }
  return std::max(0.0, best);
}

}  // namespace

std::vector<std::string> algorithm_audit_configuration(const std::string& a) {
  const Profile* p = profile(a);
  return p ? p->config : std::vector<std::string>{};
}

std::vector<std::string> applicable_faults(const std::string& a) {
  const Profile* p = profile(a);
  return p ? p->faults : std::vector<std::string>{};
}

void parse_fault(const std::string& algorithm, const std::string& fault, algorithms::InjectedFaults& faults,
                 double& noise_factor) {
  const auto eq = fault.find('=');
  const std::string name = fault.substr(0, eq);
  const std::string allowed =
      "allowed noise=F, clip=F, sensitivity=F (F a number in (0, 1e6]), unsampled or reuse-noise";
  if (name != "noise" && name != "clip" && name != "sensitivity" && name != "unsampled" && name != "reuse-noise")
    throw InputError("--inject " + fault + ": unknown fault: " + allowed);
  const auto faults_here = applicable_faults(algorithm);
  if (std::find(faults_here.begin(), faults_here.end(), name) == faults_here.end()) {
    std::string list;
    for (const auto& f : faults_here) list += (list.empty() ? "" : ", ") + f;
    throw NotApplicable("--inject " + name + " does not apply to " + algorithm + "'s audit (faults that apply: " +
                        list + "; `dpledger audit --list-faults " + algorithm + "`)");
  }
  if (name == "unsampled" || name == "reuse-noise") {
    if (eq != std::string::npos) throw InputError("--inject " + fault + ": " + name + " takes no value");
    (name == "unsampled" ? faults.unsampled : faults.reuse_noise) = true;
    return;
  }
  double f = 0;
  std::size_t used = 0;
  const std::string value = eq == std::string::npos ? "" : fault.substr(eq + 1);
  try {
    f = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (value.empty() || used != value.size() || !(f > 0) || !std::isfinite(f) || f > 1e6)
    throw InputError("--inject " + fault + " is out of range: " + name + "=F with F a number in (0, 1e6]");
  if (name == "noise") noise_factor *= f;
  else if (name == "clip") faults.clip *= f;
  else faults.sensitivity *= f;
}

std::vector<std::string> auditable_algorithms() {
  std::vector<std::string> v;
  for (const auto& [name, p] : profiles()) v.push_back(name);
  return v;
}

bool is_auditable(const std::string& a) { return profile(a) != nullptr; }

std::uint64_t algorithm_audit_default_runs(const std::string& a) {
  const Profile* p = profile(a);
  return p ? p->runs : 1000;
}

AlgorithmAuditResult algorithm_audit(const AlgorithmAuditPlan& given, const std::function<void(std::uint64_t, std::uint64_t)>& progress) {
  AlgorithmAuditPlan plan = given;
  const NoiseFactorSetting noise = split_noise_factor(given.sets, 1e6, "(0, 1e6]");
  const double noise_factor = noise.factor * given.noise_factor;
  const auto& entry = algorithms::find_algorithm(plan.algorithm);
  const Profile* prof = profile(plan.algorithm);
  if (!prof) {
    std::string known;
    for (const auto& a : auditable_algorithms()) known += (known.empty() ? "" : ", ") + a;
    throw NotApplicable("audit " + plan.algorithm + ": no audit for this algorithm (audited: " + known + ")");
  }
  // The audit configuration first, the user's --set over it (a later assignment of a key wins).
  plan.sets = prof->config;
  plan.sets.insert(plan.sets.end(), noise.run_sets.begin(), noise.run_sets.end());
  if (plan.runs == 0) plan.runs = prof->runs;
  if (plan.runs < 4 || plan.runs > 10'000'000)
    throw InputError("--runs=" + std::to_string(plan.runs) + " is out of range for an algorithm: allowed [4, 10000000]");
  if (!(plan.confidence > 0 && plan.confidence < 1)) throw InputError("--confidence is out of range: allowed (0, 1)");

  AlgorithmAuditResult w;
  w.algorithm = plan.algorithm;
  w.threat_model = prof->threat;
  w.canary = prof->canary;
  w.noise_factor = noise_factor;
  w.configuration = prof->config;
  w.faults = plan.faults_text;
  w.tests = plan.tests;
  w.claim = plan.claim;
  w.runs = plan.runs;
  w.confidence = plan.confidence;

  // The claim: the run's own accounting at the claimed noise (its parameters as given, no probe).
  std::vector<std::string> claim_sets = plan.sets;
  claim_sets.insert(claim_sets.end(), prof->claim.begin(), prof->claim.end());
  algorithms::AuditSetupCache cache;  // the problem (and public draws) every run of this audit shares
  cache.seed = block_seed(plan.seed, 0);
  algorithms::AuditProbe claim_probe(1.0, &cache);
  claim_probe.set_lean(false);
  algorithms::RunParameters claim_params = algorithms::RunParameters::from_assignments(claim_sets);
  claim_params.set_audit_probe(&claim_probe);
  const algorithms::RunResult claim_run = entry.run(claim_params, block_seed(plan.seed, 0));
  w.claim_epsilon = number_or(claim_run.accounted, "epsilon", INFINITY);
  w.claim_delta = number_or(claim_run.accounted, "delta", 0);
  if (!std::isfinite(w.claim_epsilon))
    throw NotApplicable("audit " + plan.algorithm + ": the run has no finite accounted epsilon (noise off?): nothing to audit");
  // The runs' cap on the releases counted is the accounted ledger's steps, whichever claim is audited.
  std::uint64_t cap = 0;
  if (plan.claim == ClaimAudited::paper) {
    const algorithms::Json& c = claim_run.claimed;
    const std::string source = c.value("source", std::string("no source"));
    if (!c.contains("epsilon") || !c.at("epsilon").is_number())
      throw NotApplicable("audit " + plan.algorithm + " --claim paper: the paper states no privacy figure for this run (" +
                          source + ")");
    w.claim_epsilon = c.at("epsilon").get<double>();
    w.claim_delta = number_or(c, "delta", w.claim_delta);
    w.claim_theorem = source.substr(0, source.find(':'));
    w.claim_source = "the paper's printed claim: " + source + " (one (epsilon, delta) point, not a certified bound)";
    w.curve.push_back({w.claim_epsilon, w.claim_delta});
  }
  Ledger ledger;
  if (plan.claim == ClaimAudited::paper) {
    // the paper's point alone (above); the ledger only caps the releases counted
    std::string text;
    for (const auto& m : claim_run.mechanisms) text += m.dump() + "\n";
    if (!text.empty())
      for (const auto& e : parse_ledger_text(text, plan.algorithm + " ledger")) cap += static_cast<std::uint64_t>(e.entry.steps);
  } else if (!claim_run.mechanisms.empty()) {
    std::string text;
    for (const auto& m : claim_run.mechanisms) text += m.dump() + "\n";
    for (const auto& e : parse_ledger_text(text, plan.algorithm + " ledger")) ledger.push_back(e.entry);
    w.claim_source = "dpledger's certified privacy curve delta(eps) of the run's ledger at the claimed noise (" +
                     std::to_string(ledger.size()) + " entries; `dpledger run " + plan.algorithm + " --ledger-out`)";
  } else {
    w.claim_source = "the run's accounted (epsilon, delta) (no ledger to draw the whole curve from)";
  }
  // The curve on a grid up to what N runs can resolve (an event's P/Q ratio is at most about N): 16 points.
  const double top = std::min(w.claim_epsilon, portable::binary64::log(static_cast<double>(plan.runs)) + 3);
  const int grid = ledger.empty() ? 0 : 16;
  if (plan.claim == ClaimAudited::accounted) w.curve.push_back({w.claim_epsilon, w.claim_delta});
  // From the top down: delta(eps) is non-increasing, so once the certified bound is 1 the smaller eps add nothing
  // (leaving a point out only lets the claim allow more: never a false violation). Saves the compositions of long
  // ledgers whose curve is vacuous where N runs can resolve it (wang-nedic: 10,000 Laplace entries, 1.6 s each).
  // The PLD accountant composes the ledger once for all the grid's eps (its composed distributions at an epsilon
  // target do not depend on eps): each point is the value compose() gives alone.
  PldCompositionMemo memo;
  PldOptions pld;
  pld.memo = &memo;
  pld.lower = false;  // no certified lower bound is read (the PLD is the last accountant auto tries: its upper bound
                      // is the same with or without one)
  for (int k = grid - 1; k >= 0; --k) {
    const double eps = top * k / grid;
    const AccountingResult a = compose_with_pld_options(ledger, Target::for_epsilon(eps), AccountantKind::automatic, pld);
    const double delta = std::min(1.0, hi_up(a.delta));
    if (!(delta < 1)) break;
    w.curve.push_back({eps, delta});
  }
  std::sort(w.curve.begin(), w.curve.end(), [](const ClaimPoint& a, const ClaimPoint& b) { return a.epsilon < b.epsilon; });

  // The runs: each with its probe; (S_D, S_D') per run.
  // The claim's steps: releases beyond them (a run whose audited unit happens to take part more often than in the
  // claim's run) are not counted, so that the claim covers every view audited.
  for (const auto& e : ledger) cap += static_cast<std::uint64_t>(e.steps);
  if (cap == 0) cap = UINT64_MAX;
  if (plan.shard_count < 1 || plan.shard_index >= plan.shard_count || plan.shard_count > plan.runs)
    throw InputError("--shard=" + std::to_string(plan.shard_index + 1) + "/" + std::to_string(plan.shard_count) +
                     " is out of range for " + std::to_string(plan.runs) + " runs: allowed i/n with 1 <= i <= n <= runs");
  AlgorithmAuditRecords& rec = w.records;
  if (plan.merged) {
    const AlgorithmAuditRecords& m = *plan.merged;
    if (!m.covers(plan.runs))
      throw InputError("audit merge: the shards' records do not cover the " + std::to_string(plan.runs) + " runs");
    rec = m;
  } else {
    rec.assign_zeros(plan.runs);
  }
  std::vector<double>& energy = rec.energy;
  std::vector<std::uint64_t>& draws = rec.draws;
  std::atomic<bool> laplace{rec.laplace}, gamma_norm{rec.gamma_norm};  // set by the worker threads
  // This process's runs: every run, or a shard's i, i + n, i + 2n, ...
  const std::uint64_t first = plan.shard_index, stride = plan.shard_count;
  const std::uint64_t mine = plan.merged ? 0 : (plan.runs - first + stride - 1) / stride;
  if (mine > 0) {
    // The shard's first run alone first: it validates the keys before the parallel work.
    std::atomic<std::uint64_t> next{0}, done{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    std::mutex error_mutex;
    auto one = [&](std::uint64_t j) {
      // Run i: the algorithm executed on D and, with an independent seed, on D'; each run's releases scored.
      const std::uint64_t i = first + j * stride;
      algorithms::EndToEndAudit on_d(true, plan.faults, cap), on_dprime(false, plan.faults, cap);
      for (algorithms::EndToEndAudit* side : {&on_d, &on_dprime}) {
        algorithms::AuditProbe probe(noise_factor, &cache);
        algorithms::RunParameters params = algorithms::RunParameters::from_assignments(plan.sets);
        params.set_audit_probe(&probe);
        algorithms::EndToEndAuditScope scope(side);
        (void)entry.run(params, block_seed(block_seed(plan.seed, i + 1), side == &on_d ? 1 : 2));
      }
      rec.stat_d[i] = on_d.statistic();
      rec.stat_dprime[i] = on_dprime.statistic();
      rec.increments_d[i] = on_d.increments();
      rec.increments_dprime[i] = on_dprime.increments();
      energy[i] = on_d.noise_energy() + on_dprime.noise_energy();
      draws[i] = on_d.draws() + on_dprime.draws();
      using algorithms::NoiseFamily;
      if (on_d.family() != NoiseFamily::gaussian || on_dprime.family() != NoiseFamily::gaussian) {
        laplace = true;
        if (on_d.family() == NoiseFamily::gamma_norm) gamma_norm = true;
      }
      if (i == 0) rec.releases_per_run = on_d.releases();
    };
    one(0);
    next = 1;
    done = 1;
    auto work = [&](unsigned) {
      for (std::uint64_t j; !failed && (j = next.fetch_add(1)) < mine;) {
        try {
          one(j);
        } catch (...) {
          std::lock_guard<std::mutex> lock(error_mutex);
          if (!error) error = std::current_exception();
          failed = true;
        }
        done.fetch_add(1);
      }
    };
    // No more threads than runs left (each thread takes whole runs).
    const unsigned threads = static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>({plan.threads, 256, mine - 1})));
    run_worker_threads(threads, work, [&] {
      if (!progress) return;
      while (done.load() < mine && !failed) {
        progress(done.load(), mine);
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    });
    if (error) std::rethrow_exception(error);
    if (progress) progress(mine, mine);
  }
  rec.laplace = laplace;
  rec.gamma_norm = gamma_norm;
  w.releases_per_run = rec.releases_per_run;
  if (plan.shard_count > 1 && !plan.merged) {
    w.partial = true;
    return w;
  }
  if (w.releases_per_run == 0) throw NotApplicable("audit " + plan.algorithm + ": the audited unit released nothing noisy");
  w.statistic = "the claimed density's log-likelihood ratio log p(y | m_D) / p(y | m_D') of the " +
                std::to_string(w.releases_per_run) +
                " releases y each run made, m_D and m_D' the means the run's update code gives on D and on D' from the "
                "released history, summed; and for Gaussian releases the increments statistic of successive "
                "releases' residuals y - m (their likelihood ratio as if independent; it loses the noise where one "
                "draw is reused); the first half of the runs chooses the event on either";

  // Distinguishing test: the first half of the runs chooses the event (on either statistic), the second half
  // estimates it: one event is tested, at the test's whole error.
  const bool both = plan.tests == AuditTests::both;
  const double alpha = both ? (1 - plan.confidence) / 2 : 1 - plan.confidence;  // each test's share of the error
  const double alpha_each = alpha / 2;              // P's lower and Q's upper bound
  const std::uint64_t half = plan.runs / 2;
  auto count_above = [&](const std::vector<double>& v, std::uint64_t from, std::uint64_t to, double t) {
    std::uint64_t k = 0;
    for (std::uint64_t i = from; i < to; ++i) k += v[i] > t;
    return k;
  };
  double best = -INFINITY;
  for (bool increments : {false, true}) {
    const std::vector<double>& on_d = increments ? rec.increments_d : rec.stat_d;
    const std::vector<double>& on_dprime = increments ? rec.increments_dprime : rec.stat_dprime;
    std::vector<double> pooled;
    for (std::uint64_t i = 0; i < half; ++i) pooled.push_back(on_d[i]), pooled.push_back(on_dprime[i]);
    std::sort(pooled.begin(), pooled.end());
    const std::size_t candidates = std::min<std::size_t>(pooled.size(), 128);
    for (std::size_t c = 0; c < candidates; ++c) {
      const double t = pooled[(pooled.size() - 1) * c / std::max<std::size_t>(1, candidates - 1)];
      const std::uint64_t above_d = count_above(on_d, 0, half, t), above_dp = count_above(on_dprime, 0, half, t);
      for (bool d_first : {true, false}) {
        // d_first: E = {S > t}, P = P_D, Q = P_D'; else E = {S <= t}, P = P_D', Q = P_D.
        const std::uint64_t kp = d_first ? above_d : half - above_dp, kq = d_first ? above_dp : half - above_d;
        const double pl = clopper_pearson_lower(kp, half, alpha_each), qu = clopper_pearson_upper(kq, half, alpha_each);
        const double margin = portable::binary64::log(std::max(pl, 1e-300)) - portable::binary64::log(std::max(allowed_p(w.curve, qu), 1e-300));
        // The likelihood ratio first: the increments statistic is chosen only where it does strictly better.
        if (margin > best) best = margin, w.threshold = t, w.d_first = d_first, w.on_increments = increments;
      }
    }
  }
  const std::vector<double>& chosen_d = w.on_increments ? rec.increments_d : rec.stat_d;
  const std::vector<double>& chosen_dprime = w.on_increments ? rec.increments_dprime : rec.stat_dprime;
  const std::uint64_t n_est = plan.runs - half;
  const std::uint64_t above_d = count_above(chosen_d, half, plan.runs, w.threshold);
  const std::uint64_t above_dp = count_above(chosen_dprime, half, plan.runs, w.threshold);
  w.k_p = w.d_first ? above_d : n_est - above_dp;
  w.k_q = w.d_first ? above_dp : n_est - above_d;
  w.n_p = w.n_q = n_est;
  w.p_lower = clopper_pearson_lower(w.k_p, n_est, alpha_each);
  w.q_upper = clopper_pearson_upper(w.k_q, n_est, alpha_each);
  w.allowed_p = allowed_p(w.curve, w.q_upper);
  w.distinguishing = w.p_lower > w.allowed_p ? Verdict::violation : Verdict::pass;
  w.epsilon_lower = std::max(0.0, epsilon_of_event(w.p_lower, w.q_upper, w.claim_delta));
  if (std::isfinite(w.epsilon_lower)) w.epsilon_lower = std::max(0.0, w.epsilon_lower - 1e-12 * (1 + w.epsilon_lower));

  // Noise check: Gaussian: sum (n/sd)^2 ~ F^2 chi^2_N; Laplace: sum |n|/b ~ F Gamma(N, 1); Gamma-norm noise in R^d:
  // sum alpha ||e|| ~ F Gamma(sum d, 1) (N = sum d). Below the claim's
  // alpha-quantile: the noise drawn is smaller than claimed (at confidence 1 - alpha).
  double e = 0;
  std::uint64_t n = 0;
  for (std::uint64_t i = 0; i < plan.runs; ++i) e += energy[i], n += draws[i];
  w.noise_family = gamma_norm ? "gamma-norm" : laplace ? "laplace" : "gaussian";
  w.noise_draws = n;
  if (n > 0) {
    const double N = static_cast<double>(n);
    const double shape = laplace ? N : N / 2, scale = laplace ? 1.0 : 2.0;
    const double lower = static_cast<double>(portable::gamma_quantile(shape, alpha)) * scale;  // the claim's alpha-quantile
    w.noise_ratio = e / N;  // 1 in expectation under the claim (E n^2/sd^2 = 1, E |n|/b = 1)
    w.noise_ratio_lower = lower / N * (1 - 1e-9);
    w.noise = w.noise_ratio < w.noise_ratio_lower ? Verdict::violation : Verdict::pass;
  }
  const bool use_d = plan.tests != AuditTests::noise, use_n = plan.tests != AuditTests::distinguishing;
  w.verdict = (use_d && w.distinguishing == Verdict::violation) || (use_n && w.noise == Verdict::violation)
                  ? Verdict::violation
                  : Verdict::pass;
  return w;
}

}  // namespace dpl::audit
