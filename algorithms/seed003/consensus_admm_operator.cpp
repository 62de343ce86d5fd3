// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed003/consensus_admm_operator.h"

#include <cmath>
#include <utility>

namespace dpl::algorithms::seed003 {

Eigen::VectorXd clip_l2(const Eigen::VectorXd& v, double C) {
  const double norm = v.norm();
  return norm > C ? Eigen::VectorXd(v * (C / norm)) : v;
}

ConsensusAdmmOperator::ConsensusAdmmOperator(int n, int p, RecordProx record_prox, RegProx reg_prox, double t,
                                             double t_z, double clip)
    : n_(n), p_(p), record_prox_(std::move(record_prox)), reg_prox_(std::move(reg_prox)), t_(t), t_z_(t_z), clip_(clip) {}

Eigen::VectorXd ConsensusAdmmOperator::z_of(const Eigen::VectorXd& u) const {
  const Eigen::VectorXd mean = Eigen::Map<const Eigen::MatrixXd>(u.data(), p_, n_).rowwise().mean();
  return reg_prox_(mean, t_z_);
}

// Eqs. (6)-(7) without noise: R(u)_i = u_i + 2 Clip(prox_{t f_i}(2z - u_i) - z, C).
Eigen::VectorXd ConsensusAdmmOperator::reflect(const Eigen::VectorXd& u, const Eigen::VectorXd& z, int i) const {
  const Eigen::VectorXd ui = u.segment(static_cast<Eigen::Index>(i) * p_, p_);
  const Eigen::VectorXd x = record_prox_(i, 2 * z - ui, t_);
  return ui + (2 * scale_) * clip_l2(x - z, clip_);
}

void ConsensusAdmmOperator::evaluate(const Eigen::VectorXd& u, const std::vector<int>& active, std::int64_t,
                                     Eigen::VectorXd& out) {
  if (calls_ % n_ == 0 || mean_.size() != p_) {
    mean_ = Eigen::Map<const Eigen::MatrixXd>(u.data(), p_, n_).rowwise().mean();
  } else {
    for (std::size_t j = 0; j < last_active_.size(); ++j)
      mean_ += (u.segment(static_cast<Eigen::Index>(last_active_[j]) * p_, p_) - last_values_.col(static_cast<Eigen::Index>(j))) / n_;
  }
  ++calls_;
  const Eigen::VectorXd z = reg_prox_(mean_, t_z_);  // eq. (5)
  last_active_ = active;
  last_values_.resize(p_, static_cast<Eigen::Index>(active.size()));
  for (std::size_t j = 0; j < active.size(); ++j) {
    const auto i = static_cast<Eigen::Index>(active[j]);
    last_values_.col(static_cast<Eigen::Index>(j)) = u.segment(i * p_, p_);
    out.segment(i * p_, p_) = reflect(u, z, active[j]);
  }
}

Eigen::VectorXd ConsensusAdmmOperator::averaged(const Eigen::VectorXd& u, double lambda) const {
  const Eigen::VectorXd z = z_of(u);
  Eigen::VectorXd out(u.size());
  for (int i = 0; i < n_; ++i) out.segment(static_cast<Eigen::Index>(i) * p_, p_) = reflect(u, z, i);
  return lambda * out + (1 - lambda) * u;
}

}  // namespace dpl::algorithms::seed003
