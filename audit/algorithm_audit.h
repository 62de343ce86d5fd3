// Audits of the papers' algorithms as implemented (dpledger audit ALGORITHM): N runs, each with an audit probe
// (algorithms/run/audit_probe.h) that draws the run's noise (times actual_noise_factor) and sums, for the run on D
// (canary present) and on D' (canary absent), the claimed density's privacy-loss statistic of every noisy release
// of the audited unit, given the history (threat model: every iterate released). The neighbouring pair is the
// worst case the claim covers: the canary shifts each release by the sensitivity the run's ledger composes.
// Two tests share the confidence C (Bonferroni, (1 - C)/2 each):
//  - distinguishing (black-box on the released outputs): the threshold test of the statistic on D against D',
//    exact Clopper-Pearson bounds, against the run's claimed privacy curve delta(eps) (the accountant's certified
//    curve of the run's ledger at the CLAIMED noise); a violation is an event E with
//    P_D(E) > e^eps P_D'(E) + delta(eps) (or the reverse) for some eps of the curve, at confidence;
//  - noise (white-box): the noise drawn, in units of the claimed scale, against its claimed distribution
//    (sum of squares ~ chi^2, sum of |.| ~ Gamma): a one-sided test that the run draws less noise than claimed.
#pragma once

#include "audit/threshold_test.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace dpl::audit {

struct AlgorithmAuditPlan {
  std::string algorithm;
  std::vector<std::string> sets;  // key=value for the algorithm; actual_noise_factor=F is the audit's
  std::uint64_t runs = 0;         // 0: the algorithm's default (algorithm_audit_default_runs)
  std::uint64_t seed = 1;         // run i uses block_seed(seed, i)
  unsigned threads = 1;
  double confidence = 0.95;
};

struct ClaimPoint {
  double epsilon, delta;  // the claimed curve: delta(eps) certified upper bound
};

struct AlgorithmAuditResult {
  std::string algorithm;
  std::string threat_model;      // what the adversary sees
  std::string canary;            // the neighbouring pair the tool chose
  std::string statistic;         // what is summed per run
  std::string claim_source;      // where the claimed curve comes from
  double noise_factor = 1;
  std::uint64_t runs = 0, releases_per_run = 0;
  std::vector<double> stat_d, stat_dprime;  // per run
  // The claim: epsilon at its delta (the run's accounted figure) and the certified curve.
  double claim_epsilon = 0, claim_delta = 0;
  std::vector<ClaimPoint> curve;
  // Distinguishing test: the chosen event (statistic > t likelier under D, or <= t likelier under D'), its
  // estimation-half counts and bounds.
  bool d_first = true;
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
};

// The default number of runs of `algorithm`'s audit (enough for actual_noise_factor=0.5 to be caught by the
// distinguishing test where its claim allows, within about a minute of CPU).
std::uint64_t algorithm_audit_default_runs(const std::string& algorithm);
// The algorithms with an audit probe.
std::vector<std::string> auditable_algorithms();
bool is_auditable(const std::string& algorithm);

// Throws InputError (bad keys, runs out of range), NotApplicable (no probe, no noise, no claim).
AlgorithmAuditResult algorithm_audit(const AlgorithmAuditPlan& plan,
                                     const std::function<void(std::uint64_t, std::uint64_t)>& progress = {});

}  // namespace dpl::audit
