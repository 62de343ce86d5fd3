// SPDX-License-Identifier: Apache-2.0
// One agent's update of Wang and Nedic's Algorithm 1 (seed 001, eq. (4)), shared by the network run
// (wang_nedic.h) and the coupled-observation replay (coupled_audit.h) so that a replay reproduces the run bit for
// bit.
#pragma once

#include <Eigen/Dense>

#include <vector>

namespace dpl::algorithms::seed001 {

// Eq. (4) of Wang-Nedic (exact): x_i^{k+1} = x_i^k + Sum_{j in N_i} gamma^k w_ij (y_j^k - x_i^k) - lambda^k g,
// with y_j^k = x_j^k + zeta_j^k the neighbours' noisy messages (rows of `received`, in the order of `weights`),
// x_i^k agent i's own UN-noised state and g = grad f_i(x_i^k) (possibly clipped).
Eigen::VectorXd algorithm1_step(const Eigen::VectorXd& x_i, const std::vector<double>& weights,
                                const Eigen::MatrixXd& received, double gamma, double lambda,
                                const Eigen::VectorXd& gradient);

// Clips g to l1 norm at most C (g C/||g||_1 when ||g||_1 > C), so that Assumption 4 (||grad f_i||_1 <= C) holds.
Eigen::VectorXd clip_l1(const Eigen::VectorXd& g, double C);

}  // namespace dpl::algorithms::seed001
