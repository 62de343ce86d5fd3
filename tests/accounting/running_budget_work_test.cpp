// SPDX-License-Identifier: Apache-2.0
// The running budget's columns other than the PLD's stop on counted work, not on CPU time, so that a ledger gets the
// same checkpoints (and the same note) on every machine: the optimal accountant on a Gaussian ledger (about 100 ms
// an evaluation) is cut after the evaluations its 0.5 s of counted work allows, the same way every time; a cheap
// accountant's column is never cut.
#include "accounting/composition/running_budget.h"
#include "accounting/numeric/decimal.h"

#include <gtest/gtest.h>

#include <string>

namespace dpl {
namespace {

std::size_t evaluated(const RunningSeries& s) {
  std::size_t k = 0;
  for (const auto& b : s.bound) k += b.has_value();
  return k;
}

TEST(RunningBudgetWork, CostlyColumnIsCutByCountedWorkTheSameWayEveryTime) {
  const Ledger ledger{parse_entry("gaussian:sigma=20,steps=1000")};
  const Target target = Target::for_delta(1e-6);
  const RunningBudget a = running_budget(ledger, target, {AccountantKind::optimal}, 10);
  const RunningBudget b = running_budget(ledger, target, {AccountantKind::optimal}, 10);
  ASSERT_EQ(a.series.size(), 1u);
  ASSERT_EQ(a.notes.size(), 1u);
  // 5e5 units of 1e5 + 100 each: four checkpoints and the last (the whole ledger's), of the 100 planned.
  EXPECT_NE(a.notes.front().find("evaluated at 5 of the 100 planned checkpoints"), std::string::npos) << a.notes.front();
  EXPECT_EQ(a.notes, b.notes);
  ASSERT_EQ(a.series.front().bound.size(), b.series.front().bound.size());
  for (std::size_t i = 0; i < a.series.front().bound.size(); ++i) {
    ASSERT_EQ(a.series.front().bound[i].has_value(), b.series.front().bound[i].has_value()) << i;
    if (a.series.front().bound[i]) EXPECT_EQ(hi(*a.series.front().bound[i]), hi(*b.series.front().bound[i])) << i;
  }
}

TEST(RunningBudgetWork, CheapColumnIsNotCut) {
  const Ledger ledger{parse_entry("laplace:b=10,steps=1000")};
  const RunningBudget r = running_budget(ledger, Target::for_delta(1e-6), {AccountantKind::basic}, 10);
  ASSERT_EQ(r.series.size(), 1u);
  EXPECT_TRUE(r.notes.empty());
  EXPECT_EQ(evaluated(r.series.front()), r.checkpoints.size());
}

}  // namespace
}  // namespace dpl
