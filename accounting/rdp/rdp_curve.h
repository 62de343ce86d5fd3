// SPDX-License-Identifier: Apache-2.0
// The Renyi-DP curve of one step of a ledger entry: alpha -> an upper bound on D_alpha, certified, with a
// float64 estimate of the same curve for the (uncertified) search over orders.
#pragma once

#include "accounting/mechanisms/mechanism_spec.h"
#include "accounting/numeric/exact_rational.h"
#include "accounting/numeric/interval.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace dpl {

class RdpCurve {
 public:
  virtual ~RdpCurve() = default;
  // An enclosure whose hi() is an upper bound on the per-step RDP at order alpha > 1 (may be +inf).
  virtual Interval at(const Real& alpha) const = 0;
  // The bound at alpha = infinity (the pure-DP epsilon), +inf when unbounded.
  virtual Interval at_infinity() const = 0;
  // A float64 estimate of at(alpha) (for choosing orders only; never reported).
  virtual double estimate(double alpha) const = 0;
  // The exact value when the curve is a rational function of the inputs at this order (Gaussian, iteration
  // without contraction), for exact printing; nullopt otherwise.
  virtual std::optional<Rational> exact_at(double /*alpha*/) const { return std::nullopt; }
  // The same certified enclosure as at(alpha) (hi() an upper bound), by a faster path where the curve has one
  // (binary64 interval arithmetic, docs/rdp_double_precision.md): slightly wider, never less safe.
  virtual Interval certified_at(double alpha) const { return at(Real(alpha)); }
  // Certified upper bounds (binary64, rounded up; +inf allowed) at each of the integer orders >= 2, for the
  // running budget (rdp_running.h): by default hi(certified_at) order by order; curves with a cheaper way to
  // evaluate many integer orders at once override it.
  virtual std::vector<double> upper_at_integer_orders(const std::vector<std::int64_t>& orders) const;
  // The work of certifying this curve at alpha, in units of about 10 ns (for refusing requests that would take
  // minutes, `composed_rdp_at_orders`): integer orders as upper_at_integer_orders evaluates them (batched), others as
  // certified_at. Closed forms by default.
  virtual double evaluation_work(double /*alpha*/) const { return 100; }
};

// The per-step curve of a ledger entry, subsampling included. Throws NotApplicable for mechanisms without
// an RDP curve (approx with delta > 0) and unsupported combinations.
std::unique_ptr<RdpCurve> make_rdp_curve(const LedgerEntry& e);

}  // namespace dpl
