// SPDX-License-Identifier: Apache-2.0
// From a Renyi-DP bound at one order to (eps, delta)-DP: the classic conversion and the improved one; the
// smaller is used (both are upper bounds).
#pragma once

#include "accounting/numeric/interval.h"

namespace dpl {

// Mironov 2017, Prop. 3: eps = r + log(1/delta)/(a-1). Upper bound.
Interval rdp_epsilon_classic(const Interval& r, const Real& alpha, double delta);
// Balle, Barthe, Gaboardi, Hsu and Sato 2020, Thm 21: eps = r + log((a-1)/a) - (log delta + log a)/(a-1). Upper bound.
Interval rdp_epsilon_improved(const Interval& r, const Real& alpha, double delta);
// The smaller of the two (upper bound), never below 0.
Interval rdp_to_epsilon(const Interval& r, const Real& alpha, double delta);
// Both theorems solved for delta at a given eps: classic log delta = (a-1)(r - eps); improved
// log delta = (a-1)(r - eps + log(1 - 1/a)) - log a. The smaller, at most 1. Upper bound.
Interval rdp_to_delta(const Interval& r, const Real& alpha, double eps);

// Float64 versions for the order search (never reported).
double rdp_to_epsilon_estimate(double r, double alpha, double delta);
double rdp_to_log_delta_estimate(double r, double alpha, double eps);

}  // namespace dpl
