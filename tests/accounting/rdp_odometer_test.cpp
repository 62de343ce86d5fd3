// SPDX-License-Identifier: Apache-2.0
// The RDP odometer: on the running budget's integer orders it reads exactly rdp_running_epsilon at every
// checkpoint (the same bound, bit for bit); steps given one at a time read as the same steps given at once; on
// dp_accounting's default orders the DP-SGD reading is a certified upper bound on the public reference value of
// that grid and within rounding of it; a miscalibrated twin (sigma 1% smaller) reads above it.
#include "accounting/composition/running_budget.h"
#include "accounting/errors.h"
#include "accounting/rdp/rdp_odometer.h"
#include "accounting/rdp/rdp_running.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <string>

namespace dpl {
namespace {

// dp_accounting's DEFAULT_RDP_ORDERS: 1.1 .. 10.9 by 0.1, 11 .. 63, 128, 256, 512, 1024.
std::vector<double> dp_accounting_orders() {
  std::vector<double> o;
  for (int x = 1; x < 100; ++x) o.push_back(1 + x / 10.0);
  for (int a = 11; a < 64; ++a) o.push_back(a);
  for (double a : {128.0, 256.0, 512.0, 1024.0}) o.push_back(a);
  return o;
}

RC_GTEST_PROP(RdpOdometer, ReadsTheRunningBudgetAtEveryCheckpoint, (unsigned a, unsigned b, unsigned c)) {
  Ledger ledger;
  const int entries = 1 + static_cast<int>(a % 4);
  for (int i = 0; i < entries; ++i) {
    const double sigma = 0.6 + static_cast<double>((b >> (3 * i)) % 8) * 0.3;
    const bool laplace = (c >> (20 + i)) % 5 == 0;
    const double q = 0.002 * static_cast<double>(1 + (c >> (4 * i)) % 16);
    const std::string steps = std::to_string(1 + (a >> (2 + 3 * i)) % 300);
    ledger.push_back(parse_entry(laplace ? "laplace:b=" + std::to_string(3 * sigma) + ",steps=" + steps
                                         : "gaussian:sigma=" + std::to_string(sigma) + ",q=" + std::to_string(q) +
                                               ",steps=" + steps));
  }
  const double delta = std::pow(10.0, -3.0 - static_cast<double>(b % 8));
  const auto checkpoints = running_checkpoints(ledger, 1 + static_cast<std::int64_t>(c % 97));
  const auto expected = rdp_running_epsilon(ledger, checkpoints, delta);
  RdpOdometer meter(rdp_running_orders());
  std::size_t entry = 0;
  std::int64_t in_entry = 0;
  for (std::size_t i = 0; i < checkpoints.size(); ++i) {
    const auto& cp = checkpoints[i];
    while (entry < cp.entry) {  // finish the entries before the checkpoint's
      if (in_entry == 0) meter.add(ledger[entry], ledger[entry].steps);
      else meter.extend(ledger[entry].steps - in_entry);
      ++entry;
      in_entry = 0;
    }
    if (in_entry == 0) meter.add(ledger[entry], cp.steps_in_entry);
    else meter.extend(cp.steps_in_entry - in_entry);
    in_entry = cp.steps_in_entry;
    RC_ASSERT(hi(meter.epsilon(delta).epsilon) == hi(expected[i]));
    RC_ASSERT(meter.total_steps() == cp.total_steps);
  }
}

TEST(RdpOdometer, StepByStepReadsAsAllAtOnce) {
  const LedgerEntry e = parse_entry("gaussian:sigma=0.9,q=0.02");
  RdpOdometer one_by_one(dp_accounting_orders()), at_once(dp_accounting_orders());
  one_by_one.add(e, 1);
  for (int k = 2; k <= 1000; ++k) one_by_one.extend(1);
  at_once.add(e, 1000);
  const auto a = one_by_one.epsilon(1e-5), b = at_once.epsilon(1e-5);
  EXPECT_EQ(hi(a.epsilon), hi(b.epsilon));
  EXPECT_EQ(a.order, b.order);
  EXPECT_EQ(one_by_one.total_steps(), 1000);
  at_once.clear();
  EXPECT_EQ(hi(at_once.epsilon(1e-5).epsilon), 0);
}

// Public reference (40-50 digits from the exact binary64 inputs): dp_accounting's RDP epsilon for DP-SGD (q 0.01,
// sigma 1.1, 10^4 steps, delta 1e-5) on its default orders, improved conversion = 5.631992368681801816.
TEST(RdpOdometer, DpSgdOnDpAccountingsOrdersIsACertifiedBoundOnTheReference) {
  RdpOdometer meter(dp_accounting_orders());
  meter.add(parse_entry("gaussian:sigma=1.1,q=0.01"), 10000);
  const auto r = meter.epsilon(1e-5);
  EXPECT_GE(hi(r.epsilon), Real("5.631992368681801816"));
  EXPECT_LE(hi(r.epsilon), Real("5.631992368681801816") * (1 + Real(1e-12)));
  // The twin with 1% less noise must read clearly above.
  RdpOdometer twin(dp_accounting_orders());
  twin.add(parse_entry("gaussian:sigma=1.089,q=0.01"), 10000);
  EXPECT_GT(hi(twin.epsilon(1e-5).epsilon), Real("5.631992368681801816") * 1.005);
}

TEST(RdpOdometer, RefusesBadInput) {
  EXPECT_THROW(RdpOdometer({1.0}), InputError);
  EXPECT_THROW(RdpOdometer({}), InputError);
  RdpOdometer meter({2, 3.5});
  EXPECT_THROW(meter.extend(1), InputError);
  EXPECT_THROW(meter.add(parse_entry("approx:eps=1,delta=1e-6"), 1), NotApplicable);
  meter.add(parse_entry("laplace:b=1"), 1);
  EXPECT_THROW(meter.epsilon(0), InputError);
  EXPECT_THROW(meter.add(parse_entry("laplace:b=1"), -1), InputError);
}

}  // namespace
}  // namespace dpl
