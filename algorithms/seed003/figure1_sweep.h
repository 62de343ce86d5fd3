// Seed 003 Figure 1 (App. E): private ADMM versus proximal DP-SGD on the Lasso (synthetic n = 1000, p = 64),
// federated with 10% user sampling, test objective against epsilon (delta 1e-6), mean and std over seeds.
// Both methods get the same per-round noise-to-sensitivity ratio 1/nu for each nu of a grid, the same K and the
// same fixed-size sampling (m = n/10 without replacement, replace-one), so their subsampled-Gaussian epsilons
// coincide; ADMM's certified epsilon (its users' own participations, see private_admm.h) is reported as a third
// curve.
#pragma once

#include "accounting/progress_callback.h"

#include <Eigen/Dense>

#include <cstdint>
#include <string>
#include <vector>

namespace dpl::algorithms::seed003 {

struct Figure1Config {
  int seeds = 10;
  std::int64_t K = 500;
  std::vector<double> nu{1, 2, 4, 8, 16, 32, 64};  // noise multipliers (noise std / sensitivity)
  double kappa = 0.01;
  double admm_gamma = 0.5, admm_clip = 0.05;  // prox step gamma_p and clipping of x_i - z
  double sgd_gamma = 1.0, sgd_clip = 0.5;     // step (<= 2/beta = 2) and gradient clipping
};

struct Figure1Row {
  std::string method;  // "dp-sgd", "admm (subsampled, paper's model)", "admm (certified)"
  double nu = 0;
  double epsilon = 0;  // mean over seeds (the same for every seed except the certified ADMM)
  double mean = 0, sd = 0;  // test objective over seeds
  double optimum = 0;       // mean over seeds of the test objective at the non-private Lasso solution
  bool certified = true;
};

// Throws InputError for seeds outside [1, 100], K outside [1, 100000], an empty nu grid. `progress` (optional) is
// told the fraction of (nu, seed) pairs done.
std::vector<Figure1Row> run_figure1(const Figure1Config& config, const ProgressCallback& progress = {});
std::string figure1_csv(const std::vector<Figure1Row>& rows);
// Log-scale y (test objective), log-scale x (epsilon), error bars of one std, a legend.
std::string figure1_svg(const std::vector<Figure1Row>& rows);

}  // namespace dpl::algorithms::seed003
