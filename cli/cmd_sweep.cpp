// `dpledger sweep`: regenerates seed 003's Figure 1 (private ADMM versus proximal DP-SGD on the Lasso, federated,
// 10% user sampling, test objective against epsilon, mean and std over seeds) as CSV and SVG.
#include "accounting/errors.h"
#include "algorithms/seed003/figure1_sweep.h"
#include "cli/command_registry.h"
#include "cli/option_values.h"
#include "cli/output_file.h"
#include "cli/progress.h"
#include "cli/resource_limits.h"

#include <iomanip>
#include <memory>
#include <sstream>

namespace dpl::cli {
namespace {

struct SweepOptions {
  std::string figure = "seed003-figure1", csv, svg;
  int seeds = 10;
  std::int64_t K = 500;
};

Output run_sweep(const SweepOptions& o) {
  if (o.figure != "seed003-figure1") throw InputError("FIGURE=" + o.figure + " is not known: allowed seed003-figure1");
  algorithms::seed003::Figure1Config c;
  c.seeds = o.seeds;
  c.K = o.K;
  std::vector<algorithms::seed003::Figure1Row> rows;
  // About 1.5 ms of CPU per round of one seed (the default 10 x 500 takes 7.3 s on the reference machine):
  // checked against --time-limit before the first run.
  require_time_within_limit(1.5e-3 * static_cast<double>(o.seeds) * static_cast<double>(o.K),
                            "sweep " + o.figure + " with --seeds " + std::to_string(o.seeds) + " and --K " + std::to_string(o.K),
                            "lower --seeds or --K");
  {
    Progress bar("sweep");
    WorkForecast forecast("sweep " + o.figure + " with --seeds " + std::to_string(o.seeds) + " and --K " + std::to_string(o.K),
                          "lower --seeds or --K");
    rows = algorithms::seed003::run_figure1(c, [&bar, &forecast](double fraction, const std::string& detail) {
      bar.update(fraction, detail);
      forecast.done(fraction);
    });
  }
  if (!o.csv.empty()) stage_output(o.csv, algorithms::seed003::figure1_csv(rows));
  if (!o.svg.empty()) stage_output(o.svg, algorithms::seed003::figure1_svg(rows));
  Output out;
  out.json["command"] = "sweep";
  out.json["figure"] = o.figure;
  out.json["seeds"] = o.seeds;
  out.json["K"] = o.K;
  Json list = Json::array();
  std::ostringstream t;
  t << std::left << std::setw(36) << "method" << std::setw(8) << "nu" << std::setw(14) << "epsilon" << std::setw(11)
    << "certified" << "test objective (mean +- sd)\n";
  for (const auto& r : rows) {
    list.push_back(Json{{"method", r.method}, {"noise_multiplier", r.nu}, {"epsilon", r.epsilon},
                        {"certified", r.certified}, {"test_objective_mean", r.mean}, {"test_objective_sd", r.sd},
                        {"test_objective_at_optimum", r.optimum}});
    t << std::left << std::setw(36) << r.method << std::setw(8) << r.nu << std::setw(14) << std::setprecision(6)
      << r.epsilon << std::setw(11) << (r.certified ? "yes" : "no") << r.mean << " +- " << r.sd << "\n";
  }
  out.json["rows"] = list;
  if (!o.csv.empty()) out.json["csv"] = o.csv;
  if (!o.svg.empty()) out.json["svg"] = o.svg;
  out.text = t.str();
  return out;
}

const Registration registration{"sweep", 70, [](CLI::App& root, CLI::App*& sub) -> Runner {
  auto o = std::make_shared<SweepOptions>();
  sub = root.add_subcommand("sweep", "Regenerate a paper figure by a parameter sweep: seed003-figure1 (private ADMM vs "
                                     "proximal DP-SGD on the Lasso, federated, test objective vs epsilon)");
  sub->add_option("FIGURE", o->figure, "seed003-figure1")->capture_default_str();
  sub->add_option("--csv", o->csv, "Write the rows (method, noise multiplier, epsilon, mean, sd) as CSV")
      ->check(writable_output_file());
  sub->add_option("--svg", o->svg, "Write the plot as SVG")
      ->check(writable_output_file());
  sub->add_option("--seeds", o->seeds, "Seeds per point, in [1, 100]")
      ->check(integer_in(1, 100))->capture_default_str();
  sub->add_option("--K", o->K, "Rounds of both methods, in [1, 100000]")
      ->check(integer_in(1, 100000))->capture_default_str();
  return [o] { return run_sweep(*o); };
}};

}  // namespace
}  // namespace dpl::cli
