// SPDX-License-Identifier: Apache-2.0
// `dpledger consensus`: the consensus decay of products of random stochastic matrices against their fixed
// (expected) counterparts, the experiment of seed 000's Figs. 3-1 and 3-2 (Sec. 3.3), with log-linear fits.
#include "accounting/errors.h"
#include "algorithms/graphs/graph.h"
#include "algorithms/rng/portable_rng.h"
#include "algorithms/seed000/random_stochastic_matrices.h"
#include "cli/command_registry.h"
#include "cli/option_values.h"
#include "cli/output_file.h"
#include "cli/resource_limits.h"

#include <cstdint>
#include <iomanip>
#include <memory>
#include <sstream>

namespace dpl::cli {
namespace {

struct ConsensusOptions {
  std::string model = "fig3-1";
  std::string graph = "random";
  int agents = 10;
  int edges = 20;
  int k_max = 10;
  int draws = 300;
  std::uint64_t seed = 1;
  std::string csv;
};

Json fit_json(const algorithms::LogLinearFit& f) {
  return Json{{"slope", f.slope}, {"intercept", f.intercept}, {"r_squared", f.r_squared}};
}

Output run_consensus(const ConsensusOptions& o) {
  using algorithms::StochasticMatrixModel;
  if (o.agents < 2 || o.agents > 1000)
    throw InputError("--agents=" + std::to_string(o.agents) + " is out of range: allowed integers [2, 1000]");
  if (o.k_max < 2 || o.k_max > 1000)
    throw InputError("--K=" + std::to_string(o.k_max) + " is out of range: allowed integers [2, 1000]");
  if (o.draws < 1 || o.draws > 1000000)
    throw InputError("--draws=" + std::to_string(o.draws) + " is out of range: allowed integers [1, 1000000]");
  // Each draw multiplies K dense N x N matrices (N^3 multiply-adds each; about 0.17 ns apiece measured): the
  // whole Monte Carlo is checked against --time-limit before it starts (1000 agents took minutes).
  const double n3 = static_cast<double>(o.agents) * o.agents * o.agents;
  require_time_within_limit(2e-10 * n3 * o.k_max * (o.draws + 1.0),
                            "consensus with " + std::to_string(o.agents) + " agents, K=" + std::to_string(o.k_max) +
                                " and " + std::to_string(o.draws) + " draws",
                            "lower --agents (the cost grows as its cube), --K or --draws");
  const StochasticMatrixModel model =
      o.model == "fig3-1" ? StochasticMatrixModel::self_weight : StochasticMatrixModel::pair_weight;
  algorithms::Rng rng(o.seed);
  const algorithms::Graph g = algorithms::make_graph(o.graph, o.agents, o.edges, rng);
  const std::vector<double> random = algorithms::consensus_decay(g, model, true, o.k_max, o.draws, rng);
  const std::vector<double> fixed = algorithms::consensus_decay(g, model, false, o.k_max, o.draws, rng);
  const auto fit_r = algorithms::fit_log_linear(random), fit_f = algorithms::fit_log_linear(fixed);

  std::ostringstream csv;
  csv << std::setprecision(17) << "K,random,fixed\n";
  for (int k = 0; k < o.k_max; ++k) csv << k + 1 << "," << random[k] << "," << fixed[k] << "\n";
  if (!o.csv.empty()) stage_output(o.csv, csv.str());

  Output out;
  out.json["command"] = "consensus";
  out.json["model"] = o.model;
  out.json["graph"] = o.graph;
  out.json["agents"] = o.agents;
  out.json["edges"] = static_cast<int>(g.edges.size());
  out.json["K"] = o.k_max;
  out.json["draws"] = o.draws;
  out.json["seed"] = o.seed;
  out.json["random"] = random;
  out.json["fixed"] = fixed;
  out.json["fit_random"] = fit_json(fit_r);
  out.json["fit_fixed"] = fit_json(fit_f);
  if (!o.csv.empty()) out.json["csv"] = o.csv;

  std::ostringstream t;
  t << "mean_j E phi((W_K ... W_1)(:, j)), " << (o.model == "fig3-1" ? "Fig. 3-1" : "Fig. 3-2") << " model, "
    << o.agents << " agents, " << g.edges.size() << " edges, " << o.draws << " draws\n";
  t << std::left << std::setw(6) << "K" << std::setw(22) << "random (R)" << std::setw(22) << "fixed (F)" << "R/F\n";
  t << std::setprecision(10);
  for (int k = 0; k < o.k_max; ++k)
    t << std::left << std::setw(6) << k + 1 << std::setw(22) << random[k] << std::setw(22) << fixed[k]
      << (fixed[k] > 0 ? random[k] / fixed[k] : 0.0) << "\n";
  t << "log-linear fit: random slope " << fit_r.slope << " (R^2 " << fit_r.r_squared << "), fixed slope " << fit_f.slope
    << " (R^2 " << fit_f.r_squared << ")\n";
  out.text = t.str();
  return out;
}

const Registration consensus_registration{"consensus", 65, [](CLI::App& root, CLI::App*& sub) -> Runner {
  auto o = std::make_shared<ConsensusOptions>();
  sub = root.add_subcommand("consensus",
                            "Consensus decay of products of random stochastic matrices vs their expectation "
                            "(Xiao 2019 Sec. 3.3, Figs. 3-1 and 3-2)");
  sub->add_option("--model", o->model, "fig3-1 (W(i,i) = r, (1-r)/d_i to neighbours) or fig3-2 (two random "
                                       "entries of the closed neighbourhood, factor-2 reading)")
      ->check(CLI::IsMember({"fig3-1", "fig3-2"}))
      ->capture_default_str();
  sub->add_option("--graph", o->graph, "complete | ring | random | erdos-renyi")
      ->check(CLI::IsMember({"complete", "ring", "random", "erdos-renyi"}))
      ->capture_default_str();
  sub->add_option("--agents", o->agents, "Number of nodes N, in [2, 1000]")
      ->check(integer_in(2, 1000))->capture_default_str();
  sub->add_option("--edges", o->edges, "Number of edges |E| (random: N-1 to N(N-1)/2)")
      ->check(integer_in(1, 499500))->capture_default_str();
  sub->add_option("--K", o->k_max, "Largest product length K, in [2, 1000]")
      ->check(integer_in(2, 1000))->capture_default_str();
  sub->add_option("--draws", o->draws, "Monte Carlo draws of the random sequence, in [1, 1e6]")
      ->check(integer_in(1, 1000000))->capture_default_str();
  sub->add_option("--seed", o->seed, "Seed of the portable random generator")
      ->check(seed_value())
      ->capture_default_str();
  sub->add_option("--csv", o->csv, "Write K,random,fixed")
      ->check(writable_output_file());
  return [o] { return run_consensus(*o); };
}};

}  // namespace
}  // namespace dpl::cli
