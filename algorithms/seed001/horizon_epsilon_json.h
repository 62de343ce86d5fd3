// SPDX-License-Identifier: Apache-2.0
// The JSON of a pure-DP budget of Wang-Nedic's messages over the iterations k0 .. T (seed 001), shared by the
// paper's claimed epsilon (claimed_epsilon.h) and the accumulated-sensitivity accountant (accumulated_sensitivity.h).
#pragma once

#include "accounting/numeric/interval.h"
#include "algorithms/run/run_parameters.h"

#include <cstdint>
#include <string>

namespace dpl::algorithms::seed001 {

// {"epsilon": the upper end of `epsilon` rounded up, "epsilon_lower": its lower end rounded down (or only
// "epsilon": "inf" when `infinite`), "delta": 0, then every field of `details` in order, "k0", "T" (horizon, or
// "inf" for kInfiniteHorizon), "method"}.
Json horizon_epsilon_json(const Interval& epsilon, bool infinite, std::int64_t k0, std::int64_t horizon,
                          const std::string& method, const Json& details = Json::object());

}  // namespace dpl::algorithms::seed001
