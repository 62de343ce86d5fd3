// SPDX-License-Identifier: Apache-2.0
// The privacy ledger of objective perturbation in decentralised ADMM (Zhang, Khalili and Liu, Recycled ADMM,
// Theorem IV.1 and its proof, Appendix III): per agent i and perturbed round k the loss
//   noise part    alpha_i(k) * s_i            with s_i = sup ||grad O_i(f; D) - grad O_i(f; D')|| <= 2 C/B_i  (53)
//                                             (in dimension 1: <= 1.06 C/B_i, perturbation_sensitivity)
//   Jacobian part -2 ln(1 - x_i)              with x_i = C c_1 / (B_i (rho/N + 2 eta V_i))                   (56)
// summed over rounds (pure composition of the per-round density-ratio bounds) and maximised over agents.
// Theorem IV.1 replaces -2 ln(1 - x) by 2.8 x, valid for x <= 1/2, i.e. under 2 c_1 < (B_i/C)(rho/N + 2 eta V_i).
#pragma once

#include "algorithms/problems/local_objective.h"
#include "algorithms/run/run_parameters.h"

#include <vector>

namespace dpl::algorithms::seed002 {

// Data-independent bound on the l2 change of the mean-loss gradient of O_i = C f_i at any point f when one of its
// B_i rows is replaced, from the declared data domain (the problem set-up's preprocessing: feature rows of norm at
// most 1, labels +-1): a row's gradient is -u sigma(-<u, f>) with u = y x, |u| <= 1. In dimension >= 2 the gap of
// two rows approaches 2 (two rows at a small angle, both far on the wrong side of a far f), so the bound is
// 2 C sup|loss'| max||x|| / B_i = 2 C / B_i (Recycled ADMM (53)); in dimension 1 every u is a scalar in [-1, 1]
// and the gap is at most kLogisticGapOneDimension C / B_i (logistic_gap_one_dimension). Throws NotApplicable for
// losses outside Assumption 4 (only logistic: strictly convex, twice differentiable, |L'| <= 1, L'' <= c_1 = 1/4).
double perturbation_sensitivity(LossKind loss, double C, int rows, int dim);
// sup over f in R and s1, s2 in [-1, 1] of |s1 sigma(-s1 f) - s2 sigma(-s2 f)|, rounded up: for f >= 0 (the other
// sign is the mirror) the largest value is sigma(-f) at s = 1 while f <= t* (t* sigma(t*) = 1, t* ~ 1.27846),
// else (t* - 1)/f at s = t*/f, and the smallest -sigma(f) at s = -1; so the gap is 1 for f <= t* and
// sigma(f) + (t* - 1)/f beyond, largest (about 1.0518) near f = 4.2. 1.06 bounds it (tests: cell bounds over
// f in [t*, 64], and 1 + (t* - 1)/64 beyond).
inline constexpr double kLogisticGapOneDimension = 1.06;
// c_1 = sup L'' of Assumption 4 (logistic: 1/4).
double curvature_bound(LossKind loss);

struct AgentShape {
  int rows = 0;    // B_i
  int degree = 0;  // V_i
};

struct PerturbationLedgerInputs {
  std::vector<AgentShape> agents;
  LossKind loss = LossKind::logistic;  // the accounted sensitivity comes from perturbation_sensitivity(loss, ...)
  int dim = 2;                         // the problem's dimension (1: the one-dimensional bound of the gap)
  double C = 1, c1 = 0.25, rho_over_n = 1, eta = 1;
  double extra_curvature = 0;  // DVP's Phi: the Jacobian floor is rho/N + Phi + 2 eta V_i
  // sensitivity s_i (2 C / B_i; dimension 1: 1.06 C / B_i) per round for R-ADMM; DVP's noise is (C/B_i) e with
  // e ~ exp(-zeta ||e||), i.e. rate zeta B_i / C on the perturbation, and its noise part is the rate times s_i.
  std::vector<double> rates;   // alpha_i(k) (R-ADMM) or zeta(t) (DVP), one per perturbed round, same for all agents
  bool dual_perturbation = false;
};

struct AgentLedger {
  int agent = 0;
  bool condition = false;    // 2 c_1 < (B_i/C)(rho/N + Phi + 2 eta V_i), i.e. x_i < 1/2
  double x = 0;              // C c_1 / (B_i (rho/N + Phi + 2 eta V_i)) (upper, rounded up)
  double printed = 0;        // Theorem IV.1 (30): sum_k (2C/B_i)(1.4 c_1/(...) + alpha(k)) (rounded up)
  double exact = 0;          // sum_k [alpha(k) s_i - 2 ln(1 - x_i)] (rounded up; inf if x_i >= 1)
  std::vector<double> per_round_exact;  // alpha(k) s_i - 2 ln(1 - x_i), rounded up
};

// Per agent, certified (MPFI; every number rounded up). 1.4 is the exact decimal 7/5.
std::vector<AgentLedger> perturbation_ledgers(const PerturbationLedgerInputs& in);

// Theorem IV.1's condition on eta (Algorithm 2, "Parameter"): eta > max_i (2 c_1 C / B_i - rho/N - Phi)/(2 V_i).
double smallest_admissible_eta(const PerturbationLedgerInputs& in);

}  // namespace dpl::algorithms::seed002
