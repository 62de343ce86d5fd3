// SPDX-License-Identifier: Apache-2.0
#include "audit/privacy_curve_audit.h"

#include "accounting/errors.h"

#include <cmath>

namespace dpl::audit {

// Kairouz, Oh, Viswanath 2015 (an (eps, delta)-DP mechanism has P(E) <= e^eps Q(E) + delta for every event and
// every point of its curve): one threshold test per delta, union bound over the k points (Bonferroni), so the
// k lower bounds hold jointly with probability >= C.
CurveAudit privacy_curve_audit(const ThresholdCounts& counts, const std::vector<std::pair<double, double>>& claims,
                               double confidence) {
  if (claims.empty()) throw InputError("audit: the curve audit needs at least one delta");
  if (!(confidence > 0 && confidence < 1))
    throw InputError("--confidence=" + std::to_string(confidence) + " is out of range: allowed (0, 1)");
  CurveAudit a;
  a.confidence_each = 1 - (1 - confidence) / static_cast<double>(claims.size());
  for (const auto& [delta, epsilon] : claims) {
    if (!(delta >= 0 && delta < 1)) throw InputError("audit: curve delta out of range: allowed [0, 1)");
    AuditClaim claim;
    claim.epsilon = epsilon;
    claim.delta = delta;
    // Any finite tolerance: only the violation/no-violation outcome of each point is used.
    const AuditResult r = threshold_test(counts, claim, a.confidence_each, INFINITY);
    CurvePoint p;
    p.delta = delta;
    p.epsilon_accountant = epsilon;
    p.epsilon_lower = r.epsilon_lower;
    p.epsilon_estimate = r.epsilon_estimate;
    p.verdict = r.verdict == Verdict::violation ? Verdict::violation : Verdict::pass;
    if (p.verdict == Verdict::violation) a.verdict = Verdict::violation;
    a.points.push_back(p);
  }
  return a;
}

}  // namespace dpl::audit
