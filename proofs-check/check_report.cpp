// SPDX-License-Identifier: Apache-2.0
#include "proofs-check/check_report.h"

#include <cstdio>
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

// Appends "label" + text wrapped at `width`, continuation lines indented by `indent` spaces.
void field(std::ostringstream& out, const std::string& label, const std::string& text, std::size_t width) {
  if (text.empty()) return;
  const std::size_t indent = 17;
  std::string line = "  " + label;
  while (line.size() < indent) line += ' ';
  std::istringstream words(text);
  std::string word;
  bool first = true;
  while (words >> word) {
    if (!first && line.size() + 1 + word.size() > width) {
      out << line << "\n";
      line = std::string(indent, ' ') + word;
    } else {
      line += (first ? "" : " ") + word;
    }
    first = false;
  }
  out << line << "\n";
}

std::string status_word(Status s) {
  switch (s) {
    case Status::holds: return "holds";
    case Status::fails: return "FAILS";
    case Status::fails_as_printed: return "FAILS AS PRINTED";
    case Status::inconclusive: return "INCONCLUSIVE";
  }
  return "INCONCLUSIVE";
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
    s.fails_as_printed += r.result.status == Status::fails_as_printed;
    s.inconclusive += r.result.status == Status::inconclusive;
    s.as_expected += r.result.status == r.claim.expected;
  }
  return out;
}

std::string verdict_of(const ClaimResult& r) {
  std::string v = to_string(r.status);
  if (r.status == Status::fails_as_printed && !r.holds_where.empty()) v += "; holds " + r.holds_where;
  if (r.status == Status::inconclusive && !r.why.empty()) v += ": " + r.why;
  return v;
}

std::string parameters_of(const Claim& c, const ClaimResult& r, const CheckContext& context) {
  std::string p = r.region;
  if (!c.constants.empty()) {
    std::string k;
    for (const auto& decl : c.constants) {
      const std::string name = decl.substr(0, decl.find('='));
      const auto it = context.overrides.find(name);
      k += (k.empty() ? "" : ", ") + (it == context.overrides.end() ? decl : name + "=" + num(it->second, 12) + " (moved from " + decl.substr(decl.find('=') + 1) + ")");
    }
    p += (p.empty() ? "" : "; ") + std::string("claimed constants: ") + k;
  }
  return p;
}

std::string text_report(const std::vector<CheckedClaim>& results, const CheckContext& context, std::size_t width) {
  std::ostringstream t;
  std::string paper;
  for (const auto& r : results) {
    if (paper_of(r.claim.id) != paper) {
      paper = paper_of(r.claim.id);
      t << "== " << paper << ": " << paper_citation(paper) << "\n\n";
    }
    const bool as_expected = r.result.status == r.claim.expected;
    t << r.claim.id << "  " << status_word(r.result.status)
      << (as_expected ? "" : "  (EXPECTED " + to_string(r.claim.expected) + ")") << "  [" << to_string(r.claim.kind)
      << ", " << to_string(r.claim.method) << "]\n";
    field(t, "paper", paper_short(paper) + ", " + r.claim.location, width);
    field(t, "statement", r.claim.statement, width);
    field(t, "parameters", parameters_of(r.claim, r.result, context), width);
    field(t, "claimed", r.result.claimed, width);
    field(t, "computed", r.result.computed, width);
    field(t, "counterexample", r.result.counterexample, width);
    field(t, "reproduce", r.result.reproduce, width);
    field(t, "verdict", verdict_of(r.result) + (r.result.note.empty() ? "" : ". " + r.result.note), width);
    t << "\n";
  }
  t << "paper  claims  holds  fails  fails as printed  inconclusive  as expected\n";
  for (const auto& s : summarise(results)) {
    char line[160];
    std::snprintf(line, sizeof line, "%-7s%-8d%-7d%-7d%-18d%-14d%d/%d\n", s.paper.c_str(), s.claims, s.holds, s.fails,
                  s.fails_as_printed, s.inconclusive, s.as_expected, s.claims);
    t << line;
  }
  return t.str();
}

std::string markdown_report(const std::vector<CheckedClaim>& results, const CheckContext& context) {
  std::ostringstream md;
  md << "# dpledger check: the seed papers' claims, recomputed\n\n";
  md << "Mode: " << (context.quick ? "quick (smaller grids and fewer draws)" : "full") << ", seed " << context.seed;
  if (!context.overrides.empty()) {
    md << ", claimed constants overridden:";
    for (const auto& [k, v] : context.overrides) md << " " << k << "=" << num(v, 12);
  }
  md << ".\n\n| paper | claims | holds | fails | fails as printed | inconclusive | as expected |\n"
        "|---|---|---|---|---|---|---|\n";
  for (const auto& s : summarise(results))
    md << "| " << s.paper << " | " << s.claims << " | " << s.holds << " | " << s.fails << " | " << s.fails_as_printed
       << " | " << s.inconclusive << " | " << s.as_expected << "/" << s.claims << " |\n";
  std::string paper;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    if (paper_of(r.claim.id) == paper) continue;
    paper = paper_of(r.claim.id);
    md << "\n## " << paper << ": " << paper_citation(paper) << "\n\n";
    md << "| claim | where | statement | kind | expected | status | claimed | computed | counterexample / reproduce |\n"
          "|---|---|---|---|---|---|---|---|---|\n";
    for (std::size_t j = i; j < results.size() && paper_of(results[j].claim.id) == paper; ++j) {
      const auto& c = results[j];
      std::string cx = c.result.counterexample;
      if (!c.result.reproduce.empty()) cx += (cx.empty() ? "" : "; ") + std::string("`") + c.result.reproduce + "`";
      md << "| " << c.claim.id << " | " << cell(c.claim.location) << " | " << cell(c.claim.statement) << " | "
         << to_string(c.claim.kind) << ", " << to_string(c.claim.method) << " | " << to_string(c.claim.expected)
         << " | **" << to_string(c.result.status) << "**" << (c.result.status == c.claim.expected ? "" : " (UNEXPECTED)")
         << " | " << cell(c.result.claimed) << " | " << cell(c.result.computed) << " | " << cell(cx) << " |\n";
    }
    md << "\nParameters and verdicts:\n\n";
    for (std::size_t j = i; j < results.size() && paper_of(results[j].claim.id) == paper; ++j) {
      const auto& c = results[j];
      md << "- **" << c.claim.id << "**: " << cell(parameters_of(c.claim, c.result, context)) << ". Verdict: "
         << cell(verdict_of(c.result)) << "." << (c.result.note.empty() ? "" : " " + cell(c.result.note)) << "\n";
    }
  }
  return md.str();
}

}  // namespace dpl::proofs
