// SPDX-License-Identifier: Apache-2.0
// The (eps, delta) curve audit: the threshold test (threshold_test.h) at several deltas at once, each with its
// own event chosen on the selection half, against the accountant's epsilon at that delta. Bonferroni over the
// points: every lower bound of the curve holds simultaneously at the confidence given.
#pragma once

#include "audit/threshold_counts.h"
#include "audit/threshold_test.h"

#include <vector>

namespace dpl::audit {

struct CurvePoint {
  double delta = 0;
  double epsilon_accountant = 0;  // the claim at this delta (certified upper bound)
  double epsilon_lower = 0;       // lower bound at the per-point confidence
  double epsilon_estimate = 0;    // the chosen event's point estimate
  Verdict verdict = Verdict::pass;
};

struct CurveAudit {
  std::vector<CurvePoint> points;
  double confidence_each = 0;  // 1 - (1 - C) / points
  Verdict verdict = Verdict::pass;  // violation if a point's lower bound exceeds its claim, else pass
};

// claims: (delta, accountant's epsilon at delta) pairs, delta in [0, 1). confidence in (0, 1).
CurveAudit privacy_curve_audit(const ThresholdCounts& counts, const std::vector<std::pair<double, double>>& claims,
                               double confidence);

}  // namespace dpl::audit
