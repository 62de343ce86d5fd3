// SPDX-License-Identifier: Apache-2.0
// Certified inversion of a privacy profile: the smallest epsilon whose delta(epsilon) is at most a target.
#pragma once

#include "accounting/numeric/interval.h"

#include <functional>
#include <optional>

namespace dpl {

struct EpsilonSearch {
  Interval epsilon;               // hi() is a certified upper bound on the smallest feasible epsilon
  std::optional<Interval> lower;  // a certified lower bound, when the profile at it is certainly above target
};

// delta_of_eps must be an enclosure of a non-increasing function of eps >= 0. Returns an upper bound on
// inf{eps >= 0 : delta(eps) <= delta} and, if certifiable, a lower bound, to relative width rel_tol.
// eps_start is a first guess of a feasible epsilon; it is doubled until delta(eps) <= delta is certain.
// Throws NotApplicable if no feasible epsilon is certified below 1e300.
// From an estimate [down, up] of the crossing (e.g. a closed form or a Newton point), the certified answer: the
// upper end moved up by relative steps 1e-24 .. 1e-10 until delta(up) <= delta is certain (else
// std::runtime_error), and the lower end moved down likewise until delta(down) > delta is certain (else no lower
// bound). The enclosures of delta near the crossing are often too wide to decide exactly at it.
EpsilonSearch bracket_epsilon(const std::function<Interval(const Real& eps)>& delta_of_eps, const Real& delta,
                              const Real& down, const Real& up);

EpsilonSearch smallest_epsilon(const std::function<Interval(const Real& eps)>& delta_of_eps, const Real& delta,
                               const Real& eps_start, const Real& rel_tol);

}  // namespace dpl
