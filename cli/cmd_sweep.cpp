// SPDX-License-Identifier: Apache-2.0
// `dpledger sweep FIGURE`: regenerates a main experimental figure of one of the papers by a parameter sweep over
// seeds (algorithms/sweeps/): a table of the final values on stdout, the curves as CSV (`--csv`) and the figure as
// SVG (`--svg`: mean over seeds with one-standard-deviation bands); `--list` names every figure.
#include "accounting/errors.h"
#include "algorithms/run/json_safe.h"
#include "algorithms/sweeps/figure_registry.h"
#include "cli/command_registry.h"
#include "cli/option_values.h"
#include "cli/output_file.h"
#include "cli/progress.h"
#include "cli/resource_limits.h"
#include "cli/sweep_plot.h"

#include <iomanip>
#include <memory>
#include <sstream>

namespace dpl::cli {
namespace {

struct SweepOptions {
  std::string figure, csv, svg;
  std::vector<std::string> sets;
  int seeds = -1;  // -1: the figure's default
  std::int64_t K = 0;  // cyffers2023-fig1's rounds (same as --set K=...)
  bool list = false, parameters = false;
};

// Every figure with its summary and its keys (from a describe-only pass of its runner: nothing is run).
std::string figure_list(bool with_keys) {
  std::ostringstream t;
  for (const auto& e : algorithms::sweeps::figure_entries()) {
    t << "  " << std::left << std::setw(18) << e.name << e.summary << " (" << e.default_seeds << " seeds)\n";
    if (!with_keys) continue;
    algorithms::RunParameters p;
    p.set_describe_only(true);
    try {
      (void)e.runner(p, 1, {});
    } catch (const algorithms::ParametersDescribed&) {
    }
    std::string keys;
    for (const auto& [k, v] : p.defaults().items())
      keys += (keys.empty() ? "" : ", ") + k + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
    t << "  " << std::setw(18) << "" << "keys: " << (keys.empty() ? "(none)" : keys) << "\n";
  }
  return t.str();
}

Output run_sweep(const SweepOptions& o) {
  Output out;
  out.json["command"] = "sweep";
  if (o.list) {
    Json list = Json::array();
    for (const auto& e : algorithms::sweeps::figure_entries())
      list.push_back(Json{{"name", e.name}, {"paper", e.paper}, {"summary", e.summary}, {"seeds", e.default_seeds}});
    out.json["figures"] = list;
    out.text = figure_list(false);
    return out;
  }
  if (o.figure.empty()) throw InputError("FIGURE is required (see `dpledger sweep --list`)");
  const auto& entry = algorithms::sweeps::find_figure(o.figure);
  if (!o.csv.empty() && !o.csv.ends_with(".csv")) throw InputError("--csv=" + o.csv + " has an unknown extension: allowed .csv");
  if (!o.svg.empty() && !o.svg.ends_with(".svg")) throw InputError("--svg=" + o.svg + " has an unknown extension: allowed .svg");
  const int seeds = o.seeds == -1 ? entry.default_seeds : o.seeds;
  if (seeds < 1 || seeds > 100) throw InputError("--seeds=" + std::to_string(seeds) + " is out of range: allowed integers [1, 100]");
  std::vector<std::string> sets = o.sets;
  if (o.K != 0) sets.push_back("K=" + std::to_string(o.K));
  algorithms::RunParameters params = algorithms::RunParameters::from_assignments(sets);
  if (o.parameters) {
    params.set_describe_only(true);
    try {
      (void)entry.runner(params, seeds, {});
    } catch (const algorithms::ParametersDescribed&) {
    }
    out.json["figure"] = entry.name;
    out.json["parameters"] = algorithms::json_safe(params.resolved());
    out.json["allowed"] = algorithms::json_safe(params.allowed());
    std::ostringstream t;
    for (const auto& [k, v] : params.resolved().items())
      t << std::left << std::setw(16) << k << std::setw(20) << (v.is_string() ? v.get<std::string>() : v.dump())
        << params.allowed().value(k, std::string()) << "\n";
    out.text = t.str();
    return out;
  }
  algorithms::sweeps::Figure f;
  {
    Progress bar("sweep");
    const std::string work = "sweep " + entry.name + " with --seeds " + std::to_string(seeds);
    WorkForecast forecast(work, "lower --seeds (or the figure's sizes, see --parameters)");
    f = entry.runner(params, seeds, [&bar, &forecast](double fraction, const std::string& detail) {
      if (bar.enabled()) bar.update(fraction, detail);
      forecast.done(fraction);
    });
  }
  if (!o.csv.empty()) stage_output(o.csv, algorithms::sweeps::figure_csv(f));
  if (!o.svg.empty()) stage_output(o.svg, sweep_svg(f));
  out.json["figure"] = entry.name;
  out.json["paper"] = entry.paper;
  out.json["title"] = f.title;
  out.json["seeds"] = seeds;
  out.json["parameters"] = params.resolved();
  Json panels = Json::array();
  std::ostringstream t;
  t << f.title << "\n";
  for (const auto& p : f.panels) {
    Json curves = Json::array();
    t << "\n" << p.title << "   (" << p.y_label << " at the last " << p.x_label << "; mean +- sd over seeds)\n";
    for (const auto& c : p.curves) {
      curves.push_back(Json{{"name", c.name}, {"x", c.x}, {"mean", c.mean}, {"sd", c.sd}, {"seeds", c.seeds}});
      if (c.mean.empty()) continue;
      t << "  " << std::left << std::setw(64) << c.name << std::setprecision(6) << c.mean.back();
      if (c.seeds > 1) t << " +- " << c.sd.back();
      t << "\n";
    }
    for (const auto& r : p.references) t << "  " << std::left << std::setw(64) << ("(" + r.label + ")") << r.y << "\n";
    Json refs = Json::array();
    for (const auto& r : p.references) refs.push_back(Json{{"label", r.label}, {"y", r.y}});
    panels.push_back(Json{{"title", p.title}, {"x_label", p.x_label}, {"y_label", p.y_label}, {"curves", curves},
                          {"references", refs}});
  }
  for (const auto& n : f.notes) t << "\n" << n;
  t << "\n";
  if (!o.csv.empty()) t << "curves written to " << o.csv << "\n";
  if (!o.svg.empty()) t << "figure written to " << o.svg << "\n";
  out.json["panels"] = panels;
  out.json["notes"] = f.notes;
  out.json["summary"] = f.summary;
  if (!o.csv.empty()) out.json["csv"] = o.csv;
  if (!o.svg.empty()) out.json["svg"] = o.svg;
  out.json = algorithms::json_safe(out.json);
  out.text = t.str();
  return out;
}

const Registration sweep_registration{"sweep", 70, [](CLI::App& root, CLI::App*& sub) -> Runner {
  auto o = std::make_shared<SweepOptions>();
  sub = root.add_subcommand("sweep", "Regenerate a paper figure by a sweep over seeds: CSV and SVG (mean, one-sd "
                                     "bands); --list names the figures");
  sub->add_option("FIGURE", o->figure, "A figure name from --list, e.g. liu2023-fig1");
  sub->add_option("--seeds", o->seeds, "Seeds per curve, in [1, 100] (default: the figure's, see --list)")
      ->check(integer_in(1, 100));
  sub->add_option("--set", o->sets, "key=value figure option, repeatable (see --parameters and the list below)");
  sub->add_option("--K", o->K, "Rounds of cyffers2023-fig1's methods, in [1, 100000] (same as --set K=...)")
      ->check(integer_in(1, 100000));
  sub->add_option("--csv", o->csv, "Write the curves: panel,curve,x,mean,sd,seeds (.csv)")
      ->check(writable_output_file());
  sub->add_option("--svg", o->svg, "Write the figure (.svg)")
      ->check(writable_output_file());
  sub->add_flag("--list", o->list, "List the figures");
  sub->add_flag("--parameters", o->parameters, "Print FIGURE's keys with their values and allowed values; run nothing");
  sub->footer([] { return "Figures (name, what, default seeds; keys with defaults):\n" + figure_list(true); });
  return [o] { return run_sweep(*o); };
}};

}  // namespace
}  // namespace dpl::cli
