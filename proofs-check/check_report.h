// The Markdown report of a proofs-check run: one table per paper, readable with the paper in hand (location,
// statement, expected and found status, both sides' numbers, the counterexample and the command that
// reproduces it), the notes below each table.
#pragma once

#include "proofs-check/registry.h"

#include <string>
#include <vector>

namespace dpl::proofs {

std::string markdown_report(const std::vector<CheckedClaim>& results, const CheckContext& context);

// One summary row per paper: claims, holds, fails, inconclusive, as expected.
struct PaperSummary {
  std::string paper;
  int claims = 0, holds = 0, fails = 0, inconclusive = 0, as_expected = 0;
};
std::vector<PaperSummary> summarise(const std::vector<CheckedClaim>& results);

}  // namespace dpl::proofs
