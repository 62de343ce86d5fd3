// SPDX-License-Identifier: Apache-2.0
// The reports of a proofs-check run, readable with the paper in hand: per claim the paper (authors, short title)
// and location, the statement, the parameters, the evidence (both sides' numbers, the counterexample and the command
// that reproduces it) and the verdict; then one summary row per paper. Plain text for the terminal, Markdown for
// `--report FILE.md`.
#pragma once

#include "proofs-check/registry.h"

#include <string>
#include <vector>

namespace dpl::proofs {

std::string markdown_report(const std::vector<CheckedClaim>& results, const CheckContext& context);
// `width`: the line width the text is wrapped to (continuation lines are indented under the field).
std::string text_report(const std::vector<CheckedClaim>& results, const CheckContext& context, std::size_t width = 110);

// One summary row per paper: claims, holds, fails, fails as printed, inconclusive, as expected.
struct PaperSummary {
  std::string paper;
  int claims = 0, holds = 0, fails = 0, fails_as_printed = 0, inconclusive = 0, as_expected = 0;
};
std::vector<PaperSummary> summarise(const std::vector<CheckedClaim>& results);

// The verdict in one sentence: the status, where it holds (fails as printed) or why (inconclusive).
std::string verdict_of(const ClaimResult& r);
// The parameters of a claim's check: the region or instance, and the claimed constants with their values.
std::string parameters_of(const Claim& c, const ClaimResult& r, const CheckContext& context);

}  // namespace dpl::proofs
