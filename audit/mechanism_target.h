// SPDX-License-Identifier: Apache-2.0
// Built-in black-box audit targets: the Laplace and Gaussian mechanisms on the neighbouring pair D = 0, D' = sens
// (the output is the query answer plus noise), with their claims from the accountant and a fixed grid of
// candidate thresholds chosen from the CLAIMED parameters only (never from the samples).
#pragma once

#include "audit/block_sampler.h"
#include "audit/privacy_curve_audit.h"
#include "audit/threshold_test.h"

#include <map>
#include <optional>
#include <string>

namespace dpl::audit {

struct MechanismTarget {
  std::string spec;           // as given, e.g. "laplace:b=1"
  bool laplace = true;        // false: gaussian
  double scale = 1;           // claimed b (Laplace) or sigma (Gaussian)
  double sens = 1;
  double noise_factor = 1;    // --set actual_noise_factor: the noise actually drawn is factor * scale
  AuditClaim claim;           // epsilon = the accountant's certified upper bound at delta; mu for the Gaussian
  std::string accountant;     // which accountant produced claim.epsilon, and how
  // Gaussian: the tight accountant's curve, (delta, certified epsilon(delta)) at delta = 1e-1 ... 1e-6 and the
  // claimed delta, for the curve audit (privacy_curve_audit.h); empty for Laplace (pure: one point).
  std::vector<std::pair<double, double>> curve;
  double grid_start = 0, grid_step = 0;
  std::size_t grid_count = 0;
  std::vector<double> thresholds() const;  // grid_start + j * grid_step, j < grid_count
};

// Parses TARGET (laplace:b=..,sens=.. or gaussian:sigma=..,sens=..; one release: no steps, no q), the --set keys
// (actual_noise_factor in (0, inf)) and delta (Laplace: default 0; Gaussian: default 1e-5, must be > 0).
// Throws InputError / NotApplicable naming the option, the value and what is allowed.
MechanismTarget make_mechanism_target(const std::string& spec, const std::map<std::string, std::string>& sets,
                                      std::optional<double> delta);

// The verdict of a built-in target from its counts: the threshold test of the claim and, for a Gaussian, the
// (eps, delta) curve audit of target.curve, the error 1 - C split in half between them (Bonferroni), so that the
// verdict (a violation of either) holds at C. result.confidence is C.
struct MechanismAudit {
  AuditResult result;
  std::optional<CurveAudit> curve;
};
MechanismAudit audit_mechanism(const MechanismTarget& t, const ThresholdCounts& counts, double confidence,
                               double tolerance);

// Samples plan.runs outputs of the target on D and on D' (actually sampling, blocks as in block_sampler.h).
ThresholdCounts sample_mechanism(const MechanismTarget& t, const SamplingPlan& plan,
                                 const std::function<void(std::uint64_t, std::uint64_t)>& progress = {});

}  // namespace dpl::audit
