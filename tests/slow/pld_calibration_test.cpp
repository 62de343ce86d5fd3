// SPDX-License-Identifier: Apache-2.0
// Calibration of q and steps under auto, where the PLD accountant wins: the rdp answer locates it, the PLD search
// runs on one fixed grid and only the answer is certified by the full accountant. The answer fed back to compose
// meets the target; q is tight (within 1e-4 of the target epsilon) and two more steps do not meet it.
#include "accounting/calibration/calibrate.h"
#include "accounting/composition/compose.h"
#include "accounting/numeric/decimal.h"

#include <gtest/gtest.h>

#include <cmath>

namespace dpl {
namespace {

double eps_of(const Ledger& l, double delta, AccountantKind k) {
  return hi_up(compose(l, Target::for_delta(delta), k).epsilon);
}

TEST(PldCalibration, LargestQUnderAutoIsCertifiedAndTight) {
  const auto q = calibrate({"gaussian:sigma=1.1,q=?,steps=1000"}, 1.0, 1e-5, AccountantKind::automatic, 0);
  EXPECT_EQ(q.at_value.accountant, "pld");
  const double at = eps_of(q.ledger, 1e-5, AccountantKind::automatic);
  EXPECT_LE(at, 1.0);
  EXPECT_GE(at, 1.0 - 1e-4);
  EXPECT_GT(q.failing, q.value);
}

TEST(PldCalibration, LargestStepsUnderAutoIsCertifiedAndExact) {
  const auto k = calibrate({"gaussian:sigma=1.1,q=0.01,steps=?"}, 1.0, 1e-5, AccountantKind::automatic, 0);
  EXPECT_EQ(k.value, std::floor(k.value));
  EXPECT_LE(eps_of(k.ledger, 1e-5, AccountantKind::automatic), 1.0);
  EXPECT_GT(eps_of({parse_entry("gaussian:sigma=1.1,q=0.01,steps=" + format_input(k.value + 2))}, 1e-5,
                   AccountantKind::pld), 1.0);
}

}  // namespace
}  // namespace dpl
