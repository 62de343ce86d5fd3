// SPDX-License-Identifier: Apache-2.0
// The data and the faults of an end-to-end audit of seed 000's agent-level runs (algorithms/run/end_to_end_audit.h):
// the canary agent's neighbouring data sets D and D' differ in one row, a record at the corner of the declared data
// domain labelled +1 on D and -1 on D', and the injected faults enter the agent's own gradient code.
#pragma once

#include "algorithms/problems/local_objective.h"
#include "algorithms/problems/sensitivity_bounds.h"
#include "algorithms/run/end_to_end_audit.h"

#include <Eigen/Dense>

namespace dpl::algorithms {

// `f` with its row 0 replaced by the corner of `domain` times `scale` (unit-cube: the all-ones row; unit-rows: e_1),
// label +1 (on_d) or -1 (D'). With hinge loss both labels' subgradients are active while |<row, x>| < 1, and
// they differ by 2 row / b there: the domain's replace-one bound B_inf (unit-cube: in every coordinate; unit-rows:
// on the first, where it is also the l2 bound). `scale` > 1 is the injected fault clip=F: a record F times outside
// the declared domain that the code admits.
LocalObjective with_canary_row(const LocalObjective& f, DataDomain domain, bool on_d, double scale = 1);

// The subgradient of `f` at x as an agent's update uses it, with the injected fault sensitivity=F: the mean loss's
// part scaled by `faults.sensitivity` (the regulariser's part unchanged).
Eigen::VectorXd audited_subgradient(const LocalObjective& f, const Eigen::VectorXd& x, const InjectedFaults& faults);

// The canary agent's local objectives on D and on D' (faults.clip scales the canary row), as the run and the
// auditor's copy of the update code use them.
struct CanaryObjectives {
  LocalObjective on_d, on_dprime;
  const LocalObjective& of(bool d) const { return d ? on_d : on_dprime; }
};
CanaryObjectives canary_objectives(const LocalObjective& f, DataDomain domain, const InjectedFaults& faults);

}  // namespace dpl::algorithms
