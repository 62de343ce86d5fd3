// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed001/claimed_epsilon.h"

#include "accounting/errors.h"
#include "algorithms/seed001/horizon_epsilon_json.h"

#include <cmath>

namespace dpl::algorithms::seed001 {

namespace {

void require_positive_real(double x, const std::string& name) {
  if (!(x > 0) || !std::isfinite(x))
    throw InputError(name + " = " + std::to_string(x) + ": must be finite and > 0");
}

StepSchedule scaled_up(const StepSchedule& s, const Interval& scale) {
  StepSchedule out = s;
  switch (s.form) {
    case ScheduleForm::ratio:  // (scale a)/(1 + b k^c)
    case ScheduleForm::power: out.a = hi_up(exact(s.a) * scale); break;
    case ScheduleForm::affine:
      out.a = hi_up(exact(s.a) * scale);
      out.b = hi_up(exact(s.b) * scale);
      break;
  }
  return out;
}

}  // namespace

// Theorem 2(1), Wang-Nedic: eps <= Sum_{k=1}^T 2 C lambda^k / nu^k (the paper's claimed upper bound).
ClaimedEpsilon paper_epsilon(const StepSchedule& lambda, const StepSchedule& nu, double C, std::int64_t k0,
                             std::int64_t horizon) {
  require_positive_real(C, "C");
  if (horizon < k0)
    throw InputError("T = " + std::to_string(horizon) + ": must be >= k0 = " + std::to_string(k0));
  const SeriesEnclosure s = certified_ratio_sum(lambda, nu, k0, horizon);
  ClaimedEpsilon out;
  out.k0 = k0;
  out.horizon = horizon;
  out.infinite = s.diverges;
  out.epsilon = s.diverges ? positive_infinity() : 2 * exact(C) * s.value;
  out.method = "Theorem 2(1): 2C Sum_{k=k0}^{T} lambda^k/nu^k; " + s.method;
  return out;
}

// Theorem 2(2), Wang-Nedic: nu^k = (2 C Phi_{lambda,nu'} / eps) nu'^k gives the claimed eps (exact rule).
NuCalibration calibrate_nu(const StepSchedule& lambda, const StepSchedule& nu_shape, double C, double epsilon,
                           std::int64_t k0) {
  require_positive_real(C, "C");
  require_positive_real(epsilon, "epsilon");
  const SeriesEnclosure s = certified_ratio_sum(lambda, nu_shape, k0, kInfiniteHorizon);
  if (s.diverges)
    throw NotApplicable("Theorem 2(2) needs a finite Phi = Sum lambda^k/nu'^k; with lambda = " + lambda.describe() +
                        " and nu' = " + nu_shape.describe() + " it diverges (u + w <= 1)");
  NuCalibration out;
  out.phi = s.value;
  out.scale = 2 * exact(C) * s.value / exact(epsilon);
  out.nu = scaled_up(nu_shape, out.scale);
  return out;
}

// Theorem 2(3), Wang-Nedic: Phi = Sum_{k>=1} 1/k^1.3 (exact; "approximately 3.93").
Interval theorem2_phi() {
  return certified_ratio_sum(theorem2_lambda(), power_schedule(1, 0.3), 1, kInfiniteHorizon).value;
}

// Theorem 2(3), Wang-Nedic: nu^k = (2 C Phi/eps) k^0.3.
StepSchedule theorem2_nu(double C, double epsilon) {
  require_positive_real(C, "C");
  require_positive_real(epsilon, "epsilon");
  return scaled_up(power_schedule(1, 0.3), 2 * exact(C) * theorem2_phi() / exact(epsilon));
}

Json to_json(const ClaimedEpsilon& e) {
  return horizon_epsilon_json(e.epsilon, e.infinite, e.k0, e.horizon, e.method);
}

}  // namespace dpl::algorithms::seed001
