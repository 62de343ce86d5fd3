// SPDX-License-Identifier: Apache-2.0
// The running RDP budget: the many-orders-at-once bounds of the subsampled Gaussian against the 200-bit curve
// (two-sided: never below its enclosure, within 1e-9 above it, the fast path's acceptance width), and the
// running epsilon at every checkpoint against the 200-bit conversion of the prefix's composed curve at the same
// grid of orders (two-sided); the running column of running_budget is non-decreasing and ends at compose()'s value.
#include "accounting/composition/compose.h"
#include "accounting/composition/running_budget.h"
#include "accounting/numeric/decimal.h"
#include "accounting/rdp/rdp_accountant.h"
#include "accounting/rdp/rdp_conversion.h"
#include "accounting/rdp/rdp_running.h"
#include "accounting/rdp/rdp_subsampled_gaussian.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

namespace dpl {
namespace {

std::vector<std::int64_t> grid() {
  const auto& g = rdp_running_orders();
  return {g.begin(), g.end()};
}

// upper >= the 200-bit enclosure's lower end (so >= the exact value) and within rel_tol of its upper end.
void expect_tight_upper(double upper, const Interval& ref, double rel_tol, const std::string& what) {
  if (!is_finite(ref)) {
    EXPECT_TRUE(std::isinf(upper)) << what;
    return;
  }
  EXPECT_GE(Real(upper), lo(ref)) << what << " vs " << format_lower(ref);
  EXPECT_LE(Real(upper), hi(ref) * (1 + Real(rel_tol)) + Real(1e-300)) << what << " vs " << format_upper(ref);
}

TEST(RdpRunning, ManyIntegerOrdersMatchTheExactCurve) {
  for (double q : {1e-5, 0.01, 0.2, 0.9})
    for (double z : {0.4, 0.8, 1.1, 3.0, 30.0, 1e4}) {
      const SubsampledGaussianRdp curve(q, z);
      const auto orders = grid();
      const auto fast = curve.upper_at_integer_orders(orders);
      ASSERT_EQ(fast.size(), orders.size());
      for (std::size_t g = 0; g < orders.size(); ++g)
        expect_tight_upper(fast[g], curve.at(Real(orders[g])), 1e-9,
                           "q=" + std::to_string(q) + " z=" + std::to_string(z) + " a=" + std::to_string(orders[g]));
    }
}

// The running epsilon at checkpoint i against min over the grid of the 200-bit conversion of the prefix's
// composed curve (ComposedRdp::at, Mironov 2017 Prop. 3 / Balle et al. 2020 Thm 21): the same bound, so within
// 1e-10 on both sides.
RC_GTEST_PROP(RdpRunning, EveryCheckpointIsTheGridBoundOfItsPrefix, (unsigned a, unsigned b, unsigned c)) {
  Ledger ledger;
  const int entries = 1 + static_cast<int>(a % 4);
  for (int i = 0; i < entries; ++i) {
    const double sigma = 0.6 + static_cast<double>((b >> (3 * i)) % 8) * 0.3;
    const double q = 0.002 * static_cast<double>(1 + (c >> (4 * i)) % 16);
    ledger.push_back(parse_entry("gaussian:sigma=" + std::to_string(sigma) + ",q=" + std::to_string(q) +
                                 ",steps=" + std::to_string(1 + (a >> (2 + 3 * i)) % 300)));
  }
  if (c % 3 == 0) ledger.push_back(parse_entry("laplace:b=20,steps=3"));
  const double delta = 1e-5;
  const auto checkpoints = running_checkpoints(ledger, 97);
  const auto running = rdp_running_epsilon(ledger, checkpoints, delta);
  RC_ASSERT(running.size() == checkpoints.size());
  for (std::size_t i = 0; i < checkpoints.size(); i += 1 + checkpoints.size() / 6) {
    const ComposedRdp prefix(prefix_ledger(ledger, checkpoints[i]));
    Real best(std::numeric_limits<double>::infinity());
    for (double order : rdp_running_orders()) {
      const Interval e = rdp_to_epsilon(prefix.at(Real(order)), Real(order), delta);
      if (is_finite(e) && hi(e) < best) best = hi(e);
    }
    RC_ASSERT(hi(running[i]) >= best * (1 - Real(1e-10)));
    RC_ASSERT(hi(running[i]) <= best * (1 + Real(1e-10)) + Real(1e-12));
  }
}

TEST(RdpRunning, ColumnIsNonDecreasingAndEndsAtTheFinalBudget) {
  Ledger ledger;
  for (int i = 0; i < 300; ++i)
    ledger.push_back(parse_entry("gaussian:sigma=" + std::to_string(0.8 + 0.002 * i) + ",q=0.01,steps=7"));
  const Target target = Target::for_delta(1e-6);
  const RunningBudget rb = running_budget(ledger, target, {AccountantKind::rdp}, 0);
  ASSERT_EQ(rb.series.size(), 1u);
  const auto& s = rb.series.front().bound;
  ASSERT_EQ(s.size(), ledger.size());
  for (std::size_t i = 1; i < s.size(); ++i) ASSERT_LE(hi(*s[i - 1]), hi(*s[i])) << i;
  const AccountingResult whole = compose(ledger, target, AccountantKind::rdp);
  EXPECT_EQ(hi(*s.back()), hi(whole.epsilon));
  EXPECT_EQ(lo(*s.back()), lo(whole.epsilon));
}

}  // namespace
}  // namespace dpl
