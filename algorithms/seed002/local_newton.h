// SPDX-License-Identifier: Apache-2.0
// The exact primal step of decentralised ADMM (seed 002, eq. (8)/(12)/(28)): per agent, the argmin of the smooth,
// strongly convex C f_i(x) + <lin, x> + quad ||x||^2, by damped Newton to a stated gradient-norm tolerance.
#pragma once

#include "algorithms/problems/local_objective.h"

#include <Eigen/Dense>

namespace dpl::algorithms::seed002 {

// Hessian of f_i = mean loss + (l2/2)||x||^2 for the smooth losses (logistic, squared; Huber's generalised
// Hessian: 1 inside the quadratic zone). Throws NotApplicable for hinge (no Hessian).
Eigen::MatrixXd local_hessian(const LocalObjective& f, const Eigen::VectorXd& x);

struct ArgminResult {
  Eigen::VectorXd x;
  double residual = 0;  // ||C grad f_i(x) + lin + 2 quad x||, the KKT residual at the returned point
  int newton_iterations = 0;
};

// argmin_x C f(x) + <lin, x> + quad ||x||^2 (quad > 0 or l2 > 0), started at `start`: damped Newton with Armijo
// backtracking (Boyd and Vandenberghe 2004, Alg. 9.5), stopped when the gradient norm is <= tol * max(1, ||lin||)
// or stops decreasing (rounding floor), at most 100 iterations. f must have l1 = 0 (InputError otherwise).
ArgminResult solve_admm_argmin(const LocalObjective& f, double C, const Eigen::VectorXd& lin, double quad,
                               const Eigen::VectorXd& start, double tol);

}  // namespace dpl::algorithms::seed002
