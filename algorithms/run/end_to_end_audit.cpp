// SPDX-License-Identifier: Apache-2.0
#include "algorithms/run/end_to_end_audit.h"

#include "accounting/numeric/portable_math.h"

#include <cmath>
#include <stdexcept>

namespace dpl::algorithms {

namespace {

thread_local EndToEndAudit* current_end_to_end_audit = nullptr;

// log[(1 - q) + q e^t] without overflow (the Poisson-subsampled Gaussian's likelihood ratio).
double end_to_end_log_mixture(double q, double t) {
  if (q >= 1) return t;
  if (t > 0) return t + portable::binary64::log(q + (1 - q) * portable::binary64::exp(-t));
  return portable::binary64::log1p(q * portable::binary64::expm1(t));
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
  // The residual increments (header): compared with the previous release's when of the same dimension.
  const bool follows = residual_d_.size() == static_cast<std::size_t>(dim);
  double inc_d = 0, inc_dprime = 0;
  residual_d_.resize(static_cast<std::size_t>(dim));
  residual_dprime_.resize(static_cast<std::size_t>(dim));
  for (int l = 0; l < dim; ++l) {
    const double r = y[l] - m_d[l], r_prime = y[l] - m_dprime[l];
    const auto i = static_cast<std::size_t>(l);
    inc_d += (r - residual_d_[i]) * (r - residual_d_[i]);
    inc_dprime += (r_prime - residual_dprime_[i]) * (r_prime - residual_dprime_[i]);
    residual_d_[i] = r;
    residual_dprime_[i] = r_prime;
  }
  if (follows) increments_ += (q >= 1 ? inc_dprime - inc_d : inc_dprime) / (4 * sd * sd);
  if (q >= 1) {
    set_family(NoiseFamily::gaussian);
    energy_ += residual / (sd * sd);
    draws_ += static_cast<std::uint64_t>(dim);
  }
  ++releases_;
}

void EndToEndAudit::set_family(NoiseFamily f) {
  if (family_set_ && family_ != f)
    throw std::logic_error("end-to-end audit: one run reported draws of two noise families to its noise check");
  family_ = f;
  family_set_ = true;
}

void EndToEndAudit::noise_draw(double noise, double sd) {
  if (full()) return;
  set_family(NoiseFamily::gaussian);
  energy_ += (noise / sd) * (noise / sd);
  ++draws_;
}

// The Laplace density's log-likelihood ratio at y of the means m_d and m_dprime (scale b per coordinate).
void EndToEndAudit::release_laplace(const double* y, const double* m_d, const double* m_dprime, int dim, double b) {
  if (full()) return;
  set_family(NoiseFamily::laplace);
  double t = 0, residual = 0;
  const double* own = on_d_ ? m_d : m_dprime;
  for (int l = 0; l < dim; ++l) {
    t += std::fabs(y[l] - m_dprime[l]) - std::fabs(y[l] - m_d[l]);
    residual += std::fabs(y[l] - own[l]);
  }
  stat_ += t / b;
  energy_ += residual / b;
  draws_ += static_cast<std::uint64_t>(dim);
  ++releases_;
}

void EndToEndAudit::laplace_draw(double noise, double b) {
  if (full()) return;
  set_family(NoiseFamily::laplace);
  energy_ += std::fabs(noise) / b;
  ++draws_;
}

// The density proportional to exp(-rate ||e||_2): its log-likelihood ratio at y of the means m_d and m_dprime.
void EndToEndAudit::release_norm_exponential(const double* y, const double* m_d, const double* m_dprime, int dim,
                                             double rate) {
  if (full()) return;
  set_family(NoiseFamily::gamma_norm);
  double a = 0, b = 0, own = 0;
  for (int l = 0; l < dim; ++l) {
    a += (y[l] - m_dprime[l]) * (y[l] - m_dprime[l]);
    b += (y[l] - m_d[l]) * (y[l] - m_d[l]);
  }
  own = on_d_ ? b : a;
  stat_ += rate * (std::sqrt(a) - std::sqrt(b));
  energy_ += rate * std::sqrt(own);
  draws_ += static_cast<std::uint64_t>(dim);
  ++releases_;
}

void EndToEndAudit::norm_draw(double rate_times_norm, int dim) {
  if (full()) return;
  set_family(NoiseFamily::gamma_norm);
  energy_ += rate_times_norm;
  draws_ += static_cast<std::uint64_t>(dim);
}

void EndToEndAudit::release_log_ratio(double log_ratio) {
  if (full()) return;
  stat_ += log_ratio;
  ++releases_;
}

}  // namespace dpl::algorithms
