// SPDX-License-Identifier: Apache-2.0
// Audits of one training run from its canaries' scores (the attack's score and whether each canary was included):
//  - one-run: Steinke, Nasr and Jagielski 2023, Theorem 3.1 (guess "included" on the k+ highest scores and
//    "excluded" on the k- lowest, abstain on the rest), certified binomial tails (one_run_bound.h);
//  - one-run-fdp: Mahloujifar, Melis and Chaudhuri 2024 with the Gaussian trade-off curve of the (eps, delta) claim;
//  - clopper-pearson: the threshold test over every threshold (Jagielski, Ullman and Oprea 2020), exact
//    Clopper-Pearson bounds on the true and false positive rates;
//  - gdp: the Gaussian-DP mu of the same bounds (Nasr et al. 2023), converted to epsilon at delta;
// with the threshold chosen under a Bonferroni correction over the guess sets "the k highest scores" for k = 1, 2,
// 5, 10, 20, 50, ... (a family fixed in advance), on a random half of the canaries (split), or fixed in advance; plus the attack's plain figures (TPR at given FPRs, AUROC of the ROC
// convex hull).
#pragma once

#include "audit/canary_scores.h"
#include "audit/threshold_test.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dpl::audit {

enum class CanaryMethod { one_run, one_run_fdp, clopper_pearson, gdp };
enum class ThresholdChoice { bonferroni, split, fixed };

// Parses "one-run" | "one-run-fdp" | "clopper-pearson" | "gdp" (InputError naming --method otherwise).
CanaryMethod parse_canary_method(const std::string& s);
std::string to_string(CanaryMethod m);

struct CanaryAuditOptions {
  CanaryMethod method = CanaryMethod::one_run;
  double delta = 1e-5;
  double confidence = 0.95;
  ThresholdChoice choice = ThresholdChoice::bonferroni;
  std::optional<double> threshold;                                  // fixed: guess "included" when score >= it
  std::optional<std::pair<std::uint64_t, std::uint64_t>> guesses;  // fixed (one-run): k+, k-
  std::uint64_t seed = 1;                                           // split: the random halves
  std::vector<double> fprs = {0.001, 0.01, 0.1};                    // TPR at these FPRs
  std::optional<double> claimed_epsilon;                            // a verdict against this claim
};

struct CanaryAuditResult {
  CanaryMethod method = CanaryMethod::one_run;
  std::uint64_t canaries = 0, included = 0, excluded = 0;
  std::string choice;           // how the guesses / threshold were chosen
  std::uint64_t family = 1;     // Bonferroni: the number of candidate tests the confidence is shared by
  double significance_each = 0; // (1 - C) / family
  std::uint64_t audited = 0;    // canaries the bound is computed on (all, or the estimation half of a split)
  // one-run / one-run-fdp: the guesses
  std::uint64_t guesses = 0, correct = 0, k_plus = 0, k_minus = 0;
  double threshold = 0;         // the score threshold of the chosen guesses / event (score >= threshold)
  // clopper-pearson / gdp: the chosen event's counts and bounds
  std::uint64_t true_positives = 0, false_positives = 0;
  double tpr_lower = 0, fpr_upper = 1;
  std::optional<double> mu_lower;  // gdp
  double epsilon_lower = 0;        // at `delta`, at confidence C (one-run-fdp, gdp: under their curve's shape)
  double detectable = 0;           // the largest epsilon_lower any outcome could give with these canaries
  std::vector<std::pair<double, double>> tpr_at_fpr;  // (fpr, tpr) on the ROC convex hull
  double auroc = 0.5;                                 // area under the ROC convex hull
  std::vector<std::pair<double, double>> roc;         // the hull's vertices (fpr, tpr), for the picture
  std::optional<Verdict> verdict;
};

// Throws InputError for options out of range (delta outside [0, 1), 0 with one-run-fdp or gdp; confidence
// outside (0, 1); guesses beyond the canaries; FPRs outside [0, 1]).
CanaryAuditResult audit_canary_scores(const std::vector<CanaryScore>& scores, const CanaryAuditOptions& options);

}  // namespace dpl::audit
