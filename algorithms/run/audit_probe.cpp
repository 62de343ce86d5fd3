// SPDX-License-Identifier: Apache-2.0
#include "algorithms/run/audit_probe.h"

#include <cmath>

namespace dpl::algorithms {

namespace {

// log[(1 - q) + q e^t] without overflow (the Poisson-subsampled Gaussian's likelihood ratio).
double log_mixture(double q, double t) {
  if (q >= 1) return t;
  if (t > 0) return t + std::log(q + (1 - q) * std::exp(-t));
  return std::log1p(q * std::expm1(t));
}

}  // namespace

// Mironov, Talwar and Zhang 2019 (sampled Gaussian): the likelihood ratio of N(shift, sd^2) mixed with weight q
// against N(0, sd^2) at x.
void AuditProbe::gaussian(double noise, double sd, double shift, double q, double u01) {
  if (full()) return;
  auto loss = [&](double x) { return log_mixture(q, (x * shift - shift * shift / 2) / (sd * sd)); };
  const bool in = q >= 1 || u01 < q;
  stat_d_ += loss(noise + (in ? shift : 0.0));
  stat_dprime_ += loss(noise);
  energy_gaussian_ += (noise / sd) * (noise / sd);
  ++gaussian_draws_;
  ++releases_;
}

void AuditProbe::gaussian_pair(double x_d, double x_dprime, double sd, double shift, double q) {
  if (full()) return;
  auto loss = [&](double x) { return log_mixture(q, (x * shift - shift * shift / 2) / (sd * sd)); };
  stat_d_ += loss(x_d);
  stat_dprime_ += loss(x_dprime);
  energy_gaussian_ += (x_dprime / sd) * (x_dprime / sd);
  ++gaussian_draws_;
  ++releases_;
}

// Wang, Balle and Kasiviswanathan 2019 (subsampling without replacement, replace-one): the two mixtures
// (1 - q) N(0, sd^2) + q N(+-half, sd^2), their log-likelihood ratio at x.
void AuditProbe::gaussian_replace(double noise, double sd, double half, double q, bool in) {
  if (full()) return;
  auto loss = [&](double x) {
    return log_mixture(q, (x * half - half * half / 2) / (sd * sd)) - log_mixture(q, (-x * half - half * half / 2) / (sd * sd));
  };
  stat_d_ += loss(noise + (in ? half : 0.0));
  stat_dprime_ += loss(noise - (in ? half : 0.0));
  energy_gaussian_ += (noise / sd) * (noise / sd);
  ++gaussian_draws_;
  ++releases_;
}

// Chaudhuri, Monteleoni and Sarwate 2011 (objective perturbation's noise, density proportional to
// exp(-alpha ||e||)): the density ratio at x of the release shifted by `shift` e_1 against the unshifted one.
void AuditProbe::norm_exponential(const double* noise, int d, double alpha, double shift) {
  if (full()) return;
  double sq = 0;
  for (int l = 0; l < d; ++l) sq += noise[l] * noise[l];
  // ||x||^2 with x = noise + c e_1, and the loss alpha (||x|| - ||x - shift e_1||).
  auto norm_at = [&](double c) { return std::sqrt(std::max(0.0, sq + 2 * c * noise[0] + c * c)); };
  stat_d_ += alpha * (norm_at(shift) - norm_at(0));
  stat_dprime_ += alpha * (norm_at(0) - norm_at(-shift));
  energy_norm_ += alpha * std::sqrt(sq);
  norm_shape_ += static_cast<std::uint64_t>(d);
  ++releases_;
}

// The Laplace density ratio at x: (|x| - |x - shift|) / b (Dwork et al. 2006).
void AuditProbe::laplace(double noise, double b, double shift) {
  if (full()) return;
  auto loss = [&](double x) { return (std::fabs(x) - std::fabs(x - shift)) / b; };
  stat_d_ += loss(noise + shift);
  stat_dprime_ += loss(noise);
  energy_laplace_ += std::fabs(noise) / b;
  ++laplace_draws_;
  ++releases_;
}

}  // namespace dpl::algorithms
