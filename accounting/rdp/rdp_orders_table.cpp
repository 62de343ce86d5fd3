// SPDX-License-Identifier: Apache-2.0
#include "accounting/rdp/rdp_orders_table.h"

#include "accounting/errors.h"
#include "accounting/numeric/decimal.h"

#include <cmath>
#include <string>

namespace dpl {

namespace {

constexpr double kTightIntegerOrders = 4096;
constexpr std::size_t kTightCurves = 8;
// The 200-bit sums cost ~1 us per term and curve (~100 units): used while they stay below ~0.3 s.
constexpr double kTightWork = 3e7;

}  // namespace

std::vector<RdpAtOrder> composed_rdp_at_orders(const ComposedRdp& rdp, const std::vector<double>& orders) {
  if (orders.size() > kMaxRdpOrders)
    throw InputError("--orders has " + std::to_string(orders.size()) + " orders; at most " +
                     std::to_string(kMaxRdpOrders) + " are allowed per call");
  const double work = rdp.evaluation_work(orders);
  if (work > kMaxRdpOrdersWork)
    throw InputError("--orders: these " + std::to_string(orders.size()) + " orders of a ledger with " +
                     std::to_string(rdp.distinct_curves()) + " distinct entries need about " + format_input(work * 1e-8) +
                     " s of work; the limit is about " + format_input(kMaxRdpOrdersWork * 1e-8) +
                     " s (use fewer or smaller orders, or split the call)");
  double tight_work = 0;
  for (const double a : orders)
    if (a == std::floor(a) && a <= kTightIntegerOrders) tight_work += 100 * a * static_cast<double>(rdp.distinct_curves());
  const bool tight = rdp.distinct_curves() <= kTightCurves && tight_work <= kTightWork;
  std::vector<RdpAtOrder> out(orders.size());
  std::vector<std::int64_t> batched;
  std::vector<std::size_t> batched_at;
  for (std::size_t i = 0; i < orders.size(); ++i) {
    const double a = orders[i];
    RdpAtOrder& r = out[i];
    r.order = a;
    if (std::isinf(a)) {
      r.bound = rdp.at_infinity();
      continue;
    }
    r.exact = rdp.exact_at(a);
    if (r.exact) continue;
    if (a == std::floor(a) && a <= kTightIntegerOrders && tight) {
      r.bound = rdp.at(Real(a));
    } else if (a == std::floor(a) && a <= 1e4) {
      batched.push_back(static_cast<std::int64_t>(a));
      batched_at.push_back(i);
    } else {
      r.bound = rdp.certified_at(a);
    }
  }
  if (!batched.empty()) {
    const std::vector<double> v = rdp.upper_at_integer_orders(batched);
    for (std::size_t j = 0; j < batched.size(); ++j)
      out[batched_at[j]].bound = std::isfinite(v[j]) ? exact(v[j]) : positive_infinity();
  }
  return out;
}

}  // namespace dpl
