// SPDX-License-Identifier: Apache-2.0
// Audits of the papers' algorithms as implemented (dpledger audit ALGORITHM): N runs, each executing the algorithm's
// own code on D (the canary record in the data) and, with an independent seed, on D' (the canary record changed),
// under an end-to-end audit context (algorithms/run/end_to_end_audit.h) that reads what the threat model releases
// and sums the claimed density's log-likelihood ratio of each release under the means the run's update code gives
// on D and on D' from the released history. The neighbouring pair is the profile's canary (a record at the corner
// of the declared domain or at the clipping bound).
// Two tests share the confidence C (Bonferroni, (1 - C)/2 each):
//  - distinguishing (black-box on the released outputs): the threshold test of the statistic on D against D',
//    exact Clopper-Pearson bounds, against the run's claimed privacy curve delta(eps) (the accountant's certified
//    curve of the run's ledger at the CLAIMED noise); a violation is an event E with
//    P_D(E) > e^eps P_D'(E) + delta(eps) (or the reverse) for some eps of the curve, at confidence;
//  - noise (white-box): the noise drawn, in units of the claimed scale, against its claimed distribution
//    (sum of squares ~ chi^2, sum of |.| ~ Gamma): a one-sided test that the run draws less noise than claimed.
#pragma once

#include "algorithms/run/end_to_end_audit.h"
#include "audit/threshold_test.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace dpl::audit {

// Which tests carry the verdict: the black-box distinguishing test on the released outputs, the white-box noise
// check of the draws, or both (Bonferroni over the two).
enum class AuditTests { distinguishing, noise, both };
// Which claim is audited: dpledger's accounting of the run (its certified curve) or the paper's printed figure.
enum class ClaimAudited { accounted, paper };

// The per-run records of an algorithm audit (what the decision reads): for run i the statistics on D and D' (the
// summed likelihood ratio, and the increments statistic of the Gaussian releases), the white-box noise check's
// energy and draws; with the facts taken from the first run and the noise family.
struct AlgorithmAuditRecords {
  std::vector<double> stat_d, stat_dprime, increments_d, increments_dprime, energy;
  std::vector<std::uint64_t> draws;
  std::uint64_t releases_per_run = 0;  // the audit's run 0
  bool laplace = false, gamma_norm = false;
  // Every per-run list sized to `runs`, zero.
  void assign_zeros(std::uint64_t runs) {
    for (auto* v : {&stat_d, &stat_dprime, &increments_d, &increments_dprime, &energy}) v->assign(runs, 0);
    draws.assign(runs, 0);
  }
  // Whether every per-run list holds exactly `runs` entries.
  bool covers(std::uint64_t runs) const {
    for (const auto* v : {&stat_d, &stat_dprime, &increments_d, &increments_dprime, &energy})
      if (v->size() != runs) return false;
    return draws.size() == runs;
  }
};

struct AlgorithmAuditPlan {
  std::string algorithm;
  std::vector<std::string> sets;  // key=value for the algorithm, over the audit configuration; actual_noise_factor=F
                                  // is the audit's (as --inject noise=F)
  algorithms::InjectedFaults faults;  // injected into the run's code (end-to-end audits only)
  AuditTests tests = AuditTests::both;
  ClaimAudited claim = ClaimAudited::accounted;
  double noise_factor = 1;        // --inject noise=F (multiplies actual_noise_factor)
  std::string faults_text;        // the --inject faults as given, for the report
  std::uint64_t runs = 0;         // 0: the algorithm's default (algorithm_audit_default_runs)
  std::uint64_t seed = 1;         // run i uses block_seed(seed, i)
  unsigned threads = 1;
  double confidence = 0.95;
  // --shard i/n: only runs i-1, i-1+n, i-1+2n, ... are executed and the result is partial (no decision);
  // 0-based index.
  std::uint64_t shard_index = 0, shard_count = 1;
  // audit merge: the records of every run, gathered from the shards; no run is executed, the decision is made on
  // them (the claim is computed again, as in each shard).
  const AlgorithmAuditRecords* merged = nullptr;
};

struct ClaimPoint {
  double epsilon, delta;  // the claimed curve: delta(eps) certified upper bound
};

struct AlgorithmAuditResult {
  std::string algorithm;
  std::vector<std::string> configuration;  // the audit configuration's key=value (before the user's --set)
  std::string faults;                 // the injected faults, as given ("" none)
  AuditTests tests = AuditTests::both;
  ClaimAudited claim = ClaimAudited::accounted;
  std::string threat_model;      // what the adversary sees
  std::string canary;            // the neighbouring pair the tool chose
  std::string statistic;         // what is summed per run
  std::string claim_source;      // where the claimed curve comes from
  std::string claim_theorem;     // --claim paper: the theorem stated (its source up to the first ':')
  double noise_factor = 1;
  std::uint64_t runs = 0, releases_per_run = 0;
  // The claim: epsilon at its delta (the run's accounted figure) and the certified curve.
  double claim_epsilon = 0, claim_delta = 0;
  std::vector<ClaimPoint> curve;
  // Distinguishing test: the chosen event (statistic > t likelier under D, or <= t likelier under D', on the
  // likelihood-ratio statistic or on the increments statistic), its estimation-half counts and bounds.
  bool d_first = true;
  bool on_increments = false;
  double threshold = 0;
  std::uint64_t k_p = 0, n_p = 0, k_q = 0, n_q = 0;
  double p_lower = 0, q_upper = 1;
  double allowed_p = 1;          // the most the claim allows for P given Q <= q_upper
  double epsilon_lower = 0;      // at claim_delta, from the chosen event, at confidence
  Verdict distinguishing = Verdict::pass;
  // Noise check.
  std::string noise_family;      // "gaussian", "laplace" or "gamma-norm"
  std::uint64_t noise_draws = 0;
  double noise_ratio = 1;        // observed energy / its expectation under the claim (sd^2 or b ratio)
  double noise_ratio_lower = 0;  // the smallest ratio consistent with the claim at (1 - C)/2
  Verdict noise = Verdict::pass;
  Verdict verdict = Verdict::pass;
  double confidence = 0.95;
  // A shard's result (plan.shard_count > 1): only its runs' records are set, no test was made.
  bool partial = false;
  AlgorithmAuditRecords records;  // every run's statistics (a shard: its own runs'; the others 0)
};

// The default number of runs of `algorithm`'s audit (enough for actual_noise_factor=0.5 to be caught by the
// distinguishing test where its claim allows, within about a minute of CPU).
std::uint64_t algorithm_audit_default_runs(const std::string& algorithm);
// The audit configuration of `algorithm` (key=value, applied before --set): parameters whose accounted epsilon the
// default runs can resolve. Empty: the run's own defaults.
std::vector<std::string> algorithm_audit_configuration(const std::string& algorithm);
// The faults `algorithm`'s code can take (audit --list-faults): "noise", "clip", "sensitivity", "unsampled",
// "reuse-noise".
std::vector<std::string> applicable_faults(const std::string& algorithm);
// Parses one --inject FAULT (noise=F, clip=F, sensitivity=F, unsampled) into `faults` / `noise_factor`; throws
// InputError naming the fault and what is allowed, NotApplicable where `algorithm`'s code cannot take it.
void parse_fault(const std::string& algorithm, const std::string& fault, algorithms::InjectedFaults& faults,
                 double& noise_factor);
// The algorithms with an audit.
std::vector<std::string> auditable_algorithms();
bool is_auditable(const std::string& algorithm);

// Throws InputError (bad keys, runs out of range), NotApplicable (no probe, no noise, no claim).
AlgorithmAuditResult algorithm_audit(const AlgorithmAuditPlan& plan,
                                     const std::function<void(std::uint64_t, std::uint64_t)>& progress = {});

}  // namespace dpl::audit
