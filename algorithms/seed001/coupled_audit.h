// SPDX-License-Identifier: Apache-2.0
// The coupled-observation sensitivity audit of Wang and Nedic's Theorem 2 (seed 001; docs/wang2022.md; checks 9 and
// 10): replay agent i on the SAME received messages under two adjacent objectives f_i and f_i' (Definition 3's
// coupling: the adversary's observation is fixed, so every other agent's state is unchanged) and compare the
// realised state difference delta^k = x_i^k - x_i'^k with
//   - the paper's claim (step (8)): ||delta^{k+1}||_1 <= 2 C lambda^k   -- expected to FAIL from the 2nd step on;
//   - the accumulated sensitivity s^{k+1} of accumulated_sensitivity.h  -- must hold; equality for the Huber pair.
#pragma once

#include "accounting/progress_callback.h"
#include "algorithms/run/run_parameters.h"
#include "algorithms/seed001/step_schedule.h"

#include <Eigen/Dense>

#include <cstdint>
#include <functional>
#include <vector>

namespace dpl::algorithms::seed001 {

using GradientFn = std::function<Eigen::VectorXd(const Eigen::VectorXd&)>;

// What agent i sees in a run of Algorithm 1: its start state, its weights and every message it received.
struct AgentTranscript {
  int agent = 0;
  double a = 0;                            // |w_ii|
  std::int64_t k0 = 1;                     // index of the first iteration
  Eigen::VectorXd x_start;                 // x_i^{k0}
  std::vector<double> weights;             // w_ij, j in N_i (sorted neighbour order)
  std::vector<Eigen::MatrixXd> received;   // iteration k0 + t: rows = messages y_j^{k0+t}, j in N_i
};

// Eq. (4) of Wang-Nedic replayed for agent i on the transcript with gradient `grad` (already clipped if wanted):
// x_i^{k0}, ..., x_i^{k0+K} (K = received.size()).
std::vector<Eigen::VectorXd> replay_agent(const AgentTranscript& t, const StepSchedule& lambda,
                                          const StepSchedule& gamma, const GradientFn& grad);

struct CoupledAudit {
  std::vector<double> delta_l1;           // ||delta^k||_1, k = k0 .. k0+K (delta^{k0} = 0)
  std::vector<double> paper_bound;        // entry k: 2 C lambda^{k-1} (the paper's claim for delta^k), entry 0 = 0
  std::vector<double> accumulated_bound;  // s^k (upper end of its enclosure), k = k0 .. k0+K
  double max_delta_l1 = 0;
  double max_ratio_to_paper = 0;          // max_k ||delta^{k+1}||_1 / (2 C lambda^k)
  double max_ratio_to_accumulated = 0;    // max_k ||delta^{k+1}||_1 / s^{k+1}
  bool paper_claim_holds = true;          // every ||delta^{k+1}||_1 <= 2 C lambda^k (relative tolerance 1e-9)
  std::int64_t first_paper_violation = -1;  // the first k+1 where it fails
  bool accumulated_bound_holds = true;    // every ||delta^{k+1}||_1 <= s^{k+1} (relative tolerance 1e-9)
  // Check 10: the supremum over O of the Laplace log-likelihood ratio of this coupled pair,
  // Sum_{k=k0+1}^{k0+K} ||delta^k||_1 / nu^k (messages k0+1 .. k0+K).
  double realised_worst_case_loss = 0;
};

// Replays the transcript under grad and grad_prime (both with ||.||_1 <= C for the bounds to apply) and compares.
// Throws InputError for C <= 0 or an empty transcript. `progress` (optional) is told the fraction of the
// accumulated bound s^k computed (the costly part), about every percent.
CoupledAudit coupled_sensitivity_audit(const AgentTranscript& t, const StepSchedule& lambda,
                                       const StepSchedule& gamma, const StepSchedule& nu, double C,
                                       const GradientFn& grad, const GradientFn& grad_prime,
                                       const ProgressCallback& progress = {});

// The Huber objective of the audit: f(x) = (C/d) Sum_l huber_1(x_l - centre), gradient
// (C/d) clamp(x_l - centre, -1, 1): ||grad||_1 <= C (Assumption 4 with equality far from the centre).
// f_i = huber(centre = 100), f_i' = huber(centre = -100) is the pair that attains s^k exactly.
GradientFn huber_gradient(double C, double centre);

Json to_json(const CoupledAudit& a);

}  // namespace dpl::algorithms::seed001
