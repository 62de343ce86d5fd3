// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed001/coupled_audit.h"

#include "accounting/errors.h"
#include "algorithms/seed001/accumulated_sensitivity.h"
#include "algorithms/seed001/algorithm1_step.h"

#include <algorithm>
#include <cmath>

namespace dpl::algorithms::seed001 {

namespace {
constexpr double kRelativeTolerance = 1e-9;
bool within(double value, double bound) { return value <= bound * (1 + kRelativeTolerance) + 1e-300; }
}  // namespace

std::vector<Eigen::VectorXd> replay_agent(const AgentTranscript& t, const StepSchedule& lambda,
                                          const StepSchedule& gamma, const GradientFn& grad) {
  std::vector<Eigen::VectorXd> xs;
  xs.reserve(t.received.size() + 1);
  xs.push_back(t.x_start);
  for (std::size_t s = 0; s < t.received.size(); ++s) {
    const std::int64_t k = t.k0 + static_cast<std::int64_t>(s);
    xs.push_back(algorithm1_step(xs.back(), t.weights, t.received[s], gamma.at(k), lambda.at(k), grad(xs.back())));
  }
  return xs;
}

// Notes sec. 6 check 9: paper step (8) claims ||delta^{k+1}||_1 <= 2C lambda^k (claimed upper bound);
// the accumulated s^{k+1} (docs/wang2022.md sec. 2) is the exact worst case (upper bound, tight).
CoupledAudit coupled_sensitivity_audit(const AgentTranscript& t, const StepSchedule& lambda,
                                       const StepSchedule& gamma, const StepSchedule& nu, double C,
                                       const GradientFn& grad, const GradientFn& grad_prime,
                                       const ProgressCallback& progress) {
  if (!(C > 0) || !std::isfinite(C)) throw InputError("C = " + std::to_string(C) + ": must be finite and > 0");
  if (t.received.empty()) throw InputError("audit: the transcript has no iterations");
  const auto x = replay_agent(t, lambda, gamma, grad);
  const auto xp = replay_agent(t, lambda, gamma, grad_prime);
  const auto K = static_cast<std::int64_t>(t.received.size());
  const auto s = accumulated_sensitivity(lambda, gamma, C, t.a, t.k0, t.k0 + K, progress);
  CoupledAudit out;
  out.delta_l1.push_back(0);
  out.paper_bound.push_back(0);
  out.accumulated_bound.push_back(0);
  for (std::int64_t n = 1; n <= K; ++n) {
    const std::int64_t k = t.k0 + n - 1;  // delta^{k+1}
    const double d = (x[n] - xp[n]).lpNorm<1>();
    const double paper = 2 * C * lambda.at(k);
    const double acc = hi_up(s[n]);
    out.delta_l1.push_back(d);
    out.paper_bound.push_back(paper);
    out.accumulated_bound.push_back(acc);
    out.max_delta_l1 = std::max(out.max_delta_l1, d);
    out.max_ratio_to_paper = std::max(out.max_ratio_to_paper, d / paper);
    if (acc > 0) out.max_ratio_to_accumulated = std::max(out.max_ratio_to_accumulated, d / acc);
    if (!within(d, paper) && out.paper_claim_holds) {
      out.paper_claim_holds = false;
      out.first_paper_violation = k + 1;
    }
    if (!within(d, acc)) out.accumulated_bound_holds = false;
    out.realised_worst_case_loss += d / nu.at(k + 1);
  }
  return out;
}

GradientFn huber_gradient(double C, double centre) {
  return [C, centre](const Eigen::VectorXd& x) -> Eigen::VectorXd {
    const double scale = C / static_cast<double>(x.size());
    Eigen::VectorXd g(x.size());
    for (Eigen::Index l = 0; l < x.size(); ++l) g(l) = scale * std::clamp(x(l) - centre, -1.0, 1.0);
    return g;
  };
}

Json to_json(const CoupledAudit& a) {
  Json j = Json::object();
  j["max_delta_l1"] = a.max_delta_l1;
  j["max_ratio_to_paper_bound"] = a.max_ratio_to_paper;
  j["paper_claim_holds"] = a.paper_claim_holds;
  if (a.first_paper_violation >= 0) j["first_paper_violation_at"] = a.first_paper_violation;
  j["max_ratio_to_accumulated_sensitivity"] = a.max_ratio_to_accumulated;
  j["accumulated_sensitivity_holds"] = a.accumulated_bound_holds;
  j["realised_worst_case_loss"] = a.realised_worst_case_loss;
  return j;
}

}  // namespace dpl::algorithms::seed001
