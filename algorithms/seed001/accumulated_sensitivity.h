// SPDX-License-Identifier: Apache-2.0
// The corrected privacy accountant for Wang and Nedic's Algorithm 1 (seed 001; docs/wang2022.md sec. 2): the exact
// worst-case l1 sensitivity of agent i's state under Definition 3's "same observation" coupling, which
// ACCUMULATES because agent i mixes its own un-noised state with weight 1 - gamma^k |w_ii|:
//   delta^{k+1} = (1 - gamma^k a_i) delta^k - lambda^k (grad f_i(x_i^k) - grad f_i'(x_i'^k)),  a_i = |w_ii|,
// so ||delta^{k+1}||_1 <= s^{k+1} with s^{k0} = 0, s^{k+1} = |1 - gamma^k a_i| s^k + 2 C lambda^k (tight: attained
// when the gradient difference is 2C in a fixed direction, e.g. the Huber pair of coupled_audit.h). The paper's
// step (8) keeps only the last term (s^{k+1} = 2 C lambda^k), which is wrong from the second iteration on.
#pragma once

#include "accounting/numeric/interval.h"
#include "accounting/progress_callback.h"
#include "algorithms/run/run_parameters.h"
#include "algorithms/seed001/step_schedule.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dpl::algorithms::seed001 {

// s^{k0}, s^{k0+1}, ..., s^{last} (certified enclosures), for one agent with a = |w_ii| > 0 and l1 gradient bound C
// (docs/wang2022.md sec. 2, exact worst case). Throws InputError for C <= 0, a <= 0 or last < k0. `progress`
// (optional) is told the fraction of the steps done, about every percent.
std::vector<Interval> accumulated_sensitivity(const StepSchedule& lambda, const StepSchedule& gamma, double C,
                                              double a, std::int64_t k0, std::int64_t last,
                                              const ProgressCallback& progress = {});

struct AccumulatedEpsilon {
  Interval epsilon;        // encloses max_i Sum_{k=k0+1}^{T+1} s_i^k / nu^k; [inf, inf] when infinite
  bool infinite = false;   // T = inf and the series diverges (u - v + w <= 1 with v <= 1)
  double worst_a = 0;      // the a_i attaining the maximum
  std::int64_t k0 = 1;
  std::int64_t horizon = 0;  // T (kInfiniteHorizon for inf)
  std::string method;
};

// Pure-DP budget of the messages y^{k0}, ..., y^{T+1} (each x^k + Lap(nu^k) per coordinate, so eps_k = s^k/nu^k by
// the Laplace mechanism, summed by pure composition; Dwork-Roth Thm 3.6 and 3.14; upper bound, tight for the Huber
// pair): eps_true(T) = max_i Sum_{k=k0+1}^{T+1} s_i^k/nu^k (s^{k0} = 0). Same horizon as Theorem 2's
// "iterations k0 to T+1". T = kInfiniteHorizon: infinite when v <= 1 and u - v + w <= 1 (proof in the .cpp);
// NotApplicable when it may be finite (no certified tail implemented for it). Throws InputError for C <= 0, an
// empty or non-positive a list, or T < k0; NotApplicable for T > 2e7 (cost). `progress` as above.
AccumulatedEpsilon accumulated_epsilon(const StepSchedule& lambda, const StepSchedule& gamma, const StepSchedule& nu,
                                       double C, const std::vector<double>& a_values, std::int64_t k0,
                                       std::int64_t horizon, const ProgressCallback& progress = {});

Json to_json(const AccumulatedEpsilon& e);

}  // namespace dpl::algorithms::seed001
