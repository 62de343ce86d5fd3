// SPDX-License-Identifier: Apache-2.0
// The privacy budget Wang and Nedic claim for Algorithm 1 (seed 001, Theorem 2), computed exactly as the paper
// states it, with certified enclosures. This is the paper's claim, NOT a valid bound: its sensitivity step (8)
// ignores that agent i mixes its own un-noised state, so the true sensitivity accumulates (docs/wang2022.md sec. 2,
// accumulated_sensitivity.h); the run reports both.
#pragma once

#include "accounting/numeric/interval.h"
#include "algorithms/seed001/ratio_series.h"
#include "algorithms/seed001/step_schedule.h"

#include <cstdint>
#include <string>

namespace dpl::algorithms::seed001 {

struct ClaimedEpsilon {
  Interval epsilon;        // encloses the paper's formula; [inf, inf] when the series diverges
  bool infinite = false;   // T = inf and Sum lambda/nu diverges (u + w <= 1)
  std::int64_t k0 = 1;
  std::int64_t horizon = 0;  // T (kInfiniteHorizon for inf)
  std::string method;
};

// Theorem 2(1) of Wang-Nedic (claimed upper bound, as printed): eps_paper(T) = 2C Sum_{k=k0}^{T} lambda^k/nu^k,
// "for iterations k0 .. T+1"; T = kInfiniteHorizon gives the infinite-horizon claim (finite iff u + w > 1).
// Requires C > 0 and k0 <= T (InputError otherwise).
ClaimedEpsilon paper_epsilon(const StepSchedule& lambda, const StepSchedule& nu, double C, std::int64_t k0,
                             std::int64_t horizon);

// Theorem 2(2) of Wang-Nedic (exact calibration rule): Phi = Sum_{k=k0}^inf lambda^k/nu'^k and
// nu^k = (2 C Phi / eps) nu'^k. The returned `nu` has its coefficients rounded UP from the enclosure of the
// scale, so the paper's formula with it is certainly <= eps (and equal to it to ~1e-15 relative).
// Throws InputError if C or eps is not > 0, NotApplicable if Phi diverges (u + w <= 1) or has no certified tail.
struct NuCalibration {
  Interval phi;    // Phi_{lambda, nu'}
  Interval scale;  // 2 C Phi / eps
  StepSchedule nu;
};
NuCalibration calibrate_nu(const StepSchedule& lambda, const StepSchedule& nu_shape, double C, double epsilon,
                           std::int64_t k0 = 1);

// Theorem 2(3) of Wang-Nedic (exact constant): Phi = Sum_{k>=1} k^-1.3 = zeta(1.3) = 3.93194921180954...
Interval theorem2_phi();
// Theorem 2(3)'s noise: nu^k = (2 C Phi / eps) k^0.3 (coefficients rounded up, as in calibrate_nu).
StepSchedule theorem2_nu(double C, double epsilon);

Json to_json(const ClaimedEpsilon& e);

}  // namespace dpl::algorithms::seed001
