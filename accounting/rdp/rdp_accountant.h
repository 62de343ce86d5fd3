// SPDX-License-Identifier: Apache-2.0
// The Renyi-DP accountant: the ledger's composed RDP curve (a sum of per-entry curves times steps, so 10^6
// steps cost nothing) and its conversion to (eps, delta) at an order chosen by continuous minimisation.
#pragma once

#include "accounting/composition/accounting_result.h"
#include "accounting/rdp/rdp_curve.h"

#include <memory>
#include <vector>

namespace dpl {

class ComposedRdp {
 public:
  // Throws NotApplicable if an entry has no RDP curve. Entries with the same mechanism, q and sampling share
  // one curve (their steps add), so a ledger costs what its distinct entries cost.
  explicit ComposedRdp(const Ledger& ledger);
  // RDP composes additively (Mironov 2017, Prop. 1): sum_i steps_i eps_i(alpha). Upper bound.
  Interval at(const Real& alpha) const;
  // The same sum from each curve's fast certified path (RdpCurve::certified_at). Upper bound.
  Interval certified_at(double alpha) const;
  // Number of distinct curves.
  std::size_t distinct_curves() const { return parts_.size(); }
  // Upper bounds (rounded up; +inf allowed) at integer orders >= 2, each curve by its batched path
  // (RdpCurve::upper_at_integer_orders), steps times each value summed in 200-bit intervals.
  std::vector<double> upper_at_integer_orders(const std::vector<std::int64_t>& orders) const;
  // The summed RdpCurve::evaluation_work of every curve at these orders (about 10 ns units).
  double evaluation_work(const std::vector<double>& orders) const;
  Interval at_infinity() const;
  double estimate(double alpha) const;
  // The exact composed value when every part is rational at this order (see RdpCurve::exact_at).
  std::optional<Rational> exact_at(double alpha) const;

 private:
  std::vector<std::pair<std::unique_ptr<RdpCurve>, std::int64_t>> parts_;
};

// The order minimising the converted epsilon (given delta) or delta (given epsilon), found in float64 by a
// log-spaced scan over (1 + 1e-6, 1 + 1e5] followed by golden-section refinement (Brent's method for ledgers of more
// than 8 distinct curves). Any order gives a valid bound; the bound itself is then computed certified at this order.
double best_rdp_order(const ComposedRdp& rdp, const Target& target);

// The float64 value compose_rdp certifies, epsilon at `delta` at the best order: an estimate, not a bound (for
// searches that certify their answer separately). +inf when no order gives a finite value.
double rdp_epsilon_estimate(const Ledger& ledger, double delta);

// `--accountant rdp`: certified conversion at the best order (reported in AccountingResult::order).
AccountingResult compose_rdp(const Ledger& ledger, const Target& target);

}  // namespace dpl
