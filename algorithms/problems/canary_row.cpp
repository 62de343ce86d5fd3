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

LocalObjective with_canary_rows(const LocalObjective& f, double feature, double label, double label0) {
  Dataset data = f.data();
  data.features.setZero();
  data.features.col(0).setConstant(feature);
  data.labels.setConstant(label);
  data.labels(0) = label0;
  return LocalObjective(std::move(data), f.loss(), f.regularizer(), f.huber_delta());
}

}  // namespace dpl::algorithms
