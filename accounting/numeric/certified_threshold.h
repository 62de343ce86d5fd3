// SPDX-License-Identifier: Apache-2.0
// Certified search for the threshold of a monotone predicate evaluated with interval arithmetic.
#pragma once

#include "accounting/numeric/interval.h"

#include <functional>

namespace dpl {

// The answer of a predicate evaluated on intervals: certainly true, certainly false, or undecided.
enum class Verdict { yes, no, unknown };

// From an interval enclosure v of a quantity and a target t: is the quantity certainly <= t?
Verdict certainly_at_most(const Interval& v, const Real& t);

struct Threshold {
  Real no;   // pred(no) was not certified true (or no is the domain end given)
  Real yes;  // pred(yes) is certified true: the safe answer
};

// For pred monotone (false below some x*, true above), with pred(hi) certified true, bisects [lo, hi] until
// (yes - no) <= rel_tol * |yes| + abs_tol; `unknown` counts as not-yes, so `yes` stays certified.
// Bisection is in geometric mean when 0 < lo so that ranges over many orders of magnitude converge fast.
// Throws std::runtime_error if pred(hi) is not certified true.
Threshold certified_threshold(Real lo, Real hi, const std::function<Verdict(const Real&)>& pred,
                              const Real& rel_tol, const Real& abs_tol = Real(0), int max_iter = 400);

}  // namespace dpl
