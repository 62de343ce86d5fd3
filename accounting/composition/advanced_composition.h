// SPDX-License-Identifier: Apache-2.0
// Advanced composition of (eps, delta)-DP steps: Dwork-Rothblum-Vadhan 2010 and the Kairouz-Oh-Viswanath
// 2015/2017 closed form, heterogeneous, the smaller of the two reported.
#pragma once

#include "accounting/composition/accounting_result.h"

namespace dpl {

// Per-step guarantees (eps_i, delta_i) repeated steps_i times, taken at the upper ends of their enclosures
// (every bound below is non-decreasing in each eps_i and delta_i, so this is safe).
struct StepProfile {
  Interval eps;
  Interval delta;
  std::int64_t steps;
};

// Dwork, Rothblum and Vadhan 2010, Thm III.3 (heterogeneous form): for delta' > 0,
// eps = sqrt(2 ln(1/delta') sum eps_i^2) + sum eps_i (e^eps_i - 1), delta = sum delta_i + delta'. Upper bound.
Interval drv_epsilon(const std::vector<StepProfile>& steps, const Interval& delta_prime);
// The same theorem solved for delta at a given eps (delta = 1 where it says nothing). Upper bound.
Interval drv_delta(const std::vector<StepProfile>& steps, const Interval& eps);

// Kairouz, Oh and Viswanath 2017, Thm 3.5 (heterogeneous; Thm 3.4 of the 2015 ICML version when homogeneous):
// eps = min{ sum eps_i, M + sqrt(2V log(e + sqrt(V)/dt)), M + sqrt(2V log(1/dt)) } with
// M = sum eps_i (e^eps_i - 1)/(e^eps_i + 1), V = sum eps_i^2, at delta = 1 - (1 - dt) prod (1 - delta_i). Upper bound.
Interval kov_epsilon(const std::vector<StepProfile>& steps, const Interval& delta_tilde);
// The same theorem solved for delta at a given eps (the smallest delta over its three branches). Upper bound.
Interval kov_delta(const std::vector<StepProfile>& steps, const Interval& eps);

// The ledger's per-step profiles for the classic accountants (amplification included).
std::vector<StepProfile> step_profiles(const Ledger& ledger, const std::string& accountant);

// `--accountant advanced`: the smaller of DRV and KOV, never more than basic composition. Upper bound.
AccountingResult compose_advanced(const Ledger& ledger, const Target& target);

}  // namespace dpl
