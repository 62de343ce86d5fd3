// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed001/horizon_epsilon_json.h"

#include "algorithms/seed001/ratio_series.h"

namespace dpl::algorithms::seed001 {

Json horizon_epsilon_json(const Interval& epsilon, bool infinite, std::int64_t k0, std::int64_t horizon,
                          const std::string& method, const Json& details) {
  Json j = Json::object();
  if (infinite) {
    j["epsilon"] = "inf";
  } else {
    j["epsilon"] = hi_up(epsilon);
    j["epsilon_lower"] = lo_down(epsilon);
  }
  j["delta"] = 0;
  for (auto it = details.begin(); it != details.end(); ++it) j[it.key()] = it.value();
  j["k0"] = k0;
  if (horizon == kInfiniteHorizon) j["T"] = "inf"; else j["T"] = horizon;
  j["method"] = method;
  return j;
}

}  // namespace dpl::algorithms::seed001
