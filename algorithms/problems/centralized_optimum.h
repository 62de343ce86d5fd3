// SPDX-License-Identifier: Apache-2.0
// The non-private optimum of sum_i f_i, by a centralised solver accurate to 1e-10, for suboptimality.
#pragma once

#include "algorithms/problems/local_objective.h"

#include <Eigen/Dense>

#include <vector>

namespace dpl::algorithms {

struct Optimum {
  Eigen::VectorXd x;
  double value;          // sum_i f_i(x)
  double optimality_gap;  // certificate: gradient-mapping norm (smooth/prox) or duality gap (hinge)
  int iterations;
};

// Smooth losses with l2 only: damped Newton to gradient norm 1e-12 (relative); with l1: accelerated proximal
// gradient (FISTA with restarts) to gradient-mapping norm 1e-11; hinge with l2 > 0 (and any l1): proximal dual
// coordinate ascent (SDCA) to duality gap 1e-12; hinge with l1 only: the linear programme solved exactly by a
// bounded simplex (hinge_l1_simplex.h), certified by its duality gap. Each within a work budget (about 2e9
// multiply-adds: Newton only where its d x d Hessians fit, else FISTA; FISTA and SDCA iterations capped), reporting
// the certificate reached. Throws NotApplicable for hinge without any regulariser.
Optimum solve_centralized(const std::vector<LocalObjective>& locals);

}  // namespace dpl::algorithms
