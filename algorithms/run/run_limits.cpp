// SPDX-License-Identifier: Apache-2.0
#include "algorithms/run/run_limits.h"

#include "accounting/errors.h"

#include <cstdio>

namespace dpl::algorithms {

namespace {

std::string g3(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

}  // namespace

void require_data_size(double rows, double features, const std::string& source) {
  if (features > static_cast<double>(kMaxFeatures))
    throw InputError(source + ": " + g3(features) + " features exceed the limit of " + std::to_string(kMaxFeatures) +
                     " (the centralised optimum's solver forms d x d matrices); allowed at most " +
                     std::to_string(kMaxFeatures) + " features");
  if (rows * features > kMaxDataValues)
    throw InputError(source + ": " + g3(rows) + " rows x " + g3(features) + " features = " + g3(rows * features) +
                     " values exceed the limit of " + g3(kMaxDataValues) + " values in memory; use fewer rows");
}

void require_run_work(double estimate, const std::string& what) {
  if (!(estimate <= kMaxRunWork))
    throw InputError(what + ": the run would take about " + g3(estimate) + " work units, above the limit of " +
                     g3(kMaxRunWork) + " (a few seconds); lower the iterations (K or T), agents, the data size or the dimension");
}

void require_trace_size(double values, const std::string& what) {
  if (!(values <= kMaxTraceValues))
    throw InputError(what + ": the trace would keep " + g3(values) + " values, above the limit of " +
                     g3(kMaxTraceValues) + "; lower K, agents or the dimension (or trace_every where offered)");
}

}  // namespace dpl::algorithms
