// SPDX-License-Identifier: Apache-2.0
#include "algorithms/run/end_to_end_audit.h"

#include <cmath>

namespace dpl::algorithms {

namespace {

thread_local EndToEndAudit* current_end_to_end_audit = nullptr;

// log[(1 - q) + q e^t] without overflow (the Poisson-subsampled Gaussian's likelihood ratio).
double end_to_end_log_mixture(double q, double t) {
  if (q >= 1) return t;
  if (t > 0) return t + std::log(q + (1 - q) * std::exp(-t));
  return std::log1p(q * std::expm1(t));
}

}  // namespace

EndToEndAudit* end_to_end_audit() { return current_end_to_end_audit; }

EndToEndAuditScope::EndToEndAuditScope(EndToEndAudit* audit) : previous_(current_end_to_end_audit) {
  current_end_to_end_audit = audit;
}
EndToEndAuditScope::~EndToEndAuditScope() { current_end_to_end_audit = previous_; }

// Mironov, Talwar and Zhang 2019 (sampled Gaussian; q = 1: the Gaussian's): the log-likelihood ratio of the two
// means at the released y, the canary's part taken with probability q.
void EndToEndAudit::release_gaussian(const double* y, const double* m_d, const double* m_dprime, int dim, double sd,
                                     double q) {
  if (full()) return;
  double t = 0, residual = 0;
  const double* own = on_d_ ? m_d : m_dprime;
  for (int l = 0; l < dim; ++l) {
    const double a = y[l] - m_dprime[l], b = y[l] - m_d[l];
    t += (a - b) * (a + b);
    residual += (y[l] - own[l]) * (y[l] - own[l]);
  }
  stat_ += end_to_end_log_mixture(q, t / (2 * sd * sd));
  if (q >= 1) {
    energy_ += residual / (sd * sd);
    draws_ += static_cast<std::uint64_t>(dim);
  }
  ++releases_;
}

void EndToEndAudit::noise_draw(double noise, double sd) {
  if (full()) return;
  energy_ += (noise / sd) * (noise / sd);
  ++draws_;
}

}  // namespace dpl::algorithms
