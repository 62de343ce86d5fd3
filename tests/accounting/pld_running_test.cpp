// SPDX-License-Identifier: Apache-2.0
// The running budget's checkpoints and the PLD's running composition: `--every K` thins by steps of the whole ledger
// whatever the entries' sizes (a per-step log included); the PLD's running epsilon at each checkpoint lies between the
// certified lower bound and a few percent above the upper bound of compose_pld on that prefix (two-sided, so a
// running composition that skipped or repeated a segment is caught); a per-step log keeps its pld column.
#include "accounting/composition/compose.h"
#include "accounting/composition/running_budget.h"
#include "accounting/errors.h"
#include "accounting/numeric/decimal.h"
#include "accounting/pld/pld_running.h"

#include <gtest/gtest.h>

#include <string>

namespace dpl {
namespace {

Ledger per_step_log(int lines, const std::string& spec) {
  Ledger ledger;
  const LedgerEntry e = parse_entry(spec);
  for (int i = 0; i < lines; ++i) ledger.push_back(e);
  return ledger;
}

TEST(RunningCheckpoints, EveryThinsByStepsWhateverTheEntrySizes) {
  // 10,000 one-step entries, every 1000: 10 checkpoints at 1000, 2000, ..., 10000.
  const auto cps = running_checkpoints(per_step_log(10000, "gaussian:sigma=1.1,q=0.01"), 1000);
  ASSERT_EQ(cps.size(), 10u);
  for (std::size_t i = 0; i < cps.size(); ++i) {
    EXPECT_EQ(cps[i].total_steps, static_cast<std::int64_t>(1000 * (i + 1)));
    EXPECT_EQ(cps[i].entry, 1000 * (i + 1) - 1);
    EXPECT_EQ(cps[i].steps_in_entry, 1);
  }
  // Entries of 2500 and 700 steps, every 1000: 1000, 2000, 3000 and the last step 3200.
  Ledger two{parse_entry("gaussian:sigma=1,steps=2500"), parse_entry("gaussian:sigma=2,steps=700")};
  const auto c2 = running_checkpoints(two, 1000);
  ASSERT_EQ(c2.size(), 4u);
  EXPECT_EQ(c2[2].total_steps, 3000);
  EXPECT_EQ(c2[2].entry, 1u);
  EXPECT_EQ(c2[2].steps_in_entry, 500);
  EXPECT_EQ(c2[3].total_steps, 3200);
  EXPECT_EQ(c2[3].steps_in_entry, 700);
  // every 0: one per entry; too many are refused before any is made.
  EXPECT_EQ(running_checkpoints(two, 0).size(), 2u);
  EXPECT_THROW(running_checkpoints(per_step_log(1000, "gaussian:sigma=1"), 0, 999), InputError);
  EXPECT_THROW(running_checkpoints(two, 1, 3199), InputError);
  EXPECT_EQ(running_checkpoints(two, 1, 3200).size(), 3200u);
}

TEST(PldRunning, BetweenThePrefixBounds) {
  // A change of noise in the middle of a per-step-like ledger (entries of 250 steps), checkpoints every 1000 steps.
  Ledger ledger;
  for (int i = 0; i < 12; ++i)
    ledger.push_back(parse_entry(i < 8 ? "gaussian:sigma=1.1,q=0.01,steps=250" : "gaussian:sigma=0.9,q=0.02,steps=250"));
  const auto cps = running_checkpoints(ledger, 1000);
  ASSERT_EQ(cps.size(), 3u);
  const double delta = 1e-5;
  const auto eps = pld_running_epsilon(ledger, cps, delta, 200);
  ASSERT_EQ(eps.size(), cps.size());
  EXPECT_FALSE(eps.back().has_value());  // the caller's whole-ledger value
  for (std::size_t i = 0; i + 1 < cps.size(); ++i) {
    ASSERT_TRUE(eps[i].has_value()) << i;
    const AccountingResult prefix = compose(prefix_ledger(ledger, cps[i]), Target::for_delta(delta), AccountantKind::pld);
    ASSERT_TRUE(prefix.lower.has_value());
    EXPECT_GE(Real(*eps[i]), lo(*prefix.lower)) << "checkpoint " << i;
    EXPECT_LE(Real(*eps[i]), hi(prefix.epsilon) * Real(1.03)) << "checkpoint " << i;
  }
}

TEST(PldRunning, PerStepLogKeepsItsPldColumn) {
  const Ledger ledger = per_step_log(10000, "gaussian:sigma=1.1,q=0.01");
  const Target target = Target::for_delta(1e-5);
  const RunningBudget rb = running_budget(ledger, target, {AccountantKind::pld}, 1000);
  ASSERT_EQ(rb.checkpoints.size(), 10u);
  ASSERT_EQ(rb.series.size(), 1u) << (rb.not_applicable.empty() ? "" : rb.not_applicable.front());
  const auto& s = rb.series.front().bound;
  for (std::size_t i = 0; i < s.size(); ++i) ASSERT_TRUE(s[i].has_value()) << i;
  for (std::size_t i = 1; i < s.size(); ++i) EXPECT_LE(hi(*s[i - 1]), hi(*s[i])) << i;
  const AccountingResult whole = compose(ledger, target, AccountantKind::pld);
  EXPECT_EQ(hi(*s.back()), hi(whole.epsilon));
}

}  // namespace
}  // namespace dpl
