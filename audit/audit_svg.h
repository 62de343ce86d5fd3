// SPDX-License-Identifier: Apache-2.0
// The audit pictures as SVG text (plotting/svg_plot.h): for a threshold audit, the two output histograms (D and D',
// estimation half) with the chosen event's threshold; for a white-box audit, the histogram of the per-run
// privacy loss with its maximum, mean and the claimed bound; for a canary-score audit, the attack's ROC curve.
#pragma once

#include "audit/algorithm_audit.h"
#include "audit/canary_score_audit.h"
#include "audit/threshold_counts.h"
#include "audit/threshold_test.h"
#include "audit/whitebox_audit.h"

#include <optional>
#include <string>

namespace dpl::audit {

std::string threshold_audit_svg(const ThresholdCounts& counts, const AuditResult& r, const std::string& title);
std::string whitebox_audit_svg(const WhiteBoxResult& w);
// A canary-score audit: the attack's ROC convex hull (log FPR), chance, and with a claim the largest TPR an
// (eps, delta)-DP mechanism allows at each FPR, e^eps FPR + delta.
// An algorithm audit: the histograms of the per-run statistic on D and on D' (all runs) and the chosen event's
// threshold.
std::string algorithm_audit_svg(const AlgorithmAuditResult& w);
std::string canary_audit_svg(const CanaryAuditResult& r, double delta, std::optional<double> claimed,
                             const std::string& title);

}  // namespace dpl::audit
