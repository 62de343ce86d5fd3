// SPDX-License-Identifier: Apache-2.0
// `dpledger run ALGORITHM`: runs a reference algorithm of the papers and prints utility next to the paper's
// claimed privacy and this tool's accounting of the same run; `--trace` writes every iterate.
#include "accounting/errors.h"
#include "accounting/mechanisms/mechanism_spec.h"
#include "accounting/numeric/decimal.h"
#include "algorithms/run/algorithm_registry.h"
#include "algorithms/run/json_safe.h"
#include "cli/command_registry.h"
#include "cli/option_values.h"
#include "cli/output.h"
#include "cli/output_file.h"
#include "cli/progress.h"
#include "cli/resource_limits.h"
#include "cli/run_plot.h"

#include <cmath>
#include <cstdint>
#include <iomanip>
#include <memory>
#include <sstream>

namespace dpl::cli {
namespace {

struct RunOptions {
  std::string algorithm;
  std::string config;
  std::vector<std::string> sets;
  std::uint64_t seed = 1;
  std::string trace;
  std::string ledger_out;
  std::string canary_scores;
  std::string plot;
  bool list = false;
  bool parameters = false;
};

std::string trace_csv(const algorithms::RunResult& r) {
  std::ostringstream s;
  s << std::setprecision(17);
  const int d = static_cast<int>(r.output.size());
  s << "iteration,kind,agent,objective,consensus_error";
  for (int l = 0; l < d; ++l) s << ",x" << l;
  s << "\n";
  auto rows = [&](const algorithms::TraceStep& t, const Eigen::MatrixXd& m, const char* kind) {
    for (int i = 0; i < m.rows(); ++i) {
      s << t.iteration << "," << kind << "," << i << "," << t.objective << "," << t.consensus_error;
      for (int l = 0; l < m.cols(); ++l) s << "," << m(i, l);
      s << "\n";
    }
  };
  for (const auto& t : r.trace) {
    rows(t, t.states, "state");
    rows(t, t.messages, "message");
  }
  return s.str();
}

Json matrix_json(const Eigen::MatrixXd& m) {
  Json rows = Json::array();
  for (int i = 0; i < m.rows(); ++i) {
    Json row = Json::array();
    for (int l = 0; l < m.cols(); ++l) row.push_back(m(i, l));
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string trace_jsonl(const algorithms::RunResult& r) {
  std::ostringstream s;
  for (const auto& t : r.trace) {
    Json line{{"iteration", t.iteration},
              {"objective", t.objective},
              {"consensus_error", t.consensus_error},
              {"states", matrix_json(t.states)},
              {"messages", matrix_json(t.messages)}};
    s << algorithms::json_safe(line).dump() << "\n";
  }
  return s.str();
}

// The scalar entries of a privacy object as aligned "key  value" lines; the accountant's method (a long citation)
// with --verbose only. Numbers are the JSON's decimals themselves (1e-6, not 1e-06).
void print_privacy(std::ostringstream& t, const std::string& title, const Json& obj) {
  t << title << "\n";
  for (const auto& [key, value] : obj.items()) {
    if (value.is_object() || value.is_array()) continue;
    if (key == "method" && !global_options().verbose) continue;
    t << "  " << std::left << std::setw(28) << key << " ";
    if (value.is_string())
      t << value.get<std::string>();
    else if (value.is_number_float())
      t << format_input(value.get<double>());
    else
      t << value.dump();
    t << "\n";
  }
}

// `--parameters`: every key of the algorithm with its value (defaults, --config and --set applied), its default
// and its allowed values, without running.
Output describe_parameters(const std::string& algorithm, const algorithms::RunParameters& params) {
  Output out;
  out.json["command"] = "run";
  out.json["algorithm"] = algorithm;
  out.json["parameters"] = algorithms::json_safe(params.resolved());
  out.json["defaults"] = algorithms::json_safe(params.defaults());
  out.json["allowed"] = algorithms::json_safe(params.allowed());
  std::ostringstream t;
  t << std::left << std::setw(20) << "key" << std::setw(22) << "value" << std::setw(22) << "default" << "allowed\n";
  for (const auto& [key, value] : params.resolved().items()) {
    auto show = [](const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); };
    t << std::left << std::setw(20) << key << std::setw(22) << show(value) << std::setw(22)
      << show(params.defaults().value(key, Json())) << params.allowed().value(key, std::string()) << "\n";
  }
  out.text = t.str();
  return out;
}

// For --help: every algorithm with its one-line summary and its keys (a describe-only pass: nothing is run).
std::string algorithm_help() {
  std::ostringstream t;
  t << "Algorithms (keys: --set key=value; values, defaults and ranges: dpledger run ALGORITHM --parameters):\n";
  for (const auto& e : algorithms::algorithm_entries()) {
    t << "  " << e.name << "\n      " << e.summary << "\n";
    algorithms::RunParameters p;
    p.set_describe_only(true);
    try {
      (void)e.runner(p, 1, {});
    } catch (const algorithms::ParametersDescribed&) {
    } catch (const std::exception&) {
    }
    std::string keys, line = "      keys:";
    for (const auto& [k, v] : p.defaults().items()) {
      if (line.size() + k.size() + 2 > 110) {
        keys += line + "\n";
        line = "           ";
      }
      line += " " + k;
    }
    t << keys << line << "\n";
  }
  return t.str();
}

// For `run ALGORITHM --help`: that algorithm's keys with their defaults and allowed values (a describe-only pass).
std::string algorithm_keys_help(const std::string& algorithm) {
  const algorithms::AlgorithmEntry* entry = nullptr;
  try {
    entry = &algorithms::find_algorithm(algorithm);
  } catch (const InputError&) {
    return algorithm_help();  // not an algorithm: the list of them
  }
  algorithms::RunParameters p;
  p.set_describe_only(true);
  try {
    (void)entry->runner(p, 1, {});
  } catch (const algorithms::ParametersDescribed&) {
  } catch (const std::exception&) {
  }
  std::ostringstream t;
  t << entry->name << ": " << entry->summary << "\nKeys (--set key=value or --config FILE):\n";
  t << "  " << std::left << std::setw(22) << "key" << std::setw(22) << "default" << "allowed\n";
  for (const auto& [key, value] : p.defaults().items())
    t << "  " << std::left << std::setw(22) << key << std::setw(22)
      << (value.is_string() ? value.get<std::string>() : value.dump()) << p.allowed().value(key, std::string()) << "\n";
  return t.str();
}

Output run_algorithm(const RunOptions& o) {
  Output out;
  out.json["command"] = "run";
  if (o.list) {
    std::ostringstream t;
    Json list = Json::array();
    for (const auto& e : algorithms::algorithm_entries()) {
      t << std::left << std::setw(34) << e.name << e.summary << "\n";
      list.push_back(Json{{"name", e.name}, {"summary", e.summary}});
    }
    out.json["algorithms"] = list;
    out.text = t.str();
    return out;
  }
  if (o.algorithm.empty()) throw InputError("ALGORITHM is required (see `dpledger run --list`)");
  const auto& entry = algorithms::find_algorithm(o.algorithm);
  if (!o.trace.empty() && !o.trace.ends_with(".csv") && !o.trace.ends_with(".jsonl") && !o.trace.ends_with(".json"))
    throw InputError("--trace=" + o.trace + " has an unknown extension: allowed .csv, .jsonl, .json (JSON lines)");
  // --set overrides the config file (merge_config_file keeps keys already set).
  algorithms::RunParameters params = algorithms::RunParameters::from_assignments(o.sets);
  if (!o.config.empty()) params.merge_config_file(o.config);
  if (o.parameters) {
    if (!o.trace.empty()) throw InputError("--trace cannot be used with --parameters (nothing is run)");
    if (!o.ledger_out.empty()) throw InputError("--ledger-out cannot be used with --parameters (nothing is run)");
    if (!o.plot.empty()) throw InputError("--plot cannot be used with --parameters (nothing is run)");
    params.set_describe_only(true);
    try {
      (void)entry.run(params, o.seed);
    } catch (const algorithms::ParametersDescribed&) {
    }
    return describe_parameters(entry.name, params);
  }
  if (!o.ledger_out.empty() && !o.ledger_out.ends_with(".jsonl") && !o.ledger_out.ends_with(".json"))
    throw InputError("--ledger-out=" + o.ledger_out + " has an unknown extension: allowed .jsonl, .json (JSON lines)");
  if (!o.plot.empty() && !o.plot.ends_with(".svg"))
    throw InputError("--plot=" + o.plot + " has an unknown extension: allowed .svg");
  const algorithms::RunResult r = [&] {
    Progress bar("run");  // on stderr, only on a terminal, silenced by -q
    // The algorithms check their estimated work up front (algorithms/run/run_limits.h); the progress they report
    // is also extrapolated against --time-limit, so that a run that cannot finish in time stops early.
    WorkForecast forecast("run " + entry.name, "lower the iterations (K or T), agents, the data size or the dimension");
    return entry.run(params, o.seed, [&bar, &forecast](double fraction, const std::string& detail) {
      if (bar.enabled()) bar.update(fraction, detail);
      forecast.done(fraction);
    });
  }();
  if (!o.ledger_out.empty()) {
    if (r.mechanisms.empty())
      throw InputError("--ledger-out=" + o.ledger_out + ": this run has no mechanism ledger (" +
                       (!r.ledger_not_expressible.empty() ? r.ledger_not_expressible
                        : r.accounted.contains("method") && r.accounted["method"].is_string()
                            ? r.accounted["method"].get<std::string>()
                            : std::string("not a composition of mechanisms")) +
                       "); nothing written");
    std::string lines;
    // Real parameters as the decimals that read back as exactly the values accounted (spec_decimal), so that
    // `compose --ledger` of the file composes the same ledger, never the nearest decimal's (possibly more private) one.
    for (const auto& m : r.mechanisms) {
      Json line = algorithms::json_safe(m);
      if (line.is_object())
        for (auto& [key, value] : line.items())
          if (value.is_number_float() && std::isfinite(value.get<double>()))
            value = json_decimal(spec_decimal(canonical_key(key), value.get<double>()));
      lines += dump_json(line) + "\n";
    }
    stage_output(o.ledger_out, lines);
  }

  if (!o.trace.empty()) stage_output(o.trace, o.trace.ends_with(".csv") ? trace_csv(r) : trace_jsonl(r));
  // The canaries' scores (run dp-sgd --set canaries=N): CSV `score,included` for `dpledger audit --canary-scores`.
  Json run_extra = r.extra;
  std::size_t canary_count = 0;
  if (run_extra.is_object() && run_extra.contains("canary_scores")) {
    canary_count = run_extra["canary_scores"].size();
    if (!o.canary_scores.empty()) {
      std::ostringstream csv;
      csv << std::setprecision(17) << "score,included\n";
      for (const auto& c : run_extra["canary_scores"]) csv << c["score"].get<double>() << "," << c["included"].get<int>() << "\n";
      stage_output(o.canary_scores, csv.str());
      run_extra.erase("canary_scores");
    }
  } else if (!o.canary_scores.empty()) {
    throw InputError("--canary-scores=" + o.canary_scores + ": this run has no canaries (dp-sgd with --set canaries=N has)");
  }
  Json plot_summary;
  if (!o.plot.empty()) {
    const RunPlot plot = run_plot(r);
    stage_output(o.plot, plot.svg);
    plot_summary = plot.summary;
    plot_summary["file"] = o.plot;
  }

  out.json["algorithm"] = r.algorithm;
  out.json["seed"] = o.seed;
  out.json["parameters"] = r.parameters;
  out.json["iterations"] = r.iterations;
  out.json["objective"] = r.objective;
  out.json["optimum"] = r.optimum;
  out.json["suboptimality"] = r.suboptimality;
  out.json["start_objective"] = r.start_objective;
  out.json["zero_model_objective"] = r.baseline_objective;
  out.json["objective_definition"] = r.objective_definition;
  if (r.extra.contains("learning")) out.json["learning"] = r.extra["learning"];
  Json output = Json::array();
  for (int l = 0; l < r.output.size(); ++l) output.push_back(r.output(l));
  out.json["output"] = output;
  out.json["privacy"] = Json{{"claimed", r.claimed}, {"accounted", r.accounted}};
  if (!run_extra.empty()) out.json["extra"] = run_extra;
  if (!o.canary_scores.empty()) out.json["canary_scores"] = o.canary_scores;
  if (!o.trace.empty()) out.json["trace"] = o.trace;
  if (!o.ledger_out.empty()) out.json["ledger_out"] = o.ledger_out;
  if (!o.plot.empty()) out.json["plot"] = plot_summary;
  // Never null for a number (a diverged objective is "inf"), never a throw on a path's raw bytes.
  out.json = algorithms::json_safe(out.json);
  const bool diverged = r.extra.is_object() && r.extra.value("diverged", false);

  std::ostringstream t;
  t << std::setprecision(10);
  t << "algorithm      " << r.algorithm << "   (seed " << o.seed << ")\n";
  t << "iterations     " << r.iterations << "\n";
  t << "objective      " << r.objective << "   (" << r.objective_definition << ")\n";
  t << "  start        " << r.start_objective << "   (the same at the run's starting point)\n";
  t << "  zero model   " << r.baseline_objective << "   (the same at x = 0: a linear model's constant score)\n";
  t << "  optimum      " << r.optimum << "   (non-private, centralised solver)\n";
  t << "suboptimality  " << r.suboptimality << "\n";
  if (r.extra.contains("learning") && r.extra["learning"].contains("verdict")) {
    const Json& l = r.extra["learning"];
    t << "learned?       " << l["verdict"].get<std::string>() << "\n";
    if (l.contains("note")) t << "               " << l["note"].get<std::string>() << "\n";
  }
  if (r.extra.contains("paper_setting") && r.extra["paper_setting"].is_string())
    t << "setting        " << r.extra["paper_setting"].get<std::string>() << "\n";
  if (diverged)
    t << "DIVERGED       the iterates exploded and the run was stopped: no privacy ledger (extra.diverged)\n";
  // The text shows the same values as the JSON (an unbounded epsilon is "inf", never "null").
  print_privacy(t, "privacy claimed by the paper:", out.json["privacy"]["claimed"]);
  print_privacy(t, "privacy accounted by dpledger (certified upper bounds, rounded up):", out.json["privacy"]["accounted"]);
  if (!o.trace.empty()) t << "trace written to " << o.trace << "\n";
  if (!o.canary_scores.empty())
    t << "canary scores written to " << o.canary_scores << " (" << canary_count
      << " canaries; audit them with: dpledger audit --canary-scores " << o.canary_scores << ")\n";
  if (!o.plot.empty()) t << "plot written to " << o.plot << " (utility and running epsilon vs iteration)\n";
  if (!o.ledger_out.empty())
    t << "ledger written to " << o.ledger_out << " (" << r.mechanisms.size()
      << " mechanism entries, JSON lines: replay with compose)\n";
  out.text = t.str();
  return out;
}

const Registration run_registration{"run", 50, [](CLI::App& root, CLI::App*& sub) -> Runner {
  auto o = std::make_shared<RunOptions>();
  sub = root.add_subcommand("run",
                            "Run a reference algorithm of the papers: utility, the paper's claimed privacy, and "
                            "dpledger's accounting of the same run");
  CLI::Option* algorithm =
      sub->add_option("ALGORITHM", o->algorithm, "One of the algorithms listed below (dpledger run --list)");
  sub->add_option("--config", o->config, "File of key = value lines (# comments); --set overrides it");
  sub->add_option("--set", o->sets, "key=value parameter override, repeatable (dpledger run ALGORITHM --help lists its keys)");
  sub->add_option("--seed", o->seed, "Seed of the portable random generator (xoshiro256**), an integer in [0, 2^64)")
      ->check(seed_value())
      ->capture_default_str();
  sub->add_option("--trace", o->trace, "Write every iterate and message: .csv, or .jsonl/.json (JSON lines)")
      ->check(writable_output_file("--trace"));
  sub->add_option("--canary-scores", o->canary_scores,
                  "Write the canaries' scores (dp-sgd --set canaries=N) as CSV score,included, for dpledger audit "
                  "--canary-scores")
      ->check(writable_output_file("--canary-scores"));
  sub->add_option("--ledger-out", o->ledger_out,
                  "Write the mechanism ledger the accounted epsilon composes: .jsonl, one entry per line with the "
                  "keys of the -m specs ({\"mechanism\":\"laplace\",\"b\":...,\"sens\":...,\"steps\":...})")
      ->check(writable_output_file("--ledger-out"));
  sub->add_option("--plot", o->plot,
                  "Write an SVG: utility (suboptimality, log scale) and the running epsilon (accounted on the ledger "
                  "prefix, claimed by the paper's formula) vs iteration")
      ->check(writable_output_file("--plot"));
  sub->add_flag("--list", o->list, "List the algorithms");
  sub->add_flag("--parameters", o->parameters,
                "Print ALGORITHM's keys: value (defaults, --config and --set applied), default and allowed "
                "values; nothing is run");
  // `run --help`: every algorithm and its keys; `run ALGORITHM --help`: that algorithm's keys, defaults and ranges.
  sub->footer([algorithm] {
    return algorithm->results().empty() ? algorithm_help() : algorithm_keys_help(algorithm->results().front());
  });
  return [o] { return run_algorithm(*o); };
}};

}  // namespace
}  // namespace dpl::cli
