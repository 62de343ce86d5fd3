// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed000/agent_canary.h"

namespace dpl::algorithms {

LocalObjective with_canary_row(const LocalObjective& f, DataDomain domain, bool on_d, double scale) {
  Dataset data = f.data();
  if (domain == DataDomain::unit_cube) {
    data.features.row(0).setConstant(scale);
  } else {
    data.features.row(0).setZero();
    data.features(0, 0) = scale;
  }
  data.labels(0) = on_d ? 1.0 : -1.0;
  return LocalObjective(std::move(data), f.loss(), f.regularizer(), f.huber_delta());
}

Eigen::VectorXd audited_subgradient(const LocalObjective& f, const Eigen::VectorXd& x, const InjectedFaults& faults) {
  Eigen::VectorXd g = f.subgradient(x);
  if (faults.sensitivity != 1) g += (faults.sensitivity - 1) * (f.gradient(x) - f.regularizer().smooth_gradient(x));
  return g;
}

CanaryObjectives canary_objectives(const LocalObjective& f, DataDomain domain, const InjectedFaults& faults) {
  return {with_canary_row(f, domain, true, faults.clip), with_canary_row(f, domain, false, faults.clip)};
}

}  // namespace dpl::algorithms
