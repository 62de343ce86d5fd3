// SPDX-License-Identifier: Apache-2.0
// The empirical-risk problem of seed 003 (Cyffers, Bellet and Basu, "From Noisy Fixed-Point Iterations to Private
// ADMM"): F(x) = (1/n) sum_i loss(b_i, <a_i, x>) + r(x), r(x) = (l2/2)||x||^2 + l1 ||x||_1, one record per user
// (the paper's experiments). Records live in a DECLARED domain (||a_i|| <= radius): rows outside are projected into it at set-up, so every sensitivity below follows from the
// declared constants and never from the data.
#pragma once

#include "algorithms/data/dataset.h"
#include "algorithms/problems/local_objective.h"
#include "algorithms/run/run_parameters.h"

#include <Eigen/Dense>

#include <string>

namespace dpl::algorithms::seed003 {

struct ErmProblem {
  Dataset train, test;
  LossKind loss = LossKind::logistic;  // logistic (labels +-1) or squared (Lasso)
  Regularizer reg;
  double radius = 1;       // declared bound on ||a_i||
  Eigen::VectorXd optimum;  // argmin F
  double optimum_value = 0;
  std::string optimum_method;

  int records() const { return train.rows(); }
  int dim() const { return train.dim(); }
  // F on the training set, and the same objective on the test set.
  double objective(const Eigen::VectorXd& x) const;
  double test_objective(const Eigen::VectorXd& x) const;
  // Per-record loss gradient (no regulariser).
  Eigen::VectorXd record_gradient(int i, const Eigen::VectorXd& x) const;
  // Mean loss gradient plus the l2 part of r (the smooth part of F).
  Eigen::VectorXd smooth_gradient(const Eigen::VectorXd& x) const;
  // Lipschitz constant of one record's loss over the declared domain: logistic radius (|loss'| <= 1); squared
  // loss HUGE_VAL (unbounded; use clipping).
  double record_lipschitz() const;
  // Smoothness of one record's loss over the domain: logistic radius^2/4, squared radius^2.
  double record_smoothness() const;
  // prox_{t loss_i}(v) = argmin_x loss(b_i, <a_i, x>) + ||x - v||^2/(2t): squared loss in closed form
  // (Sherman-Morrison), logistic by a safeguarded scalar Newton on s = b_i <a_i, x> (to 1e-15 relative).
  Eigen::VectorXd record_prox(int i, const Eigen::VectorXd& v, double t) const;
};

struct ErmDefaults {
  std::string data = "breast_cancer";  // shipped name, a file, or "lasso-synthetic"
  std::string loss = "logistic";
  double l2 = 1e-2;
  double l1 = 0;
  int rows = 1000, dim = 64;  // lasso-synthetic
};

// Declared reads: data, loss, l2, l1, radius, rows, dim, test_rows. Logistic data go through
// preprocess() (unit rows); the test set of a file is the same data (none held out), the synthetic test set is a
// fresh draw of test_rows rows.
ErmProblem setup_erm(RunParameters& params, const ErmDefaults& defaults, Rng& rng);

// End-to-end audits' replace-one canary (audit_probe.h): a copy of `p` whose record 0 is the feature row
// radius e_1 (a corner of the declared domain) with label +1 on D (`on_d`) and -1 on D'. Its loss gradients on D
// and D' point in opposite directions along e_1, so its clipped contributions differ by up to twice the clipping
// bound: the worst case of the replace-one sensitivity the ledgers compose.
ErmProblem with_canary_record(const ErmProblem& p, bool on_d);

// Seed 003 App. E's generator: rows uniform on the unit sphere of R^dim, an 8-sparse truth with entries
// U(-1, 1) on a random support, b = A x + N(0, noise_sd^2) (noise_sd 0.1: the "N(0, 0.01)" read as variance).
Dataset lasso_synthetic(int rows, int dim, const Eigen::VectorXd& truth, double noise_sd, Rng& rng);
Eigen::VectorXd sparse_truth(int dim, int support, Rng& rng);

}  // namespace dpl::algorithms::seed003
