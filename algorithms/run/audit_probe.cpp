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
