// SPDX-License-Identifier: Apache-2.0
// White-box audits of the reference algorithms whose conditional densities are known: every run's exact privacy
// loss is computed from its own transcript (seed 000's Algorithms 1, 2, 2*: the realised loss of the released
// coordinates, Lemma 2.2.1 / Thm 2.2.1 via accounting/gamma; seed 001: the coupled pair's log-likelihood-ratio
// supremum of the coupled audit). Over N runs: the histogram, the maximum, the mean with a Hoeffding interval,
// the Monte Carlo delta(eps), and for seed 000 the realised gamma = mean loss / worst case.
#pragma once

#include "audit/threshold_test.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dpl::audit {

struct WhiteBoxPlan {
  std::string algorithm;
  std::vector<std::string> sets;  // key=value, passed to the algorithm
  std::uint64_t runs = 1000;      // in [1, 1e6]
  std::uint64_t seed = 1;         // run i uses the seed block_seed(seed, i)
  unsigned threads = 1;
  double confidence = 0.95;
};

struct WhiteBoxResult {
  std::string algorithm;
  std::string loss_definition;          // what the per-run loss is, with its source
  std::vector<double> losses;           // per run, in run order
  double max_loss = 0, mean_loss = 0;
  // A lower bound on epsilon: the largest exact loss (pure claims); for dp-sgd the largest eps of the grid at
  // which the Monte Carlo delta(eps)'s lower end exceeds the accountant's delta.
  double epsilon_lower = 0;
  double mean_lower = 0, mean_upper = 0;  // Hoeffding interval at confidence C (losses in [0, range])
  double range = 0;                       // the a-priori upper end of one run's loss (Hoeffding's range)
  std::vector<double> claimed;           // per run: the paper's claim for that run (its own formula)
  double epsilon_claimed = 0;             // the largest per-run claim
  double epsilon_claimed_min = 0;         // the smallest per-run claim (claims vary with the random graph)
  double epsilon_accountant = 0;          // dpledger's certified upper bound (largest over the runs)
  double max_loss_over_claim = 0;         // max_i loss_i / claimed_i
  std::uint64_t runs_over_claim = 0;      // runs whose loss exceeds their own claim
  std::optional<double> claimed_average;  // seed 000: the thesis's eq. (2.6) average, mean over the runs
  // seed 000: mean of loss_i - claimed_average_i and its normal-approximation half-width at confidence C
  // (indicative, not certified: the CLT, not a finite-sample bound).
  std::optional<double> average_gap, average_gap_halfwidth;
  std::optional<double> accountant_expected;  // seed 000: certified expected loss along run 0's trajectory
  std::optional<double> realised_gamma;       // seed 000: mean loss / worst case
  // Monte Carlo delta(eps) = E[(1 - e^{eps - L})_+] with Hoeffding ends jointly at C over the grid
  std::vector<double> eps_grid, delta_mc, delta_mc_upper, delta_mc_lower;
  std::vector<double> accountant_delta;  // the accountant's delta at the same eps (pure: 0 or 1; dp-sgd: PLD)
  bool mean_interval_normal = false;     // the mean's interval is the normal approximation (unbounded losses)
  double claim_delta = 0;                // dp-sgd: the delta of epsilon_accountant
  std::vector<double> hist_edges;                          // histogram of the losses
  std::vector<std::uint64_t> hist_counts;
  Verdict verdict = Verdict::pass;
  // The smallest probability of a violating output that N runs would have shown at confidence C:
  // 1 - (1 - C)^{1/N}.
  double detectable_probability = 0;
  std::uint64_t certified_runs = 0;  // seed 000: runs whose loss was recomputed at 200 bits (see note)
  std::string note;
};

// True for the algorithms with a per-run exact loss.
bool has_known_density(const std::string& algorithm);
std::vector<std::string> known_density_algorithms();
// Why an algorithm without a known density has no white-box audit (for the refusal message).
std::string no_density_reason(const std::string& algorithm);

// Runs the plan; throws InputError (bad keys, runs out of range) or NotApplicable (an algorithm without a known
// density, noise switched off, a diverged run).
WhiteBoxResult whitebox_audit(const WhiteBoxPlan& plan,
                              const std::function<void(std::uint64_t, std::uint64_t)>& progress = {});

}  // namespace dpl::audit
