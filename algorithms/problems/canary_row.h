// SPDX-License-Identifier: Apache-2.0
// The canary record of an end-to-end audit (end_to_end_audit.h) in an agent's local data: the agent's first row
// replaced by the feature row `feature` e_1 with label `label` (D: one label, D': the other), so that the audit
// runs the algorithm's own code on two data sets that differ in that one record.
#pragma once

#include "algorithms/problems/local_objective.h"

namespace dpl::algorithms {

// f with its row 0 replaced by (feature e_1, label); the loss, regulariser and other rows unchanged.
LocalObjective with_canary_row(const LocalObjective& f, double feature, double label);
// f with every row the feature row `feature` e_1 labelled `label`, except row 0 labelled `label0` (an agent whose
// every record is a copy of the canary: a hidden choice of one of its records then mixes over the canary alone).
LocalObjective with_canary_rows(const LocalObjective& f, double feature, double label, double label0);

}  // namespace dpl::algorithms
