// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed001/algorithm1_step.h"

namespace dpl::algorithms::seed001 {

// Eq. (4) of Wang-Nedic, as printed (exact).
Eigen::VectorXd algorithm1_step(const Eigen::VectorXd& x_i, const std::vector<double>& weights,
                                const Eigen::MatrixXd& received, double gamma, double lambda,
                                const Eigen::VectorXd& gradient) {
  Eigen::VectorXd coupling = Eigen::VectorXd::Zero(x_i.size());
  for (std::size_t j = 0; j < weights.size(); ++j)
    coupling += weights[j] * (received.row(static_cast<Eigen::Index>(j)).transpose() - x_i);
  return x_i + gamma * coupling - lambda * gradient;
}

Eigen::VectorXd clip_l1(const Eigen::VectorXd& g, double C) {
  const double n = g.lpNorm<1>();
  return n > C ? Eigen::VectorXd(g * (C / n)) : g;
}

}  // namespace dpl::algorithms::seed001
