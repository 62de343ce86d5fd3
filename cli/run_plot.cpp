// SPDX-License-Identifier: Apache-2.0
#include "cli/run_plot.h"

#include "accounting/composition/running_budget.h"
#include "accounting/errors.h"
#include "accounting/mechanisms/ledger_file.h"
#include "accounting/numeric/decimal.h"
#include "accounting/numeric/interval.h"
#include "plotting/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

namespace dpl::cli {
namespace {

using algorithms::RunResult;

std::optional<double> number(const Json& obj, const char* key) {
  if (obj.is_object() && obj.contains(key) && obj[key].is_number()) return obj[key].get<double>();
  return std::nullopt;
}

struct Running {
  plotting::PlotSeries series;
  std::string note;  // why there is no running series (empty when there is one)
  std::string note_kinds;  // which accountants a "best" series is the minimum of
};

// The accountant of the run applied to the prefix of its ledger used by each traced iteration. running_budget()
// evaluates checkpoints every `every` ledger steps; an iteration that used s steps is given the bound of the first
// evaluated checkpoint at or after s (a later prefix bounds an earlier one), so every value is a certified upper
// bound, at most `every` steps late.
Running accounted_running(const RunResult& r) {
  Running out;
  if (r.mechanisms.empty()) {
    out.note = "the run has no mechanism ledger";
    return out;
  }
  std::vector<std::pair<int, std::int64_t>> uses;
  for (const auto& t : r.trace)
    if (t.ledger_steps >= 0) uses.emplace_back(t.iteration, t.ledger_steps);
  const auto delta = number(r.accounted, "delta");
  if (uses.empty() || !delta) {
    out.note = uses.empty() ? "the run does not map its ledger to iterations" : "the run reports no delta";
    return out;
  }
  std::string lines;
  for (const auto& m : r.mechanisms) lines += m.dump() + "\n";
  Ledger ledger;
  std::int64_t total = 0;
  for (const auto& e : parse_ledger_text(lines, "the run's ledger")) {
    ledger.push_back(e.entry);
    total += e.entry.steps;
  }
  // The run's accountant; when the run names none (e.g. it composed with `auto`), the best of the fast ones at
  // each point (each is a certified bound, so their minimum is one).
  std::vector<AccountantKind> kinds{AccountantKind::optimal, AccountantKind::rdp, AccountantKind::pure,
                                    AccountantKind::advanced, AccountantKind::basic};
  try {
    if (r.accounted.contains("accountant") && r.accounted["accountant"].is_string()) {
      const AccountantKind named = parse_accountant(r.accounted["accountant"].get<std::string>());
      if (named != AccountantKind::automatic) kinds = {named};
    }
  } catch (const InputError&) {
  }
  const std::int64_t every = std::max<std::int64_t>(1, (total + 1999) / 2000);
  // 60 evaluations (rdp: every checkpoint, cumulatively) keep a plot within a few seconds.
  const RunningBudget rb = running_budget(ledger, Target::for_delta(*delta), kinds, every, 60);
  if (rb.series.empty()) {
    out.note = rb.not_applicable.empty() ? "no accountant applies" : rb.not_applicable.front();
    return out;
  }
  std::string names;
  for (const auto& s : rb.series) names += (names.empty() ? "" : ", ") + s.accountant;
  out.series.name = rb.series.size() == 1 ? "accounted: " + names : "accounted: best";
  if (rb.series.size() > 1) out.note_kinds = "accounted: the smallest at each point of " + names;
  for (const auto& [iteration, steps] : uses) {
    double eps = steps == 0 ? 0.0 : HUGE_VAL;
    for (const auto& s : rb.series)
      for (std::size_t i = 0; i < rb.checkpoints.size() && steps > 0; ++i)
        if (rb.checkpoints[i].total_steps >= std::min(steps, total) && s.bound[i]) {
          eps = std::min(eps, hi_up(*s.bound[i]));
          break;
        }
    out.series.x.push_back(iteration);
    out.series.y.push_back(eps);
  }
  return out;
}

Running claimed_running(const RunResult& r) {
  Running out;
  out.series.name = "claimed: paper at t";
  out.series.dashed = true;
  for (const auto& t : r.trace)
    if (std::isfinite(t.claimed_epsilon)) {
      out.series.x.push_back(t.iteration);
      out.series.y.push_back(t.claimed_epsilon);
    }
  if (out.series.x.empty()) out.note = "no per-iteration formula";
  return out;
}

bool any_positive(const plotting::PlotSeries& s) {
  return std::any_of(s.y.begin(), s.y.end(), [](double y) { return std::isfinite(y) && y > 0; });
}

// render_svg's document with its root element moved down by `dy` (a nested <svg> inside the outer one).
std::string shifted(const std::string& doc, int dy) {
  return "<svg y='" + std::to_string(dy) + "'" + doc.substr(4);
}

}  // namespace

RunPlot run_plot(const RunResult& r) {
  if (r.trace.empty()) throw InputError("--plot: the run of " + r.algorithm + " has no trace to plot");
  const double last = r.trace.back().iteration;

  plotting::Plot utility;
  utility.title = r.algorithm + ": utility of the released point";
  utility.x = {"iteration", false};
  plotting::PlotSeries sub{"F(x_t) - F*", {}, {}};
  for (const auto& t : r.trace) {
    sub.x.push_back(t.iteration);
    sub.y.push_back(t.objective - r.optimum);
  }
  if (any_positive(sub)) {
    utility.y = {"suboptimality (log scale)", true};
  } else {
    sub.name = "F(x_t)";
    for (std::size_t i = 0; i < sub.y.size(); ++i) sub.y[i] = r.trace[i].objective;
    utility.y = {"objective", false};
  }
  utility.series.push_back(sub);

  plotting::Plot privacy;
  const auto delta = number(r.accounted, "delta");
  privacy.title = "running epsilon (delta = " + (delta ? format_input(*delta) : std::string("?")) + ")";
  privacy.x = {"iteration", false};
  // Both panels span the run's iterations, also when the privacy panel has a single (final) point.
  utility.x_extent = {static_cast<double>(r.trace.front().iteration), last};
  privacy.x_extent = utility.x_extent;
  Json summary{{"panels", Json::array({"utility", "epsilon"})}};
  Json running{{"iterations", Json::array()}, {"accounted", Json::array()}, {"claimed", Json::array()}};

  Running acc = accounted_running(r);
  std::string how, notes;
  if (acc.note.empty()) {
    running["iterations"] = acc.series.x;
    running["accounted"] = acc.series.y;
    privacy.series.push_back(acc.series);
    how = "accounted: ledger prefix";
    if (r.accounted.contains("agent") && r.accounted["agent"].is_number_integer())
      how += " of agent " + std::to_string(r.accounted["agent"].get<int>());
    notes = acc.note_kinds;
  } else if (const auto eps = number(r.accounted, "epsilon")) {
    privacy.series.push_back({"accounted (final) " + format_input(*eps), {last}, {*eps}, false, true});
    how = "accounted: final value";
    notes = "accounted: final value only (" + acc.note + ")";
  } else {
    privacy.series.push_back({"accounted: none", {}, {}});
    how = "accounted: none";
    notes = "accounted: none (" + acc.note + ")";
  }
  Running cl = claimed_running(r);
  if (cl.note.empty()) {
    running["claimed_iterations"] = cl.series.x;
    running["claimed"] = cl.series.y;
    privacy.series.push_back(cl.series);
    how += "; claimed: paper at t";
  } else if (const auto eps = number(r.claimed, "epsilon")) {
    // a ring (dashed point series): an accounted dot at the same place stays visible inside it
    privacy.series.push_back({"claimed (final) " + format_input(*eps), {last}, {*eps}, true, true});
    how += "; claimed: final value";
    notes += std::string(notes.empty() ? "" : "; ") + "claimed: final value only (" + cl.note + ")";
  } else {
    privacy.series.push_back({"claimed: none", {}, {}});
    how += "; the paper claims none";
    notes += std::string(notes.empty() ? "" : "; ") + "claimed: none (the paper states no bound for this run)";
  }
  privacy.title += ", " + how;
  if (!notes.empty()) summary["notes"] = notes;
  double lo = HUGE_VAL, hi = 0;
  for (const auto& s : privacy.series)
    for (double y : s.y)
      if (std::isfinite(y) && y > 0) {
        lo = std::min(lo, y);
        hi = std::max(hi, y);
      }
  privacy.y = {"epsilon (certified upper bound; claimed as printed)", hi > 20 * lo};
  if (privacy.y.log) privacy.y.label = "epsilon (log scale)";

  Json names = Json::array();
  for (const auto* p : {&utility, &privacy})
    for (const auto& s : p->series) names.push_back(s.name);
  summary["series"] = names;
  summary["running_epsilon"] = running;

  RunPlot out;
  const std::string top = plotting::render_svg(utility);
  if (!(hi > 0)) {
    // Nothing finite to draw below (no noise: epsilon is infinite): the utility panel alone, saying so.
    utility.series.push_back({"epsilon: infinite", {}, {}});
    utility.title += " (epsilon infinite: no noise)";
    summary["series"] = Json::array({utility.series.front().name, utility.series.back().name});
    out.svg = plotting::render_svg(utility);
    summary["panels"] = Json::array({"utility"});
    out.summary = summary;
    return out;
  }
  const std::string bottom = plotting::render_svg(privacy);
  out.svg = "<svg xmlns='http://www.w3.org/2000/svg' width='" + std::to_string(utility.width) + "' height='" +
            std::to_string(utility.height + privacy.height) + "'>\n" + shifted(top, 0) + shifted(bottom, utility.height) +
            "</svg>\n";
  out.summary = summary;
  return out;
}

}  // namespace dpl::cli
