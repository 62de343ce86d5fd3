// The audit pictures as SVG text (plotting/svg_plot.h): for a threshold audit, the two output histograms (D and D',
// estimation half) with the chosen event's threshold; for a white-box audit, the histogram of the per-run
// privacy loss with its maximum, mean and the claimed bound.
#pragma once

#include "audit/threshold_counts.h"
#include "audit/threshold_test.h"
#include "audit/whitebox_audit.h"

#include <string>

namespace dpl::audit {

std::string threshold_audit_svg(const ThresholdCounts& counts, const AuditResult& r, const std::string& title);
std::string whitebox_audit_svg(const WhiteBoxResult& w);

}  // namespace dpl::audit
