// SPDX-License-Identifier: Apache-2.0
// RDP of the Poisson-subsampled Gaussian mechanism (Mironov, Talwar and Zhang 2019), exact at integer orders,
// and at fractional orders by the two-sided series with a proven bound on its truncated tail.
#pragma once

#include "accounting/rdp/rdp_curve.h"
#include "accounting/rdp/rdp_double_interval.h"

#include <cstdint>
#include <optional>

namespace dpl {

class SubsampledGaussianRdp final : public RdpCurve {
 public:
  // q in (0, 1): sampling probability; noise sigma, L2 sensitivity sens. The noise multiplier z = sigma/sens is
  // carried as an interval (the curve decreases in z, so a rounded-up z would belong to more noise); the float64
  // estimates use z rounded down.
  SubsampledGaussianRdp(double q, double sigma, double sens);
  // Noise multiplier given directly (sens = 1).
  SubsampledGaussianRdp(double q, double z) : SubsampledGaussianRdp(q, z, 1.0) {}
  Interval at(const Real& alpha) const override;
  Interval at_infinity() const override;
  double estimate(double alpha) const override;
  Interval certified_at(double alpha) const override;

  // MTZ 2019, Sec. 3.2: A_alpha = sum_k C(a,k) (1-q)^{a-k} q^k e^{(k^2-k)/(2z^2)}, integer a >= 2; exact.
  Interval integer_moment(std::int64_t alpha) const;
  // MTZ 2019, Sec. 3.3: A_alpha for real a > 1 as the two series with signs kept, plus/minus a proven bound on
  // the tail (Leibniz: alternating terms of non-increasing magnitude) after `terms_used` terms (see the derivation in docs/rdp_fractional_tail.md). Enclosure.
  Interval fractional_moment(const Real& alpha, std::int64_t* terms_used = nullptr) const;
  // Enclosures of A_alpha - 1 (what the log needs: A is often 1 + 1e-4) in binary64 interval arithmetic
  // (docs/rdp_double_precision.md): nullopt when the double range cannot hold them (the caller then uses the
  // 200-bit versions above). At fractional orders the binomial series of 1 is subtracted term by term, so no term
  // is near 1; where that fails (q >= 1/2, overflow, a wide enclosure) fractional_excess_big_terms runs, which
  // computes the few terms above 2^-20 in 200-bit MPFI and the rest in binary64 intervals.
  std::optional<Interval> integer_excess_fast(std::int64_t alpha) const;
  std::optional<Interval> fractional_excess_fast(double alpha) const;
  std::optional<Interval> fractional_excess_big_terms(double alpha) const;
  // The certified curve from the binary64 enclosures (relative width ~1e-14; nullopt where they fail), used by
  // the composition's final evaluation; at() keeps the 200-bit evaluation.
  std::optional<Interval> at_fast(double alpha) const;
  // Many integer orders at once (the running budget): the same sum as integer_excess_fast with the ratios of
  // consecutive factors e^{(k^2-k)/(2z^2)} - 1 enclosed once per curve by recursions of non-negative terms (one
  // MPFR call instead of one per term and order), terms rescaled by powers of 2 so that nothing overflows; an
  // order whose enclosure fails or is wider than 1e-9 relative falls back to certified_at. Upper bounds, rounded up.
  std::vector<double> upper_at_integer_orders(const std::vector<std::int64_t>& orders) const override;
  // Integer orders to 1e4: ~alpha interval operations (batched); fractional orders to 1e4: floor(alpha) + 21 series
  // terms with a few exp and Phi enclosures each (~1 us); beyond 1e4 the closed form alpha/(2 z^2).
  double evaluation_work(double alpha) const override;

 private:
  double q_;
  Interval z_;       // sigma/sens, enclosed
  double z_down_;    // lo(z_) rounded down: the float64 estimates never use more noise than specified
  // Binary64 enclosures of the per-curve constants of the fast path.
  DoubleInterval dq_, d1mq_, dz_, dz2_, dlog1mq_, dlogq_, dz0_;
};

}  // namespace dpl
