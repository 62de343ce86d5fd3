// SPDX-License-Identifier: Apache-2.0
// The PLD's deterministic work limits (accounting/pld/pld_work_budget.h): scopes nest and a charge that does not
// fit throws and charges nothing; an isolated scope keeps its charges (the lower bound computed beside the upper
// passes, charged afterwards or dropped); a PLD run over its limit is refused (NotApplicable), `auto` answers with the
// others; a calibration whose PLD search reaches its limit returns the best certified value (auto) or refuses (pld).
#include "accounting/pld/pld_work_budget.h"

#include "accounting/calibration/calibrate.h"
#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/numeric/decimal.h"
#include "accounting/pld/pld_accountant.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <string>

namespace dpl {
namespace {

TEST(PldWorkBudget, ChargesCountAgainstEveryOpenScope) {
  PldWorkScope outer(100, "outer");
  {
    PldWorkScope inner(50, "inner");
    charge_pld_work(30);
    EXPECT_EQ(inner.used(), 30);
    EXPECT_EQ(outer.used(), 30);
    // 30 + 30 fits the outer limit but not the inner one: thrown, nothing charged, the inner scope exhausted.
    EXPECT_THROW(charge_pld_work(30), PldWorkLimit);
    EXPECT_EQ(inner.used(), 30);
    EXPECT_EQ(outer.used(), 30);
    EXPECT_TRUE(inner.exhausted());
  }
  charge_pld_work(60);  // the inner scope is closed: only the outer one counts
  EXPECT_EQ(outer.used(), 90);
  EXPECT_FALSE(outer.exhausted());
  try {
    charge_pld_work(11);
    FAIL() << "a charge over the outer limit must throw";
  } catch (const PldWorkLimit& e) {
    EXPECT_EQ(e.limit, 100);
    EXPECT_NE(std::string(e.what()).find("outer"), std::string::npos) << e.what();
  }
}

TEST(PldWorkBudget, NoScopeNoLimitAndTheLimitIsNotApplicable) {
  charge_pld_work(1e300);  // no open scope: nothing to exceed
  PldWorkScope s(1, "tiny");
  EXPECT_THROW(charge_pld_work(2), NotApplicable);  // the CLI maps it to exit 2
}

TEST(PldWorkBudget, AnIsolatedScopeKeepsItsChargesAndCanBeStopped) {
  PldWorkScope outer(100, "outer");
  charge_pld_work(40);
  EXPECT_EQ(pld_work_remaining(), 60);
  std::atomic<bool> stop{false};
  {
    PldWorkScope isolated(pld_work_remaining(), "isolated", PldWorkScope::Isolated{&stop});
    charge_pld_work(50);  // counted in the isolated scope only
    EXPECT_EQ(isolated.used(), 50);
    EXPECT_EQ(outer.used(), 40);
    EXPECT_EQ(pld_work_remaining(), 10);  // what is left in the isolated scope, the innermost
    EXPECT_THROW(charge_pld_work(11), PldWorkLimit);  // its own limit (60)
    stop = true;
    EXPECT_THROW(charge_pld_work(1), PldWorkLimit);  // stopped: every further charge throws
    EXPECT_EQ(isolated.used(), 50);
  }
  EXPECT_EQ(outer.used(), 40);  // nothing reached the outer scope
  EXPECT_EQ(pld_work_remaining(), 60);
}

TEST(PldWorkBudget, TheLowerBoundRunsBesideTheUpperPassesAndIsDroppedWhenItDoesNotFit) {
  // DP-SGD-like ledger (add and remove directions): the lower pass runs on the helper thread while the fine grid is
  // composed here, charged afterwards. With a limit that fits the upper passes but not the lower one, the upper
  // bound is the same and the lower bound is dropped; with room for both, the lower bound is the one computed by a
  // run whose target is the lower target itself.
  const Ledger l = {parse_entry("gaussian:sigma=1.1,q=0.01,steps=300")};
  const double below = 1e-5, above = std::nextafter(1e-5, 1.0);
  // One run under a scope of its own: its result, and the work it charged.
  auto measured = [&](const PldOptions& options, double& work) {
    PldWorkScope measure(kPldWorkPerRun, "measure");
    AccountingResult r = compose_pld(l, Target::for_delta(below), options);
    work = measure.used();
    return r;
  };
  PldOptions o;
  o.lower_target = above;
  double full_work = 0, upper_work = 0;
  const AccountingResult both = measured(o, full_work);
  ASSERT_TRUE(both.lower.has_value());
  PldOptions upper_only = o;
  upper_only.lower = false;
  const AccountingResult up = measured(upper_only, upper_work);
  EXPECT_FALSE(up.lower.has_value());
  EXPECT_EQ(hi(up.epsilon), hi(both.epsilon));
  ASSERT_GT(full_work, upper_work);
  // The lower bound read at `above` is the one a run at `above` reports.
  const AccountingResult at_above = compose_pld(l, Target::for_delta(above));
  ASSERT_TRUE(at_above.lower.has_value());
  EXPECT_EQ(lo(*both.lower), lo(*at_above.lower));
  EXPECT_LE(lo(*both.lower), hi(both.epsilon));
  // Room for the upper passes but not for the lower one: the same upper bound, no lower bound, and the limit's
  // remainder unspent (the lower pass's work is not charged when it is dropped).
  {
    PldWorkScope tight((upper_work + full_work) / 2, "tight");
    const AccountingResult r = compose_pld(l, Target::for_delta(below), o);
    EXPECT_EQ(hi(r.epsilon), hi(both.epsilon));
    EXPECT_FALSE(r.lower.has_value());
    EXPECT_EQ(r.note.find(kPldLowerBoundNote), std::string::npos) << r.note;
    // (Equal up to the order in which the two threads' charges were summed in double.)
    EXPECT_NEAR(tight.used(), upper_work, 1e-12 * upper_work);
  }
  // Not even room for the upper passes: refused, as before (the lower pass does not change where it stops).
  {
    PldWorkScope tighter(upper_work / 2, "tighter");
    EXPECT_THROW(compose_pld(l, Target::for_delta(below), o), PldWorkLimit);
  }
}

TEST(PldWorkBudget, WeightsGrowWithTheWork) {
  for (bool ext : {false, true}) {
    // A product (three half-length transforms) costs more than a squaring (two), and doubling n more than doubles.
    EXPECT_GT(pld_fft_real_product_work(1 << 20, ext), pld_fft_real_squaring_work(1 << 20, ext));
    EXPECT_GT(pld_fft_real_squaring_work(1 << 21, ext), 2 * pld_fft_real_squaring_work(1 << 20, ext));
    EXPECT_GT(pld_fft_real_product_work(1 << 21, ext), 2 * pld_fft_real_product_work(1 << 20, ext));
    // The joint products (two transforms of length n) cost more than the product alone, less than the product and
    // the squaring they replace.
    EXPECT_GT(pld_fft_joint_products_work(1 << 20, ext), pld_fft_real_product_work(1 << 20, ext));
    EXPECT_LT(pld_fft_joint_products_work(1 << 20, ext),
              pld_fft_real_product_work(1 << 20, ext) + pld_fft_real_squaring_work(1 << 20, ext));
  }
  EXPECT_EQ(pld_direct_convolution_work(10, 20), 230);
  // Double words cost more than doubles.
  EXPECT_GT(pld_fft_joint_products_work(1 << 20, true), pld_fft_joint_products_work(1 << 20, false));
  EXPECT_GT(pld_fft_real_squaring_work(1 << 20, true), pld_fft_real_squaring_work(1 << 20, false));
  EXPECT_GT(pld_fft_real_product_work(1 << 20, true), pld_fft_real_product_work(1 << 20, false));
  EXPECT_GT(pld_discretisation_work(2000), pld_discretisation_work(1000));
}

TEST(PldWorkBudget, ARunOverItsLimitIsRefusedAndAutoAnswers) {
  // 10^6 composed steps of a subsampled Gaussian with sigma 0.3 and q 0.5: a wide loss range on a fine grid.
  // (sigma 0.001 with q 1e-5, the input here before, is answered since products take three half-length transforms.)
  const Ledger l = {parse_entry("gaussian:sigma=0.3,q=0.5,steps=1e6")};
  try {
    compose(l, Target::for_delta(0.1), AccountantKind::pld);
    FAIL() << "the PLD must refuse this ledger";
  } catch (const PldWorkLimit& e) {
    EXPECT_EQ(e.limit, kPldWorkPerRun);
  }
  const AccountingResult a = compose(l, Target::for_delta(0.1), AccountantKind::automatic);
  EXPECT_EQ(a.accountant, "rdp");
  EXPECT_TRUE(is_finite(a.epsilon));
}

TEST(PldWorkBudget, ACalibrationThatReachesTheLimitReturnsTheBestCertifiedValueUnderAuto) {
  // Under auto the search first finds rdp's answer (tolerance 1e-4), then runs every accountant there (the PLD
  // wins), then searches with the PLD. An outer scope that holds that first evaluation's work and 5% more stops
  // the search at its next PLD run (the work is deterministic).
  const std::vector<std::string> specs = {"gaussian:sigma=?,q=0.01,steps=1000"};
  const CalibrationResult cheap = calibrate(specs, 1.0, 1e-5, AccountantKind::rdp, 1e-4);
  double first = 0;
  {
    PldWorkScope measure(1e12, "measure");
    EXPECT_EQ(compose(cheap.ledger, Target::for_delta(1e-5), AccountantKind::automatic).accountant, "pld");
    first = measure.used();
  }
  ASSERT_GT(first, 0);
  PldWorkScope small(first * 1.05, "the test's small limit");
  const CalibrationResult r = calibrate(specs, 1.0, 1e-5, AccountantKind::automatic, 0);
  EXPECT_NE(r.at_value.note.find("the PLD search stopped at its work limit"), std::string::npos) << r.at_value.note;
  // The best value certified before the stop: rdp's answer or one of the search's certified points just above it
  // (the auto evaluations also bound the unsampled ledger and compute lower bounds, so the point where the work
  // runs out moves with them).
  EXPECT_GE(r.value, cheap.value);
  EXPECT_LE(r.value, cheap.value * 1.01);
  EXPECT_LE(hi_up(compose(r.ledger, Target::for_delta(1e-5), AccountantKind::rdp).epsilon), 1.0);
  // Under pld the same limit is an error naming it.
  try {
    calibrate(specs, 1.0, 1e-5, AccountantKind::pld, 0);
    FAIL() << "pld must refuse at the limit";
  } catch (const NotApplicable& e) {
    EXPECT_NE(std::string(e.what()).find("work limit"), std::string::npos) << e.what();
  }
}

TEST(PldWorkBudget, AnInfeasibleTargetIsRefusedByTheOtherEntriesLowerBound) {
  // rr:eps=40 for 1000 steps alone has epsilon near 40000 at delta 0.01: no q can reach 16.52.
  try {
    calibrate({"gaussian:sigma=1.1,q=?,steps=100", "rr:eps=40,steps=1000"}, 16.52, decimal_value("0.01").down,
              AccountantKind::automatic, 0);
    FAIL() << "infeasible";
  } catch (const NotApplicable& e) {
    const std::string w = e.what();
    EXPECT_NE(w.find("the other mechanisms alone have epsilon >="), std::string::npos) << w;
    EXPECT_NE(w.find("at delta 0.01:"), std::string::npos) << w;  // the decimal typed, not 0.009999999999999998
  }
}

TEST(FormatTarget, PrintsTheDecimalTypedFromItsDoubleBelow) {
  for (const char* s : {"1e-05", "0.01", "0.3", "0.1", "1e-300", "0.999999", "16.52", "5"})
    EXPECT_EQ(format_target(decimal_value(s).down), s);
}

}  // namespace
}  // namespace dpl
