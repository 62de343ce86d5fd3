// SPDX-License-Identifier: Apache-2.0
// Exact Renyi-DP curves of two discrete mechanisms: the discrete Laplace mechanism and k-ary randomized response
// in dp_accounting's form.
#pragma once

#include "accounting/rdp/rdp_curve.h"

#include <cstdint>

namespace dpl {

// Discrete Laplace noise, pmf tanh(a/2) e^{-a|x|} on the integers, integer sensitivity s: with r = e^{-a(2 alpha-1)},
// (alpha-1) D_alpha = log tanh(a/2) + log( e^{a(alpha-1)s}/(1-e^{-a}) + e^{a(alpha-1)s} r (1-r^{s-1})/(1-r)
// + e^{-a alpha s}/(1-e^{-a}) ) (the sums over x <= 0, 0 < x < s and x >= s of P(x)^alpha Q(x)^{1-alpha} with Q
// shifted by s; derived in docs/mechanisms.md). The divergence grows with the shift (the pair has a monotone
// likelihood ratio, so every hockey-stick divergence does), so shift s is the worst case. Exact.
class DiscreteLaplaceRdp final : public RdpCurve {
 public:
  DiscreteLaplaceRdp(double a, std::int64_t sens) : a_(a), s_(sens) {}
  Interval at(const Real& alpha) const override;
  Interval at_infinity() const override;
  double estimate(double alpha) const override;

 private:
  double a_;
  std::int64_t s_;
};

// k-ary randomized response, dp_accounting's RandomizedResponseDpEvent(p, k): the true bucket with probability
// 1 - p, else a uniform one. Changing the input (replace-one) gives P = (A, B, B, ...), Q = (B, A, B, ...) with
// A = 1 - p + p/k, B = p/k: (alpha-1) D_alpha = log(A^alpha B^{1-alpha} + B^alpha A^{1-alpha} + (k-2) B). Exact.
// (dp_accounting's REPLACE_SPECIAL pair, the input against a uniform output, is a mixture of these pairs and is
// dominated by them: joint convexity.)
class KaryRandomizedResponseRdp final : public RdpCurve {
 public:
  KaryRandomizedResponseRdp(double p, std::int64_t k) : p_(p), k_(k) {}
  Interval at(const Real& alpha) const override;
  Interval at_infinity() const override;
  double estimate(double alpha) const override;

 private:
  double p_;
  std::int64_t k_;
};

}  // namespace dpl
