// SPDX-License-Identifier: Apache-2.0
// A double as the shortest %g decimal that reads back as the same double (for the -m specs a run writes of its
// ledger entries, so the spec reproduces the entry exactly).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace dpl::algorithms {

inline std::string shortest_decimal(double x) {
  char buf[64];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, x);
    if (std::strtod(buf, nullptr) == x) return buf;
  }
  return std::to_string(x);
}

}  // namespace dpl::algorithms
