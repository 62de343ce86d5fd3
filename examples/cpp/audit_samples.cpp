// SPDX-License-Identifier: Apache-2.0
// Auditing your own mechanism's outputs with the audit library (dpl_audit, in the build tree): Laplace outputs of
// scale 1 on D (mean 0) and D' (mean 1) should meet epsilon 1; drawn at half that scale, they should not. The same
// threshold test as `dpledger audit --samples d.csv --neighbour-samples d2.csv --epsilon 1 --delta 0`: the first
// half of each sample chooses the event, the second half bounds its probabilities (Clopper-Pearson).
#include "algorithms/rng/portable_rng.h"
#include "audit/threshold_test.h"
#include "audit/user_samples.h"

#include <iostream>
#include <vector>

namespace {

std::vector<double> laplace_outputs(double mean, double scale, int n, std::uint64_t seed) {
  dpl::algorithms::Rng rng(seed);
  std::vector<double> out(static_cast<std::size_t>(n));
  for (double& x : out) x = mean + rng.laplace_scale(scale);
  return out;
}

void audit_at_scale(double scale) {
  const auto d = laplace_outputs(0, scale, 200000, 1), dprime = laplace_outputs(1, scale, 200000, 2);
  dpl::audit::AuditClaim claim;
  claim.epsilon = 1;
  claim.delta = 0;
  const auto r = dpl::audit::threshold_test(dpl::audit::user_sample_counts(d, dprime), claim, 0.95, 0.1);
  std::cout << "scale " << scale << ": " << dpl::audit::to_string(r.verdict) << ", epsilon >= " << r.epsilon_lower
            << " at confidence 0.95 (claimed 1)\n";
}

}  // namespace

int main() {
  audit_at_scale(1.0);  // the claim holds: pass
  audit_at_scale(0.5);  // half the noise: a violation (the true epsilon is 2)
  return 0;
}
