// SPDX-License-Identifier: Apache-2.0
// The audit's hook into a run (dpledger audit ALGORITHM): set on RunParameters by the audit only. A run that has
// one draws `noise_factor` times the noise its claim is computed for (the negative control actual_noise_factor),
// reports every noisy release of the audited unit (record, agent, user), and skips its trace and accounting.
//
// Each release of the audited unit is y = m + c + n: m the mean given the history (known to a white-box
// auditor), c the worst-case neighbour's shift of that mean at this release (the sensitivity the run's ledger
// composes, put on one coordinate: a canary at the clipping bound or at a corner of the declared data domain), n
// the noise drawn (its component on that coordinate). The probe sums, for the run on D (canary present, c added)
// and on D' (canary absent), the privacy-loss statistic log p(y | m + c) / p(y | m) of the CLAIMED density: the
// Neyman-Pearson statistic of the claim, evaluated on the noise actually drawn.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace dpl::algorithms {

// Shared by every run of one audit: the problem (data, split, graph, optimum) is set up once, from the audit's
// seed, and held fixed: the runs differ only in the algorithm's own randomness (the mechanism audited).
struct AuditSetupCache {
  std::uint64_t seed = 1;
  std::mutex mutex;
  std::shared_ptr<const void> problem;  // the setup function's result type (one per algorithm family)
};

class AuditProbe {
 public:
  explicit AuditProbe(double noise_factor = 1, AuditSetupCache* cache = nullptr, std::uint64_t cap = UINT64_MAX)
      : noise_factor_(noise_factor), cache_(cache), cap_(cap) {}
  double noise_factor() const { return noise_factor_; }
  AuditSetupCache* setup_cache() const { return cache_; }
  // Whether a run may skip the arithmetic its statistic does not read (the means given the history cancel in the
  // likelihood ratio of a shifted release: only the noise draws, the activations and the claimed scales enter).
  // Off: the run computes everything (tests check the statistics agree draw for draw).
  bool skip_values() const { return skip_values_ && lean_; }
  // A lean run (the default) skips its trace and accounting; the audit's claim run is not lean (it accounts at the
  // claimed noise, with the audit's shared setup).
  bool lean() const { return lean_; }
  void set_lean(bool on) { lean_ = on; }
  void set_skip_values(bool on) { skip_values_ = on; }
  // The cached setup of type T, or the one make(seed) builds (once per audit, under the lock).
  template <class T, class Make>
  T setup(const Make& make) {
    if (!cache_) return make(std::uint64_t{1});
    std::lock_guard<std::mutex> lock(cache_->mutex);
    if (!cache_->problem) cache_->problem = std::make_shared<const T>(make(cache_->seed));
    return *std::static_pointer_cast<const T>(cache_->problem);
  }

  // A Gaussian release with claimed std `sd` (the run draws noise_factor * sd; `noise` is that draw), shift
  // `shift` >= 0, the canary in the step with probability q (Poisson subsampling; 1 = always).
  // log[(1 - q) + q exp(t)], t = (x shift - shift^2/2) / sd^2 (Mironov, Talwar and Zhang 2019: the sampled
  // Gaussian's likelihood ratio); on D the canary is in with probability q (drawn from `u01`, in [0, 1)).
  void gaussian(double noise, double sd, double shift, double q = 1, double u01 = 0);
  // A Gaussian release observed on D and on D' (a canary actually inserted, e.g. on a coordinate of its own):
  // x_d = the release on D minus its mean without the canary, x_dprime the same on D'.
  void gaussian_pair(double x_d, double x_dprime, double sd, double shift, double q = 1);
  // A replace-one release under a hidden choice of one of the unit's records (the canary chosen with probability
  // q; 1 = always): on D the canary's contribution is +half, on D' its replacement's -half (the two records differ
  // by 2 half, the sensitivity), the other records' contribution is the mean m; `in` = the canary was chosen (the
  // same draw on D and D'). The statistic log[(1 - q) + q e^{t(+)}] - log[(1 - q) + q e^{t(-)}],
  // t(+-) = (+-x half - half^2/2) / sd^2: the likelihood ratio of the two Gaussian mixtures.
  void gaussian_replace(double noise, double sd, double half, double q, bool in);
  // A vector release with claimed density proportional to exp(-alpha ||e||) in R^d (objective perturbation's
  // Gamma-norm noise; the run draws noise_factor times it), shifted by `shift` on its first coordinate:
  // alpha (||x|| - ||x - shift e_1||). Its noise check: alpha ||e|| ~ Gamma(d, 1) under the claim.
  void norm_exponential(const double* noise, int d, double alpha, double shift);
  // A Laplace release with claimed scale b (density e^{-|y|/b} / 2b), shift >= 0: (|x - shift| - |x|) / b reversed.
  void laplace(double noise, double b, double shift);

  // What the run chose as the audited unit and its pair (printed by the audit with the canary), e.g. "node 3 (28
  // rows)"; empty where the audit's description says it all.
  void set_unit(std::string u) { unit_ = std::move(u); }
  const std::string& unit() const { return unit_; }

  double statistic_d() const { return stat_d_; }
  double statistic_dprime() const { return stat_dprime_; }
  std::uint64_t releases() const { return releases_; }
  // Sum of (noise / claimed scale)^2 (Gaussian) or |noise| / b (Laplace) over the releases: the white-box
  // noise check's statistic, with its count.
  double noise_energy_gaussian() const { return energy_gaussian_; }
  std::uint64_t gaussian_draws() const { return gaussian_draws_; }
  double noise_energy_laplace() const { return energy_laplace_; }
  std::uint64_t laplace_draws() const { return laplace_draws_; }
  // Sum of alpha ||e|| over the Gamma-norm releases, with the sum of their dimensions (its Gamma shape).
  double noise_energy_norm() const { return energy_norm_; }
  std::uint64_t norm_shape() const { return norm_shape_; }

 private:
  bool full() const { return releases_ >= cap_; }  // releases past the cap (the claim's steps) are not counted
  double noise_factor_ = 1;
  AuditSetupCache* cache_ = nullptr;
  std::uint64_t cap_ = UINT64_MAX;
  bool skip_values_ = true;
  bool lean_ = true;
  std::string unit_;
  double stat_d_ = 0, stat_dprime_ = 0;
  double energy_gaussian_ = 0, energy_laplace_ = 0, energy_norm_ = 0;
  std::uint64_t releases_ = 0, gaussian_draws_ = 0, laplace_draws_ = 0, norm_shape_ = 0;
};

}  // namespace dpl::algorithms
