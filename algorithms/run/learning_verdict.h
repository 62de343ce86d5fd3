// SPDX-License-Identifier: Apache-2.0
// Whether a reference run learned: the objective of its output against its starting point and against the zero
// model (a linear model's constant score), with the privacy level it ran at. Every `dpledger run` prints it, so
// that a run whose model is no better than releasing zero says so instead of printing the number silently.
#pragma once

#include "algorithms/run/run_result.h"

namespace dpl::algorithms {

// {"start", "end", "optimum", "zero_model", "better_than_start", "better_than_zero_model", "verdict", "note"}:
// verdict "learned" (below both), "better than its start only" (below the start, not below the zero model) or
// "not better than its start"; the note names the accounted epsilon (r.accounted["epsilon"]) when the run did not
// beat the zero model. Needs r.start_objective and r.baseline_objective (NaN: verdict "not recorded").
Json learning_verdict(const RunResult& r);

}  // namespace dpl::algorithms
