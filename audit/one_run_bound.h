// SPDX-License-Identifier: Apache-2.0
// The one-run audit's test (Steinke, Nasr and Jagielski 2023, "Privacy auditing with one (1) training run",
// Theorem 3.1): m canaries, each included independently with probability 1/2; an auditor guesses r of them
// (abstaining on the rest) and v guesses are right. Under an (eps, delta)-DP claim,
//   P[W >= v] <= f(v) = P[B >= v] + 2 m delta max_{1 <= i <= v} P[v - i <= B < v] / i,   B ~ Binomial(r, e^eps/(1+e^eps)),
// so f(v) <= significance rejects the claim. Its f-DP refinement (Mahloujifar, Melis and Chaudhuri 2024, "Auditing
// f-differential privacy in one run") tests a Gaussian trade-off curve instead.
#pragma once

#include <cstdint>

namespace dpl::audit {

struct OneRunGuesses {
  std::uint64_t m = 0;  // canaries (guessed or not)
  std::uint64_t r = 0;  // guesses made (k+ + k-), r <= m
  std::uint64_t v = 0;  // correct guesses, v <= r
};

// f(v) of Theorem 3.1 in binary64 (log-space terms from lgamma; an estimate used to search).
double one_run_p_value_estimate(const OneRunGuesses& g, double epsilon, double delta);
// A certified upper bound on f(v) (MPFI: the binomial terms by their ratio recursion from an lgamma anchor, the
// truncated tails bounded by geometric series; every bound rounded up). Capped at 1.
double one_run_p_value_upper(const OneRunGuesses& g, double epsilon, double delta);

// The largest eps >= 0 whose (eps, delta) claim these guesses reject at `significance` (f(v) <= significance,
// certified by one_run_p_value_upper), i.e. a lower bound on epsilon at confidence 1 - significance; 0 when even
// eps = 0 is not rejected. Found in binary64 to a relative 1e-10, then moved down until certified. Throws
// InputError for counts out of range (v <= r <= m, m >= 1), delta outside [0, 1) or significance outside (0, 1).
double one_run_epsilon_lower(const OneRunGuesses& g, double delta, double significance);
// The same search in binary64 only (for screening many candidate guess sets).
double one_run_epsilon_estimate(const OneRunGuesses& g, double delta, double significance);

// Mahloujifar, Melis and Chaudhuri 2024 (the recursion `audit_rh_with_cap`) with the trade-off curve of the
// Gaussian mechanism that is exactly (eps, delta)-DP (mu = mu(eps, delta), Balle and Wang 2018 Thm 8): true when
// v correct guesses out of r reject that curve at `significance`. Binary64 with outward margins: mu is rounded up
// and the recursion's values down, so a rejection is never caused by rounding.
bool one_run_fdp_rejects(const OneRunGuesses& g, double epsilon, double delta, double significance);
// The largest eps whose Gaussian curve is rejected (0 if none; bisection to 1e-9 absolute).
double one_run_fdp_epsilon(const OneRunGuesses& g, double delta, double significance);

// mu of the Gaussian mechanism that is exactly (eps, delta)-DP: the root of Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 -
// eps/mu) = delta (increasing in mu), by bisection in binary64 to a relative 1e-13, returned rounded up.
double gaussian_mu_for(double epsilon, double delta);

}  // namespace dpl::audit
