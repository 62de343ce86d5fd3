// SPDX-License-Identifier: Apache-2.0
#include "algorithms/run/learning_verdict.h"

#include <cmath>

namespace dpl::algorithms {

Json learning_verdict(const RunResult& r) {
  Json v{{"start", r.start_objective},     {"end", r.objective},
         {"optimum", r.optimum},           {"zero_model", r.baseline_objective},
         {"objective", r.objective_definition}};
  if (!std::isfinite(r.start_objective) || !std::isfinite(r.baseline_objective)) {
    v["verdict"] = "not recorded";
    return v;
  }
  const bool start = r.objective < r.start_objective;
  const bool zero = r.objective < r.baseline_objective;
  v["better_than_start"] = start;
  v["better_than_zero_model"] = zero;
  v["verdict"] = start && zero ? "learned" : start ? "better than its start only" : "not better than its start";
  std::string eps = "no privacy";
  if (r.accounted.contains("epsilon")) {
    const Json& e = r.accounted["epsilon"];
    eps = e.is_number() ? "accounted epsilon " + Json(e.get<double>()).dump() : "accounted epsilon " + e.dump();
  }
  if (!zero)
    v["note"] = "the output is no better than releasing the zero model (" + eps +
                "): at this privacy level the setting does not learn on this data; see the run's extra.paper_setting "
                "for the paper's own setting and what stands in for it here";
  return v;
}

}  // namespace dpl::algorithms
