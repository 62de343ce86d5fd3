// SPDX-License-Identifier: Apache-2.0
// `dpledger compose`: epsilon for a delta, or delta for an epsilon, of a composition of mechanisms.
#include "accounting/composition/compose.h"
#include "accounting/composition/running_budget.h"
#include "accounting/errors.h"
#include "accounting/numeric/decimal.h"
#include "accounting/numeric/portable_math.h"
#include "cli/command_registry.h"
#include "cli/ledger_file_option.h"
#include "cli/ledger_options.h"
#include "cli/option_values.h"
#include "cli/output_file.h"
#include "cli/progress.h"
#include "plotting/svg_plot.h"
#include "presentation/compose_text.h"
#include "presentation/text_table.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <sstream>

namespace dpl::cli {
namespace {

struct ComposeOptions {
  std::vector<std::string> specs, ledgers;
  std::string delta, epsilon, accountant = "auto", csv, plot, curve;
  bool running = false, every_given = false;
  std::int64_t every = 0;
};

std::vector<AccountantKind> accountants_for(AccountantKind kind) {
  if (kind == AccountantKind::automatic) return automatic_accountants();
  return {kind};
}

// The SVG of a running budget: epsilon against steps, one line per accountant.
std::string running_plot_svg(const RunningBudget& rb, const std::string& delta) {
  const auto& cps = rb.checkpoints;
  plotting::Plot p;
  p.title = "Running privacy budget (delta = " + format_input(std::strtod(delta.c_str(), nullptr)) + ")";
  p.x = {"steps", false};
  p.y = {"epsilon (certified upper bound)", false};
  for (const auto& s : rb.series) {
    plotting::PlotSeries ps{s.accountant, {}, {}};
    ps.points = cps.size() > 1 && std::count_if(s.bound.begin(), s.bound.end(), [](const auto& b) { return b.has_value(); }) < 3;
    for (std::size_t i = 0; i < cps.size(); ++i)
      if (s.bound[i] && is_finite(*s.bound[i])) {
        ps.x.push_back(static_cast<double>(cps[i].total_steps));
        ps.y.push_back(hi_up(*s.bound[i]));
      }
    p.series.push_back(std::move(ps));
  }
  return plotting::render_svg(p);
}

// --running / --csv / --plot: the budget after each entry (or every --every steps), per accountant.
void add_running(Output& out, const Ledger& ledger, const Target& safe, AccountantKind kind, const ComposeOptions& o,
                 const AccountingResult& whole) {
  Progress progress("running budget");
  const RunningBudget rb = running_budget(ledger, safe, accountants_for(kind), o.every, 200, progress.callback(), {whole});
  const auto& cps = rb.checkpoints;
  Json j = Json::object();
  Json jc = Json::array();
  for (const auto& c : cps) jc.push_back({{"entry", c.entry + 1}, {"steps_in_entry", c.steps_in_entry}, {"steps", c.total_steps}});
  j["checkpoints"] = jc;
  Json ja = Json::object();
  for (const auto& s : rb.series) {
    Json idx = Json::array(), val = Json::array();
    for (std::size_t i = 0; i < cps.size(); ++i)
      if (s.bound[i]) {
        idx.push_back(i + 1);
        val.push_back(json_upper(*s.bound[i]));
      }
    ja[s.accountant] = {{"checkpoints", idx}, {"epsilon", val}};
  }
  j["accountants"] = ja;
  if (!rb.not_applicable.empty()) j["not_applicable"] = rb.not_applicable;
  if (!rb.notes.empty()) j["notes"] = rb.notes;
  j["note"] = "certified upper bounds at each checkpoint; each column is its suffix minimum (a bound for a later "
              "checkpoint bounds every earlier one), so it is non-decreasing and ends at the final budget; slow "
              "accountants are evaluated at evenly spread checkpoints only";
  out.json["running"] = j;

  std::ostringstream csv;
  std::vector<std::string> header{"checkpoint", "entry", "steps"};
  csv << "checkpoint,entry,steps_in_entry,steps";
  for (const auto& s : rb.series) {
    header.push_back(s.accountant);
    csv << "," << s.accountant;
  }
  csv << "\n";
  presentation::TextTable rows(header);
  for (std::size_t i = 0; i < cps.size(); ++i) {
    std::vector<std::string> row{std::to_string(i + 1), std::to_string(cps[i].entry + 1),
                                 std::to_string(cps[i].total_steps)};
    csv << i + 1 << "," << cps[i].entry + 1 << "," << cps[i].steps_in_entry << "," << cps[i].total_steps;
    for (const auto& s : rb.series) {
      row.push_back(s.bound[i] ? format_upper(*s.bound[i]) : "-");
      csv << "," << (s.bound[i] ? format_upper(*s.bound[i]) : "");
    }
    rows.add_row(std::move(row));
    csv << "\n";
  }
  std::ostringstream table;
  table << "\nrunning epsilon (upper bounds) after each checkpoint:\n" << rows.str();
  if (global_options().verbose) {
    for (const auto& na : rb.not_applicable) table << "not applicable: " << na << "\n";
    for (const auto& note : rb.notes) table << "note: " << note << "\n";
  } else if (!rb.not_applicable.empty() || !rb.notes.empty()) {
    table << rb.not_applicable.size() << " accountant" << (rb.not_applicable.size() == 1 ? "" : "s")
          << " not applicable" << (rb.notes.empty() ? "" : ", with notes") << " (--verbose says why)\n";
  }
  if (o.running) out.text += table.str();
  if (!o.csv.empty()) {
    stage_output(o.csv, csv.str());
    out.json["csv"] = o.csv;
  }
  if (!o.plot.empty()) {
    // A ledger of few entries (and no --every) is drawn with points inside them too, about 50: a budget of its own
    // for the plot, so that --plot never changes the table, the CSV or the JSON.
    std::int64_t total = 0;
    for (const auto& e : ledger) total += e.steps;
    if (!o.every_given && ledger.size() < 50 && total >= 100) {
      const RunningBudget dense = running_budget(ledger, safe, accountants_for(kind), total / 50, 200, progress.callback(), {whole});
      stage_output(o.plot, running_plot_svg(dense, o.delta));
    } else {
      stage_output(o.plot, running_plot_svg(rb, o.delta));
    }
    out.json["plot"] = o.plot;
  }
}

// --curve: the (epsilon, delta) privacy curve of the whole ledger, one line per accountant, log delta axis.
void add_curve(Output& out, const Ledger& ledger, AccountantKind kind, const std::string& path) {
  Progress progress("privacy curve");
  plotting::Plot p;
  p.title = "Privacy curve of the composition (certified upper bounds)";
  p.x = {"epsilon", false};
  p.y = {"delta (log scale)", true};
  Json jc = Json::object();
  const auto kinds = accountants_for(kind);
  for (std::size_t a = 0; a < kinds.size(); ++a) {
    const bool slow = kinds[a] == AccountantKind::pld;
    std::vector<double> deltas;
    for (int e = -14; e <= -1; e += slow ? 2 : 1) deltas.push_back(portable::pow(10.0, e));
    plotting::PlotSeries s{to_string(kinds[a]), {}, {}};
    Json jd = Json::array(), je = Json::array();
    try {
      for (std::size_t i = 0; i < deltas.size(); ++i) {
        progress.update((static_cast<double>(a) + static_cast<double>(i) / deltas.size()) / kinds.size(),
                        to_string(kinds[a]));
        const AccountingResult r = compose(ledger, Target::for_delta(deltas[i]), kinds[a]);
        if (!is_finite(r.epsilon)) continue;
        s.x.push_back(hi_up(r.epsilon));
        s.y.push_back(deltas[i]);
        jd.push_back(json_input(deltas[i]));
        je.push_back(json_upper(r.epsilon));
      }
    } catch (const NotApplicable&) {
      continue;
    }
    if (s.x.empty()) continue;
    jc[to_string(kinds[a])] = {{"delta", jd}, {"epsilon", je}};
    p.series.push_back(std::move(s));
  }
  if (p.series.empty()) throw NotApplicable("--curve: no accountant gives a finite epsilon for this ledger");
  stage_output(path, plotting::render_svg(p));
  out.json["curve"] = {{"file", path}, {"accountants", jc}};
}

Output run_compose(const ComposeOptions& o) {
  require_some_ledger(o.specs, o.ledgers);
  if ((o.running || !o.plot.empty() || !o.csv.empty()) && o.delta.empty())
    throw InputError("--running, --csv and --plot give the running epsilon: they need --delta");
  if (!o.csv.empty() && !o.running && o.plot.empty())
    throw InputError("--csv writes the running budget: give it with --running");
  if (o.every_given && !o.running && o.plot.empty() && o.csv.empty())
    throw InputError("--every sets the checkpoints of the running budget: give it with --running, --csv or --plot");
  const Ledger ledger = parse_ledger(specs_with_files(o.specs, o.ledgers));
  // Too many checkpoints: refused before any work.
  if (o.running || !o.plot.empty() || !o.csv.empty()) (void)running_checkpoints(ledger, o.every);
  const AccountantKind kind = parse_accountant(o.accountant);
  const bool given_delta = !o.delta.empty();
  // The bound holds at the decimal typed, not only at its nearest double (see DecimalTarget).
  const DecimalValue typed = given_delta ? parse_delta("--delta", o.delta, true) : parse_epsilon("--epsilon", o.epsilon);
  const Target target{given_delta ? Target::Given::delta : Target::Given::epsilon, typed.nearest};
  AccountingResult r;
  {
    Progress progress("compose");  // PLD runs that take more than a moment; stderr, terminal only, not with -q
    r = compose(ledger, DecimalTarget{target.given, typed.down, typed.up}, kind, progress.callback());
  }

  Output out;
  out.json["command"] = "compose";
  out.json["accountant"] = r.accountant;
  out.json["accountant_requested"] = to_string(kind);
  out.json["given"] = given_delta ? "delta" : "epsilon";
  out.json["epsilon"] = given_delta ? json_upper(r.epsilon) : json_input(target.value);
  out.json["delta"] = given_delta ? json_input(target.value) : json_upper(r.delta);
  if (r.lower) out.json[given_delta ? "epsilon_lower" : "delta_lower"] = json_lower(*r.lower);
  if (r.order) out.json["order"] = std::isinf(*r.order) ? Json("inf") : Json(*r.order);
  out.json["mechanisms"] = ledger_json(ledger);
  out.json["method"] = r.note;

  out.text = presentation::compose_text(r, given_delta, target.value, global_options().verbose);
  const presentation::TypedDecimalNote note = presentation::typed_decimal_note(ledger, r, DecimalTarget{target.given, typed.down, typed.up});
  out.text += note.line;
  if (note.other_ends) out.json["epsilon_at_other_ends"] = json_lower(*note.other_ends);
  if (o.running || !o.plot.empty() || !o.csv.empty())
    add_running(out, ledger, Target{Target::Given::delta, typed.down}, kind, o, r);
  if (!o.curve.empty()) add_curve(out, ledger, kind, o.curve);
  return out;
}

const Registration compose_registration{"compose", 10, [](CLI::App& root, CLI::App*& sub) -> Runner {
  auto o = std::make_shared<ComposeOptions>();
  sub = root.add_subcommand("compose", "Privacy budget of a composition: epsilon for --delta, or delta for --epsilon");
  add_mechanism_option(sub, o->specs);
  add_ledger_file_option(sub, o->ledgers);
  auto* d = sub->add_option("--delta", o->delta, "Target delta in [0, 1): print the epsilon bound");
  auto* e = sub->add_option("--epsilon", o->epsilon, "Target epsilon >= 0: print the delta bound");
  d->excludes(e);
  sub->add_option("--accountant", o->accountant,
                  "pure | basic | advanced | optimal | rdp | pld | auto (default: auto, the tightest certified "
                  "bound among the accountants that apply)")
      ->capture_default_str();
  sub->add_flag("--running", o->running,
                "Also print the running epsilon after each entry (the privacy odometer of a run), for every "
                "accountant that applies (needs --delta)");
  auto* every = sub->add_option("--every", o->every, "With --running/--csv/--plot: a checkpoint every K steps of the run, whatever "
                                       "the entries' sizes, and after the last (0: after each entry)")
      ->check(integer_in(0, INT64_MAX))
      ->capture_default_str();
  sub->add_option("--csv", o->csv, "With --running: write the running budget as CSV to this file")
      ->check(writable_output_file("--csv"));
  sub->add_option("--plot", o->plot, "Write an SVG of the running epsilon against steps, one line per accountant "
                                     "(needs --delta)")
      ->check(writable_output_file("--plot"));
  sub->add_option("--curve", o->curve, "Write an SVG of the privacy curve epsilon(delta), delta from 1e-14 to 0.1 "
                                       "on a log axis, one line per accountant")
      ->check(writable_output_file("--curve"));
  sub->callback([d, e, every, o] {
    if (d->count() == 0 && e->count() == 0) throw CLI::ValidationError("compose", "one of --delta or --epsilon is required");
    o->every_given = every->count() > 0;
  });
  return [o] { return run_compose(*o); };
}};

}  // namespace
}  // namespace dpl::cli
