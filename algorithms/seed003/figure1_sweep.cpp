// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed003/figure1_sweep.h"

#include "accounting/errors.h"
#include "algorithms/run/algorithm_registry.h"
#include "algorithms/seed003/ledger_epsilon.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace dpl::algorithms::seed003 {

namespace {

RunResult run_named(const std::string& name, const std::vector<std::string>& sets, std::uint64_t seed) {
  RunParameters p = RunParameters::from_assignments(sets);
  return find_algorithm(name).run(p, seed);
}

double number(const Json& j) { return j.is_number() ? j.get<double>() : HUGE_VAL; }

struct Method {
  double gamma, clip;
};

// DP-SGD: fixed-size batches of m = n/10, replace-one sensitivity 2C of a clipped gradient, noise std sigma C:
// ratio 2/sigma = 1/nu.
std::vector<std::string> sgd_sets(const std::vector<std::string>& problem, const Method& m, double nu) {
  auto s = problem;
  for (const std::string& x : {std::string("sampling=fixed"), std::string("q=0.1"), std::string("accountant=rdp"),
                               "gamma=" + spec_number(m.gamma), "C=" + spec_number(m.clip), "sigma=" + spec_number(2 * nu)})
    s.push_back(x);
  return s;
}

// ADMM (Algorithm 3 with Algorithm 6's clipping): sensitivity 2C of Clip(x_i - z) + eta/2, std sigma/2: ratio
// 4C/sigma = 1/nu.
std::vector<std::string> admm_sets(const std::vector<std::string>& problem, const Method& m, double nu) {
  auto s = problem;
  for (const std::string& x : {"gamma=" + spec_number(m.gamma), "C=" + spec_number(m.clip),
                               "sigma=" + spec_number(4 * m.clip * nu), std::string("lambda=0.5")})
    s.push_back(x);
  return s;
}

}  // namespace

sweeps::Figure figure1(RunParameters& params, int seeds, const ProgressCallback& progress) {
  const auto K = params.integer("K", 500, 1, 100000);
  const double kappa = params.real("kappa", 0.001, 0, 1e6);
  const bool tune = params.flag("tune", true);
  Method sgd{params.real("sgd_gamma", 1.0, 0, 2, true), params.real("sgd_clip", 0.5, 0, 1e6, true)};
  Method admm{params.real("admm_gamma", 0.5, 0, 1e6, true), params.real("admm_clip", 0.05, 0, 1e6, true)};
  params.reject_unknown();
  if (static_cast<double>(K) * seeds > 50000)
    throw InputError("K x seeds = " + std::to_string(K * seeds) + " is too large: allowed at most 50000 (about "
                     "ten minutes on 2 cores)");
  const std::vector<double> nus{1, 2, 4, 8, 16, 32, 64};  // noise multipliers (noise std / sensitivity)
  const std::vector<std::string> problem{"data=lasso-synthetic", "loss=squared", "l2=0", "l1=" + spec_number(kappa),
                                         "K=" + std::to_string(K), "delta=1e-6"};
  const std::size_t tuning_runs = tune ? 2 * 9 * 2 : 0;
  const double total = static_cast<double>(tuning_runs + nus.size() * static_cast<std::size_t>(seeds));
  double done = 0;
  auto tick = [&](const std::string& what) {
    if (progress) progress(done++ / total, what);
  };
  // App. E: step size and clipping (and ADMM's gamma) by grid search at the smallest budget, on two seeds.
  Json tuning = Json::object();
  if (tune) {
    const double nu = nus.back();
    double best = HUGE_VAL;
    for (double g : {0.3, 1.0, 2.0})
      for (double c : {0.1, 0.5, 2.0}) {
        double v = 0;
        for (std::uint64_t s : {901u, 902u}) {
          tick("tuning DP-SGD");
          v += run_named("dp-sgd", sgd_sets(problem, {g, c}, nu), s).extra["test_objective"].get<double>();
        }
        if (v < best) best = v, sgd = {g, c};
      }
    best = HUGE_VAL;
    for (double g : {0.5, 5.0, 50.0})
      for (double c : {0.01, 0.05, 0.2}) {
        double v = 0;
        for (std::uint64_t s : {901u, 902u}) {
          tick("tuning ADMM");
          v += run_named("admm-federated", admm_sets(problem, {g, c}, nu), s).extra["test_objective"].get<double>();
        }
        if (v < best) best = v, admm = {g, c};
      }
  }
  tuning = {{"tuned", tune},
            {"dp_sgd", {{"gamma", sgd.gamma}, {"clip", sgd.clip}}},
            {"admm", {{"gamma_p", admm.gamma}, {"clip", admm.clip}, {"lambda", 0.5}}}};
  const std::vector<std::string> names{"proximal DP-SGD (certified)", "private ADMM, paper's model (not certified)",
                                       "private ADMM, certified"};
  std::map<std::string, std::vector<double>> eps_mean, obj_mean, obj_sd;
  double optimum = 0, zero = 0;
  for (double nu : nus) {
    std::map<std::string, std::vector<double>> objective, epsilon;
    for (int s = 0; s < seeds; ++s) {
      tick("noise multiplier " + spec_number(nu) + ", seed " + std::to_string(s + 1));
      const auto seed = static_cast<std::uint64_t>(1000 + s);  // the same data for both methods at a seed
      const RunResult g = run_named("dp-sgd", sgd_sets(problem, sgd, nu), seed);
      objective[names[0]].push_back(g.extra["test_objective"].get<double>());
      epsilon[names[0]].push_back(number(g.accounted["epsilon"]));
      const RunResult a = run_named("admm-federated", admm_sets(problem, admm, nu), seed);
      const double obj = a.extra["test_objective"].get<double>();
      objective[names[1]].push_back(obj);
      objective[names[2]].push_back(obj);
      epsilon[names[1]].push_back(number(a.accounted["subsampled_epsilon_not_certified"]));
      epsilon[names[2]].push_back(number(a.accounted["epsilon"]));
      optimum += a.extra["test_objective_at_optimum"].get<double>() / static_cast<double>(seeds * nus.size());
      zero += a.extra["test_objective_zero_model"].get<double>() / static_cast<double>(seeds * nus.size());
    }
    for (const auto& n : names) {
      const auto& v = objective[n];
      double m = 0, sd = 0, e = 0;
      for (double x : v) m += x / static_cast<double>(v.size());
      for (double x : v) sd += (x - m) * (x - m) / std::max<double>(1, static_cast<double>(v.size()) - 1);
      for (double x : epsilon[n]) e += x / static_cast<double>(epsilon[n].size());
      eps_mean[n].push_back(e);
      obj_mean[n].push_back(m);
      obj_sd[n].push_back(std::sqrt(sd));
    }
  }
  sweeps::Figure f;
  f.name = "cyffers2023-fig1";
  f.title = "Cyffers, Bellet and Basu 2023 Fig. 1: private ADMM vs DP-SGD, federated Lasso (kappa " + spec_number(kappa) + ")";
  f.columns = 1;
  sweeps::Panel p;
  p.title = "n 1000, p 64, 10% of the users per round, K = " + std::to_string(K) + " rounds, delta = 1e-6";
  p.x_label = "epsilon (log scale)";
  p.y_label = "test objective (log scale)";
  p.log_x = p.log_y = true;
  for (const auto& n : names) {
    // Points in increasing epsilon (decreasing nu).
    sweeps::Curve c;
    c.name = n;
    c.seeds = seeds;
    c.dashed = n == names[1];
    for (std::size_t i = nus.size(); i-- > 0;) {
      c.x.push_back(eps_mean[n][i]);
      c.mean.push_back(obj_mean[n][i]);
      c.sd.push_back(obj_sd[n][i]);
    }
    p.curves.push_back(c);
    f.summary["curves"][n] = {{"epsilon", c.x}, {"test_objective", c.mean}};
  }
  p.references.push_back({"non-private Lasso optimum", optimum});
  p.references.push_back({"releasing zero", zero});
  f.panels.push_back(p);
  f.summary["tuning"] = tuning;
  f.summary["test_objective_at_optimum"] = optimum;
  f.summary["test_objective_zero_model"] = zero;
  f.notes.push_back("The paper's own synthetic Lasso (App. E's generator; kappa " + spec_number(kappa) +
                    " fixed in advance, not cross-validated on the data); points: noise multipliers 64 .. 1 (each "
                    "method's noise std / its sensitivity); step, clipping and ADMM's gamma tuned at the smallest "
                    "budget as App. E does (DP-SGD gamma " + spec_number(sgd.gamma) + ", C " + spec_number(sgd.clip) +
                    "; ADMM gamma_p " + spec_number(admm.gamma) + ", C " + spec_number(admm.clip) + ", lambda 0.5); " +
                    std::to_string(seeds) + " seeds per point, bands one standard deviation.");
  return f;
}

}  // namespace dpl::algorithms::seed003
