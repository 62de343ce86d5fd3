// SPDX-License-Identifier: Apache-2.0
// `--set actual_noise_factor=F` of an audit (the negative control: the sampler draws F times the claimed noise while
// the claim stays the claimed one), split from the run's own `--set` assignments.
#pragma once

#include "accounting/errors.h"
#include "algorithms/run/assignments.h"

#include <cmath>
#include <exception>
#include <string>
#include <vector>

namespace dpl::audit {

struct NoiseFactorSetting {
  std::vector<std::string> run_sets;  // every other assignment, for the run
  double factor = 1;
  bool given = false;
};

// F must be a number in (0, max]; `range` names that interval in the error message.
inline NoiseFactorSetting split_noise_factor(const std::vector<std::string>& sets, double max, const std::string& range) {
  NoiseFactorSetting s;
  for (const auto& [key, value] : algorithms::parse_assignments(sets)) {
    if (key != "actual_noise_factor") {
      s.run_sets.push_back(key + "=" + value);
      continue;
    }
    std::size_t used = 0;
    try {
      s.factor = std::stod(value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != value.size() || !(s.factor > 0) || !std::isfinite(s.factor) || s.factor > max)
      throw InputError("--set actual_noise_factor=" + value + " is out of range: allowed " + range);
    s.given = true;
  }
  return s;
}

}  // namespace dpl::audit
