// SPDX-License-Identifier: Apache-2.0
// Privacy amplification by iteration (Feldman, Mironov, Talwar and Thakurta 2018; seed 003, Theorem 6): the RDP
// of a record used once in a noisy contractive iteration that releases only its last iterate.
#pragma once

#include "accounting/rdp/rdp_curve.h"

namespace dpl {

// Record used at step t of T (m = T - t + 1 noisy steps from its use on), per-step L2 sensitivity s, Gaussian
// noise sigma, maps c-Lipschitz (c = 1: non-expansive). FMTT 2018 Thm 22 with the shift spread optimally:
// minimise sum a_k^2 subject to sum_k c^{m-k} a_k = c^{m-1} s (the shift left after every step contracts by c),
// which by Cauchy-Schwarz gives eps(a) = a s^2 c^{2(m-1)} / (2 sigma^2 sum_{j<m} c^{2j}); at c = 1, a s^2/(2 sigma^2 m).
// Upper bound (exact for linear contractions, seed 003 notes check C6).
class IterationRdp final : public RdpCurve {
 public:
  IterationRdp(double sigma, double sens, std::int64_t m, double contraction)
      : sigma_(sigma), sens_(sens), m_(m), c_(contraction) {}
  Interval at(const Real& alpha) const override;
  Interval at_infinity() const override;
  double estimate(double alpha) const override;
  std::optional<Rational> exact_at(double alpha) const override;
  // The alpha-free factor s^2 c^{2(m-1)} / (2 sigma^2 sum_{j<m} c^{2j}).
  Interval slope() const;

 private:
  double sigma_, sens_;
  std::int64_t m_;
  double c_;
};

}  // namespace dpl
