// SPDX-License-Identifier: Apache-2.0
#include "algorithms/problems/canary_row.h"

namespace dpl::algorithms {

LocalObjective with_canary_row(const LocalObjective& f, double feature, double label) {
  Dataset data = f.data();
  data.features.row(0).setZero();
  data.features(0, 0) = feature;
  data.labels(0) = label;
  return LocalObjective(std::move(data), f.loss(), f.regularizer(), f.huber_delta());
}

}  // namespace dpl::algorithms
