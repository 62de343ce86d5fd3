// SPDX-License-Identifier: Apache-2.0
// End-to-end audits of an algorithm (dpledger audit ALGORITHM on the algorithms whose audit executes them): the
// audit runs the algorithm's own code on D (the canary record in the data) and on D' (the canary record changed
// or removed), each run with an audit probe (audit_probe.h) for the shared setup and the noise factor, and with
// this context for the rest: which data set the run uses, the implementation faults injected into its code, and
// the statistic of the releases it makes.
//
// The context of the run executing on a thread is set by the audit around that run (EndToEndAuditScope; the
// audit's runs each execute on one worker thread) and read by the algorithm with end_to_end_audit().
#pragma once

#include <cstdint>
#include <vector>

namespace dpl::algorithms {

// Implementation faults an audit injects into the run's own code (dpledger audit --inject): each is read by the
// algorithm where it applies, never by the audit, and none changes the run's ledger or claim. The noise factor
// (noise=F) is the probe's.
struct InjectedFaults {
  double clip = 1;          // the clipping bound used is clip times the accounted one
  double sensitivity = 1;   // each record's clipped contribution to the update is scaled by this factor
  bool unsampled = false;   // a fixed subset (the canary always in) where the ledger assumes random sampling
  bool reuse_noise = false; // the first noise draw (of each noisy quantity) reused at every later step
  bool any() const { return clip != 1 || sensitivity != 1 || unsampled || reuse_noise; }
};

// The family of the noise an end-to-end audit's white-box check reads (the law of its energy under the claim).
enum class NoiseFamily { gaussian, laplace, gamma_norm };

class EndToEndAudit {
 public:
  // on_d: the run's data set is D (the canary in), else D'; releases past `cap` (the claim's steps) are not counted.
  EndToEndAudit(bool on_d, const InjectedFaults& faults, std::uint64_t cap = UINT64_MAX)
      : on_d_(on_d), faults_(faults), cap_(cap) {}
  bool on_d() const { return on_d_; }
  const InjectedFaults& faults() const { return faults_; }

  // A Gaussian release y in R^dim that the run made, the means m_d and m_dprime its update code gives on D and on
  // D' from the released history, the claimed std sd per coordinate, and the canary's part in it taken with
  // probability q (Poisson subsampling; 1 = always). Adds the claimed density's log-likelihood ratio
  // log p_D(y) / p_D'(y) = log[(1 - q) + q e^t], t = (||y - m_d'||^2 - ||y - m_d||^2) / 2 sd^2 (Mironov, Talwar and
  // Zhang 2019 for q < 1). The white-box noise check reads the residual y - m of the run's own data set (q = 1; a
  // subsampled run reports its draws with noise_draw instead).
  // It also adds to the increments statistic (increments()), read from the residuals r = y - m_d and r' = y - m_dprime
  // of two successive releases of the same dimension: with independent noise each increment is noise of variance
  // 2 sd^2; with one draw reused across steps the increments of the run's own residuals lose the noise.
  void release_gaussian(const double* y, const double* m_d, const double* m_dprime, int dim, double sd, double q = 1);
  // The white-box noise check's record of one Gaussian draw, against its claimed std sd.
  void noise_draw(double noise, double sd);

  // A Laplace release y in R^dim (independent coordinates of scale b) with means m_d and m_dprime on D and D':
  // adds log p_D(y) / p_D'(y) = sum_l (|y_l - m_dprime_l| - |y_l - m_d_l|) / b; the noise check reads |y - m| / b.
  void release_laplace(const double* y, const double* m_d, const double* m_dprime, int dim, double b);
  // The white-box noise check's record of one Laplace draw, against its claimed scale b.
  void laplace_draw(double noise, double b);

  // A release y in R^dim whose noise has density proportional to exp(-rate ||e||_2) (the objective and dual
  // perturbations of dvp-admm and private-radmm, in the release's units), means m_d and m_dprime: adds
  // rate (||y - m_dprime|| - ||y - m_d||); the noise check reads rate ||y - m|| ~ Gamma(dim, 1).
  void release_norm_exponential(const double* y, const double* m_d, const double* m_dprime, int dim, double rate);
  // The white-box noise check's record of one such draw: rate ||e|| for a draw e in R^dim.
  void norm_draw(double rate_times_norm, int dim);

  // A release whose log-likelihood ratio log p_D(y) / p_D'(y) the algorithm computed itself (any statistic of
  // the releases keeps the test valid; the likelihood ratio gives it its power).
  void release_log_ratio(double log_ratio);

  NoiseFamily family() const { return family_; }

  double statistic() const { return stat_; }
  // The increments statistic of the Gaussian releases: sum over successive releases of
  // (||r'_k - r'_k-1||^2 - ||r_k - r_k-1||^2) / 4 sd^2 (the Gaussian likelihood ratio of the residual increments,
  // as if independent), or for a subsampled release (q < 1, whose mean on D is hidden) ||r'_k - r'_k-1||^2 / 4 sd^2;
  // larger on D. A statistic of the releases like any other (the distinguishing test stays valid); it separates D
  // from D' when the noise is reused and the canary's shift changes from step to step (with a constant shift a
  // reused draw releases no more than one step does).
  double increments() const { return increments_; }
  std::uint64_t releases() const { return releases_; }
  // Sum of the draws' energies under the claim (Gaussian (noise / sd)^2, Laplace |noise| / b, gamma-norm
  // rate ||e||), and their count (the gamma-norm's: the sum of the dimensions).
  double noise_energy() const { return energy_; }
  std::uint64_t draws() const { return draws_; }

 private:
  bool full() const { return releases_ >= cap_; }
  void set_family(NoiseFamily f);
  bool on_d_;
  InjectedFaults faults_;
  std::uint64_t cap_;
  double stat_ = 0, energy_ = 0, increments_ = 0;
  std::vector<double> residual_d_, residual_dprime_;  // the previous Gaussian release's r and r'

  std::uint64_t releases_ = 0, draws_ = 0;
  NoiseFamily family_ = NoiseFamily::gaussian;
  bool family_set_ = false;
};

// The end-to-end audit of the run executing on this thread, or nullptr (every ordinary run).
EndToEndAudit* end_to_end_audit();

// Sets the thread's end-to-end audit for its lifetime (the audit wraps each run in one).
class EndToEndAuditScope {
 public:
  explicit EndToEndAuditScope(EndToEndAudit* audit);
  ~EndToEndAuditScope();
  EndToEndAuditScope(const EndToEndAuditScope&) = delete;
  EndToEndAuditScope& operator=(const EndToEndAuditScope&) = delete;

 private:
  EndToEndAudit* previous_;
};

}  // namespace dpl::algorithms
