// SPDX-License-Identifier: Apache-2.0
// The threshold test of a DP claim from counts: choose the event on the selection half, bound its two
// probabilities on the estimation half with exact Clopper-Pearson bounds, and turn them into certified-at-
// confidence-C lower bounds on epsilon (for the claimed delta) and, when a Gaussian-DP claim is given, on mu.
#pragma once

#include "audit/threshold_counts.h"

#include <optional>
#include <string>

namespace dpl::audit {

struct AuditClaim {
  double epsilon = 0;                 // claimed epsilon at `delta` (may be inf: then only mu is audited)
  double delta = 0;                   // claimed delta in [0, 1)
  std::optional<double> mu;           // a Gaussian-DP claim (Dong, Roth, Su 2022): audited first when present
};

enum class Verdict { pass, violation, inconclusive };
std::string to_string(Verdict v);
// 0 pass, 3 violation, 4 inconclusive (the CLI contract).
int exit_code(Verdict v);

struct ChosenEvent {
  bool d_first = true;     // true: P = D, Q = D' (the event is likelier under D); false: the other way round
  bool left_tail = true;   // true: {x <= t}; false: {x > t}
  double threshold = 0;
  std::size_t index = 0;   // threshold index
};

struct AuditResult {
  Verdict verdict = Verdict::inconclusive;
  ChosenEvent event;
  double confidence = 0;
  double alpha_each = 0;            // (1 - C) / 2: the error probability of each of the two one-sided bounds
  std::uint64_t k_p = 0, n_p = 0, k_q = 0, n_q = 0;  // estimation-half counts of the event under P and Q
  double p_lower = 0, q_upper = 1;  // Clopper-Pearson bounds
  double epsilon_lower = 0;         // log((p_lower - delta) / q_upper), -inf if p_lower <= delta
  double epsilon_estimate = 0;      // the same with the point estimates
  double epsilon_claimed = 0;
  std::optional<double> mu_lower, mu_estimate, mu_claimed;
  // The run's resolution: estimate minus lower bound in the audited unit (mu if claimed, else epsilon). A true
  // violation larger than this would have been flagged with probability about 1/2 or more.
  double resolution = 0;
  double detectable = 0;            // claimed + resolution: the smallest violation the run had power to see
  std::string unit;                 // "epsilon" or "mu"
};

// Runs the test. confidence in (0, 1); tolerance > 0: the largest resolution that still allows `pass`.
// Throws InputError if a half of either side is empty.
AuditResult threshold_test(const ThresholdCounts& counts, const AuditClaim& claim, double confidence,
                           double tolerance);

// eps lower bound of one event: log((p - delta) / q) (Kairouz, Oh, Viswanath 2015 / Jagielski et al. 2020:
// an (eps, delta)-DP mechanism has P(E) <= e^eps Q(E) + delta for every event E); -inf if p <= delta.
double epsilon_of_event(double p, double q, double delta);
// mu lower bound of one event: Phi^{-1}(p) - Phi^{-1}(q) (Dong, Roth, Su 2022, Def. 2.6: a mu-GDP mechanism has
// Q(E) >= Phi(Phi^{-1}(P(E)) - mu)); -inf if p = 0 or q = 1.
double mu_of_event(double p, double q);

}  // namespace dpl::audit
