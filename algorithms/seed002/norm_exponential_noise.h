// SPDX-License-Identifier: Apache-2.0
// The objective-perturbation noise of private R-ADMM (Zhang, Khalili and Liu, Recycled ADMM, Sec. IV): a vector
// in R^d with density proportional to exp(-alpha ||e||_2), drawn as a norm ~ Gamma(shape d, scale 1/alpha) and a
// uniform direction (Chaudhuri, Monteleoni and Sarwate 2011, Alg. 2).
#pragma once

#include "algorithms/rng/portable_rng.h"

#include <Eigen/Dense>

namespace dpl::algorithms::seed002 {

// Gamma(shape d, scale 1/alpha) for an integer d >= 1: the sum of d independent Exp(rate alpha) draws
// -log(U)/alpha (exact Erlang law; portable: only uniform01()). alpha > 0.
double erlang_norm(int d, double alpha, Rng& rng);

// e = r u with r = erlang_norm(d, alpha) and u = g/||g||, g ~ N(0, I_d): density alpha^d Gamma(d/2) /
// (2 pi^{d/2} Gamma(d)) exp(-alpha ||e||) (Recycled ADMM, Sec. IV). d >= 1, alpha > 0.
Eigen::VectorXd norm_exponential_noise(int d, double alpha, Rng& rng);

}  // namespace dpl::algorithms::seed002
