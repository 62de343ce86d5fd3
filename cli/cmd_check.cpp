// SPDX-License-Identifier: Apache-2.0
// `dpledger check`: the proofs-check, every numbered claim of the seed papers recomputed (all, or ids / paper
// prefixes), as a readable report (per claim: paper and location, statement, parameters, evidence, verdict), JSON,
// or a Markdown report; exit 3 when a status differs from the expected one.
#include "accounting/errors.h"
#include "cli/command_registry.h"
#include "cli/option_values.h"
#include "cli/output_file.h"
#include "cli/progress.h"
#include "proofs-check/check_report.h"
#include "proofs-check/registry.h"

#include <cmath>
#include <cstdio>
#include <iomanip>
#include <memory>
#include <sstream>
#include <unistd.h>

namespace dpl::cli {
namespace {

struct CheckOptions {
  std::vector<std::string> claims, sets;
  bool list = false, quick = false;
  std::string report;
  std::uint64_t seed = 20261123;
};

// The left-out claims of the papers the selection names whole (all papers when `selectors` is empty).
std::vector<proofs::LeftOutClaim> left_out_for(const std::vector<std::string>& selectors) {
  std::vector<proofs::LeftOutClaim> out;
  for (const auto& l : proofs::left_out_claims()) {
    bool wanted = selectors.empty();
    for (const auto& s : selectors) wanted = wanted || s == l.paper || s == l.paper + "/";
    if (wanted) out.push_back(l);
  }
  return out;
}

Output list_claims(const std::vector<proofs::Claim>& claims, const std::vector<std::string>& selectors) {
  Output out;
  out.json["command"] = "check";
  out.json["list"] = true;
  Json arr = Json::array();
  std::ostringstream t;
  for (const auto& c : claims) {
    arr.push_back(Json{{"id", c.id},
                       {"paper", proofs::paper_of(c.id)},
                       {"source", proofs::source_of(c)},
                       {"location", c.location},
                       {"statement", c.statement},
                       {"kind", proofs::to_string(c.kind)},
                       {"method", proofs::to_string(c.method)},
                       {"expected", proofs::to_string(c.expected)},
                       {"constants", c.constants},
                       {"mutation", Json{{"constant", c.mutation.constant},
                                         {"value", c.mutation.value},
                                         {"description", c.mutation.description}}}});
    t << std::left << std::setw(30) << c.id << std::setw(18) << proofs::to_string(c.expected) << c.location << ": "
      << c.statement << "\n";
  }
  out.json["claims"] = arr;
  const std::vector<proofs::LeftOutClaim> left = left_out_for(selectors);
  Json left_arr = Json::array();
  if (!left.empty()) t << "\nleft out (" << left.size() << "):\n";
  for (const auto& l : left) {
    left_arr.push_back(Json{{"paper", l.paper}, {"location", l.location}, {"statement", l.statement}, {"reason", l.reason}});
    t << "  " << l.paper << "  " << l.location << ": " << l.statement << "\n      reason: " << l.reason << "\n";
  }
  out.json["left_out"] = left_arr;
  t << "\n" << claims.size() << " claims with a check, " << left.size() << " left out\n";
  out.text = t.str();
  return out;
}

Output run_check(const CheckOptions& o) {
  const std::vector<proofs::Claim> claims = proofs::select_claims(o.claims);
  if (o.list) return list_claims(claims, o.claims);
  proofs::CheckContext ctx;
  ctx.quick = o.quick;
  ctx.seed = o.seed;
  for (const auto& s : o.sets) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0) throw InputError("--set " + s + ": expected NAME=VALUE");
    ctx.overrides[s.substr(0, eq)] = parse_finite("--set " + s.substr(0, eq), s.substr(eq + 1));
  }
  std::vector<proofs::CheckedClaim> results;
  {
    Progress bar("check");
    results = proofs::run_claims(claims, ctx, [&](std::size_t i, std::size_t n, const std::string& id) {
      bar.update(double(i + 1) / double(n), id);
    });
  }
  Output out;
  out.json["command"] = "check";
  out.json["selection"] = o.claims;
  out.json["quick"] = o.quick;
  out.json["seed"] = o.seed;
  Json overrides = Json::object();
  for (const auto& [k, v] : ctx.overrides) overrides[k] = v;
  out.json["constants"] = overrides;
  Json arr = Json::array();
  bool all_expected = true;
  for (const auto& r : results) {
    const bool as_expected = r.result.status == r.claim.expected;
    all_expected = all_expected && as_expected;
    Json j{{"id", r.claim.id},
           {"paper", proofs::paper_of(r.claim.id)},
           {"source", proofs::source_of(r.claim)},
           {"location", r.claim.location},
           {"statement", r.claim.statement},
           {"kind", proofs::to_string(r.claim.kind)},
           {"method", proofs::to_string(r.claim.method)},
           {"expected", proofs::to_string(r.claim.expected)},
           {"status", proofs::to_string(r.result.status)},
           {"verdict", proofs::verdict_of(r.result)},
           {"claimed", r.result.claimed},
           {"computed", r.result.computed},
           {"note", r.result.note},
           {"region", r.result.region},
           {"parameters", proofs::parameters_of(r.claim, r.result, ctx)},
           {"as_expected", as_expected},
           {"seconds", std::round(r.seconds * 1000) / 1000}};
    if (!r.result.counterexample.empty()) j["counterexample"] = r.result.counterexample;
    if (!r.result.reproduce.empty()) j["reproduce"] = r.result.reproduce;
    if (!r.result.holds_where.empty()) j["holds_where"] = r.result.holds_where;
    if (!r.result.why.empty()) j["why"] = r.result.why;
    if (std::isfinite(r.result.deficit)) j["deficit"] = r.result.deficit;
    arr.push_back(j);
  }
  std::ostringstream t;
  t << proofs::text_report(results, ctx);
  out.json["claims"] = arr;
  Json summary = Json::array();
  for (const auto& s : proofs::summarise(results))
    summary.push_back(Json{{"paper", s.paper}, {"claims", s.claims}, {"holds", s.holds}, {"fails", s.fails},
                           {"fails_as_printed", s.fails_as_printed}, {"inconclusive", s.inconclusive},
                           {"as_expected", s.as_expected}});
  out.json["summary"] = summary;
  out.json["all_as_expected"] = all_expected;
  if (!o.report.empty()) {
    stage_output(o.report, proofs::markdown_report(results, ctx));
    out.json["report"] = o.report;
    t << "report written to " << o.report << "\n";
  }
  t << (all_expected ? "every claim has its expected status\n" : "SOME CLAIMS DIFFER FROM THEIR EXPECTED STATUS\n");
  out.text = t.str();
  out.exit_code = all_expected ? 0 : 3;
  return out;
}

const Registration check_registration{"check", 90, [](CLI::App& root, CLI::App*& sub) -> Runner {
  auto o = std::make_shared<CheckOptions>();
  sub = root.add_subcommand("check",
                            "Recompute every numbered claim of the five papers (proofs-check): holds / fails / fails "
                            "as printed / inconclusive, with the evidence; exit 3 if a status differs from the expected one");
  sub->add_option("claims", o->claims, "Claim ids (e.g. 000/eq-2.6) or papers (000 .. 004); default: all");
  sub->add_flag("--list", o->list,
                "List the claims (id, expected status, location, statement; with --json also kind, method, constants "
                "and the mutation that must flip the status) without running them, then the claims left out and why");
  sub->add_option("--report", o->report, "Write a Markdown report (one table per paper) to this file")
      ->check(writable_output_file());
  sub->add_flag("--quick", o->quick, "Smaller grids and fewer random draws (for CI); the statuses must not change");
  sub->add_option("--seed", o->seed, "Seed of the random searches and simulations")
      ->check(seed_value())->capture_default_str();
  sub->add_option("--set", o->sets,
                  "Override a claimed constant, NAME=VALUE (see --list --json for each claim's constants), to see "
                  "how far a claim is from holding");
  return [o] { return run_check(*o); };
}};

}  // namespace
}  // namespace dpl::cli
