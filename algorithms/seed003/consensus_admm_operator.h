// SPDX-License-Identifier: Apache-2.0
// Seed 003 Sec. 5.1, eqs. (5)-(7): ADMM on the consensus problem min (1/n) sum_i f_i(x_i) + r(z), x_i = z, as the
// Douglas-Rachford (Lions-Mercier) operator on u = (u_1, ..., u_n): z = prox_{t_z r}(mean_i u_i),
// x_i = prox_{t f_i}(2z - u_i), R(u)_i = u_i + 2 Clip(x_i - z, C) (C = HUGE_VAL: no clipping, R = R_{p1} R_{p2},
// non-expansive). Algorithm 1 with this R and lambda gives u_i += 2 lambda (Clip(x_i - z) + eta_i/2): Algorithm 2
// (all blocks), 3 (m of n users, with the running mean of u as z-hat, docs/cyffers2023.md sec. 2) and 4 (one user per step,
// the walk on the complete graph), and Algorithm 6 (squared loss, l1, clipping).
#pragma once

#include "algorithms/seed003/fixed_point_iteration.h"

#include <Eigen/Dense>

#include <functional>

namespace dpl::algorithms::seed003 {

// prox_{t f_i}(v) of record i.
using RecordProx = std::function<Eigen::VectorXd(int i, const Eigen::VectorXd& v, double t)>;
// prox_{t r}(v) of the regulariser.
using RegProx = std::function<Eigen::VectorXd(const Eigen::VectorXd& v, double t)>;

class ConsensusAdmmOperator final : public BlockOperator {
 public:
  // n blocks of dimension p; record step t (gamma_p), regulariser step t_z (gamma_p; the printed Algorithm 6
  // uses 2 n gamma_p), clipping C (HUGE_VAL: none).
  ConsensusAdmmOperator(int n, int p, RecordProx record_prox, RegProx reg_prox, double t, double t_z,
                        double clip = HUGE_VAL);
  // Keeps the running mean of u incrementally (refreshed exactly every n calls), so that one-block steps
  // cost O(p).
  void evaluate(const Eigen::VectorXd& u, const std::vector<int>& active, std::int64_t k, Eigen::VectorXd& out) override;
  // The z of a state: prox_{t_z r}(mean u) (the released output z_K).
  Eigen::VectorXd z_of(const Eigen::VectorXd& u) const;
  // R(u)_i alone (no noise): what one block's update computes from the state u.
  Eigen::VectorXd block(const Eigen::VectorXd& u, int i) const { return reflect(u, z_of(u), i); }
  // An implementation fault for audits (audit --inject sensitivity=F): the clipped difference enters R scaled by F.
  void set_contribution_scale(double f) { scale_ = f; }
  // The lambda-averaged map T = lambda R + (1 - lambda) I on all blocks (no noise), for tests and audits.
  Eigen::VectorXd averaged(const Eigen::VectorXd& u, double lambda) const;

 private:
  Eigen::VectorXd reflect(const Eigen::VectorXd& u, const Eigen::VectorXd& z, int i) const;
  int n_, p_;
  RecordProx record_prox_;
  RegProx reg_prox_;
  double t_, t_z_, clip_;
  double scale_ = 1;
  Eigen::VectorXd mean_;
  std::vector<int> last_active_;
  Eigen::MatrixXd last_values_;
  std::int64_t calls_ = 0;
};

// Clip(v, C) = v min(1, C/||v||) (seed 003 Algorithm 6; docs/cyffers2023.md sec. 4).
Eigen::VectorXd clip_l2(const Eigen::VectorXd& v, double C);

}  // namespace dpl::algorithms::seed003
