#include "proofs-check/check_report.h"

#include <sstream>

namespace dpl::proofs {
namespace {

std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

}  // namespace

std::vector<PaperSummary> summarise(const std::vector<CheckedClaim>& results) {
  std::vector<PaperSummary> out;
  for (const auto& r : results) {
    const std::string paper = paper_of(r.claim.id);
    if (out.empty() || out.back().paper != paper) out.push_back(PaperSummary{paper});
    PaperSummary& s = out.back();
    ++s.claims;
    s.holds += r.result.status == Status::holds;
    s.fails += r.result.status == Status::fails;
    s.inconclusive += r.result.status == Status::inconclusive;
    s.as_expected += r.result.status == r.claim.expected;
  }
  return out;
}

std::string markdown_report(const std::vector<CheckedClaim>& results, const CheckContext& context) {
  std::ostringstream md;
  md << "# dpledger check: the seed papers' claims, recomputed\n\n";
  md << "Mode: " << (context.quick ? "quick (smaller grids and fewer draws)" : "full") << ", seed " << context.seed;
  if (!context.overrides.empty()) {
    md << ", claimed constants overridden:";
    for (const auto& [k, v] : context.overrides) md << " " << k << "=" << num(v, 12);
  }
  md << ".\n\n| paper | claims | holds | fails | inconclusive | as expected |\n|---|---|---|---|---|---|\n";
  for (const auto& s : summarise(results))
    md << "| " << s.paper << " | " << s.claims << " | " << s.holds << " | " << s.fails << " | " << s.inconclusive
       << " | " << s.as_expected << "/" << s.claims << " |\n";
  std::string paper;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    if (paper_of(r.claim.id) != paper) {
      paper = paper_of(r.claim.id);
      md << "\n## " << paper << ": " << paper_citation(paper) << "\n\n";
      md << "| claim | where | statement | expected | status | claimed | computed | counterexample / reproduce |\n"
            "|---|---|---|---|---|---|---|---|\n";
      for (std::size_t j = i; j < results.size() && paper_of(results[j].claim.id) == paper; ++j) {
        const auto& c = results[j];
        std::string cx = c.result.counterexample;
        if (!c.result.reproduce.empty()) cx += (cx.empty() ? "" : "; ") + std::string("`") + c.result.reproduce + "`";
        md << "| " << c.claim.id << " | " << cell(c.claim.location) << " | " << cell(c.claim.statement) << " | "
           << to_string(c.claim.expected) << " | **" << to_string(c.result.status) << "**"
           << (c.result.status == c.claim.expected ? "" : " (UNEXPECTED)") << " | " << cell(c.result.claimed) << " | "
           << cell(c.result.computed) << " | " << cell(cx) << " |\n";
      }
      md << "\nRegions searched and notes:\n\n";
      for (std::size_t j = i; j < results.size() && paper_of(results[j].claim.id) == paper; ++j) {
        const auto& c = results[j];
        md << "- **" << c.claim.id << "**: " << c.result.region << "." << (c.result.note.empty() ? "" : " " + c.result.note)
           << "\n";
      }
    }
  }
  return md.str();
}

}  // namespace dpl::proofs
