// SPDX-License-Identifier: Apache-2.0
// Losses and regularisers of the distributed problems: f_i(x) = (1/b_i) sum_j loss(y_j, <z_j, x>) + reg(x),
// with gradients (subgradients for hinge and l1), prox operators and the constants the papers' theorems use.
#pragma once

#include "algorithms/data/dataset.h"

#include <Eigen/Dense>

#include <string>

namespace dpl::algorithms {

enum class LossKind { logistic, hinge, squared, huber };
// Parses "logistic" | "hinge" | "squared" | "huber"; throws InputError naming `option`.
LossKind parse_loss(const std::string& option, const std::string& name);
std::string to_string(LossKind k);

struct Regularizer {
  double l2 = 0;  // (l2/2) ||x||^2
  double l1 = 0;  // l1 ||x||_1   (elastic net when both > 0)
  double value(const Eigen::VectorXd& x) const;
  // Gradient of the smooth part only (l2 x).
  Eigen::VectorXd smooth_gradient(const Eigen::VectorXd& x) const;
  // prox_{t reg}(v) = argmin_x reg(x) + ||x - v||^2/(2t): soft-threshold then shrink by 1/(1 + t l2).
  Eigen::VectorXd prox(const Eigen::VectorXd& v, double t) const;
};

// One agent's objective: mean loss over its rows plus the regulariser.
class LocalObjective {
 public:
  LocalObjective(Dataset data, LossKind loss, Regularizer reg, double huber_delta = 1.0);

  double value(const Eigen::VectorXd& x) const;
  // Gradient of the smooth part (mean loss + l2); for hinge a subgradient (0 at the kink); the l1 part is left
  // to prox (or use subgradient() for methods without prox).
  Eigen::VectorXd gradient(const Eigen::VectorXd& x) const;
  // A subgradient of the whole objective (sign(x) l1 added, 0 at 0).
  Eigen::VectorXd subgradient(const Eigen::VectorXd& x) const;
  // Lipschitz constant of gradient() (mean loss curvature bound ||Z||^2 / b times the loss's, plus l2);
  // infinite (HUGE_VAL) for hinge.
  double smoothness() const;
  // Sensitivities and per-row Lipschitz constants are NOT computed here: they must not depend on the private
  // rows; see sensitivity_bounds.h (from the declared data domain).

  const Dataset& data() const { return data_; }
  LossKind loss() const { return loss_; }
  double huber_delta() const { return huber_delta_; }
  const Regularizer& regularizer() const { return reg_; }
  int dim() const { return data_.dim(); }
  int rows() const { return data_.rows(); }

 private:
  Dataset data_;
  LossKind loss_;
  Regularizer reg_;
  double huber_delta_;
};

// sum_i f_i(x) over agents.
double total_objective(const std::vector<LocalObjective>& locals, const Eigen::VectorXd& x);

}  // namespace dpl::algorithms
