// SPDX-License-Identifier: Apache-2.0
// Certified enclosure of the series Sum_{k=from}^{to} num^k / den^k of two step schedules (to may be infinite),
// the quantity behind Theorem 2 of Wang and Nedic (seed 001): eps = 2C Sum lambda^k/nu^k, Phi = Sum lambda/nu'.
//
// Method (proof in ratio_series.cpp): an interval (MPFI) head sum up to a cut-off N, then the Euler-Maclaurin
// formula on [N, to] with its remainder bounded through the complete monotonicity of f = num/den, and the
// integral of f expanded in a convergent series of powers of k integrated term by term, with a geometric bound
// on the truncated part. The tails of these series decay like T^(1-u-w) (T^-0.3 for the paper's schedules), so
// truncation would be badly wrong; nothing here truncates without a bound.
#pragma once

#include "accounting/numeric/interval.h"
#include "algorithms/seed001/step_schedule.h"

#include <cstdint>
#include <limits>
#include <string>

namespace dpl::algorithms::seed001 {

inline constexpr std::int64_t kInfiniteHorizon = std::numeric_limits<std::int64_t>::max();

struct SeriesEnclosure {
  Interval value;          // encloses the sum (+inf as [inf, inf] when it diverges)
  bool diverges = false;   // only for to = kInfiniteHorizon: num/den ~ K k^P with P >= -1
  std::int64_t cutoff = 0;  // N: terms below it summed one by one (0 when no tail method was needed)
  std::string method;      // "head sum" | "head sum + Euler-Maclaurin tail (...)" | "divergent: ..."
};

// Certified Sum_{k=from}^{to} num(k)/den(k), from <= to (to = kInfiniteHorizon for the infinite series).
// Throws NotApplicable when the tail method does not apply (num/den not completely monotone in the forms
// supported: num ratio with b >= 0, 0 <= c <= 1 or power with c <= 0; den affine with a, b >= 0, 0 <= c <= 1 or
// power with c >= 0, or a constant) and the series is infinite or has more than 5e6 terms; throws InputError when
// from < 0 or from > to.
SeriesEnclosure certified_ratio_sum(const StepSchedule& num, const StepSchedule& den, std::int64_t from,
                                    std::int64_t to);

}  // namespace dpl::algorithms::seed001
