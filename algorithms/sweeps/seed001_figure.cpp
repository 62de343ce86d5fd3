// SPDX-License-Identifier: Apache-2.0
#include "algorithms/sweeps/seed001_figure.h"

#include "accounting/errors.h"
#include "algorithms/baselines/pdop.h"
#include "algorithms/graphs/graph.h"
#include "algorithms/run/problem_setup.h"
#include "algorithms/seed001/claimed_epsilon.h"
#include "algorithms/seed001/wang_nedic.h"

#include <sstream>

namespace dpl::algorithms::sweeps {

namespace {

std::vector<double> as_doubles(const std::vector<std::int64_t>& v) { return std::vector<double>(v.begin(), v.end()); }

}  // namespace

Figure seed001_figure1(RunParameters& params, int seeds, const ProgressCallback& progress) {
  const auto K = params.integer("K", 10000, 10, 1000000);
  const double C = params.real("C", 3.0, 0, 1e6, true);
  const double q = params.real("pdop_q", 0.9, 0, 1, true, true);
  const double p = params.real("pdop_p", 0.95, 0, 1, true, true);
  params.reject_unknown();
  if (!(q < p)) throw InputError("pdop_q=" + figure_number(q) + " must be below pdop_p=" + figure_number(p) + " (Huang et al.)");
  seed001::WangNedicConfig cfg;
  cfg.lambda = seed001::ratio_schedule(6 * 0.02, 0.1, 1);  // the paper's steps on its objective (wang_nedic.cpp)
  cfg.C = C;
  cfg.iterations = K;
  cfg.trace_every = 0;
  cfg.audit_agent = -1;
  const double claimed = hi_up(seed001::paper_epsilon(cfg.lambda, cfg.nu, C, cfg.k0, seed001::kInfiniteHorizon).epsilon);
  baselines::PdopConfig pdop;
  pdop.c = cfg.lambda.at(1);
  pdop.q = q;
  pdop.p = p;
  pdop.C = C;
  pdop.iterations = K;
  pdop.c_p = baselines::pdop_noise_scale_for(claimed, pdop);
  std::vector<CurveAverage> curves;
  double zero = 0;
  for (int s = 1; s <= seeds; ++s) {
    if (progress) progress(static_cast<double>(s - 1) / seeds, "seed " + std::to_string(s));
    RunParameters problem_params = RunParameters::from_assignments(
        {"data=synthetic", "loss=squared", "agents=5", "per_agent=3", "synthetic_rows=15", "synthetic_dim=2",
         "l2=0.1", "graph=random", "edges=6"});
    Rng rng(static_cast<std::uint64_t>(s));
    const DistributedProblem problem = setup_problem(problem_params, ProblemDefaults{}, rng);
    const Eigen::MatrixXd W = negative_laplacian_weights(problem.graph);
    Eigen::MatrixXd x0(problem.agents(), problem.dim());
    for (int i = 0; i < x0.rows(); ++i)
      for (int l = 0; l < x0.cols(); ++l) x0(i, l) = rng.gaussian();
    zero += problem.optimum.x.norm() * problem.agents() / seeds;
    Rng a_rng = rng.split(), d_rng = rng.split(), p_rng = rng.split();
    const auto alg = seed001::run_algorithm1(problem, W, cfg, x0, a_rng);
    const auto dgd = seed001::run_dgd_baseline(problem, W, cfg, x0, d_rng);
    const auto pd = baselines::run_pdop(problem, pdop, x0, p_rng);
    if (curves.empty()) {
      curves.emplace_back("Algorithm 1 (weakened coupling)", as_doubles(alg.error_iterations));
      curves.emplace_back("DGD [3], same noise", as_doubles(dgd.error_iterations));
      curves.emplace_back("PDOP [12], same privacy budget", as_doubles(pd.iterations));
    }
    curves[0].add(alg.optimality_error);
    curves[1].add(dgd.optimality_error);
    curves[2].add(pd.optimality_error);
  }
  Figure f;
  f.name = "wang2022-fig1";
  f.title = "Wang and Nedić 2022 Fig. 1: Algorithm 1 vs DGD (same noise) and PDOP (same privacy budget)";
  f.columns = 1;
  Panel panel;
  panel.title = "optimisation error vs iteration (5 sensors, theta in R^2)";
  panel.x_label = "iteration k (log scale)";
  panel.y_label = "sum_i ||x_i - theta*|| (log scale)";
  panel.log_x = panel.log_y = true;
  for (std::size_t k = 0; k < curves.size(); ++k) panel.curves.push_back(curves[k].curve(k > 0));
  panel.references.push_back({"the zero estimate", zero});
  f.panels.push_back(panel);
  for (const auto& c : panel.curves) f.summary["final_error"][c.name] = c.mean.back();
  f.summary["claimed_epsilon_infinite_horizon"] = claimed;
  f.summary["pdop_noise_scale_c_p"] = pdop.c_p;
  f.notes.push_back("The paper's Sec. VI problem and schedules (lambda 0.12/(1 + 0.1k) on this problem's objective, "
                    "gamma 1/(1 + 0.1 k^0.9), Laplace nu 1 + 0.1 k^0.3, gradients clipped to l1 norm C = " + figure_number(C) +
                    "); PDOP's budget 2 C c p/(c_p (p - q)) set to Algorithm 1's claimed eps " + figure_number(claimed) +
                    " (Theorem 2, infinite horizon; c = 0.12, q = " + figure_number(q) + ", p = " + figure_number(p) + "); " +
                    std::to_string(seeds) + " seeds (data, graph, start, noise), bands one standard deviation.");
  return f;
}

}  // namespace dpl::algorithms::sweeps
