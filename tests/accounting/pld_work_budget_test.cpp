// The PLD's deterministic work limits (accounting/pld/pld_work_budget.h): scopes nest and a charge that does not
// fit throws and charges nothing; a PLD run over its limit is refused (NotApplicable), `auto` answers with the
// others; a calibration whose PLD search reaches its limit returns the best certified value (auto) or refuses (pld).
#include "accounting/pld/pld_work_budget.h"

#include "accounting/calibration/calibrate.h"
#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/numeric/decimal.h"

#include <gtest/gtest.h>

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

TEST(PldWorkBudget, WeightsGrowWithTheWork) {
  EXPECT_GT(pld_fft_convolution_work(1 << 20, false, false), pld_fft_convolution_work(1 << 20, true, false));
  EXPECT_GT(pld_fft_convolution_work(1 << 20, true, true), pld_fft_convolution_work(1 << 20, true, false));
  EXPECT_GT(pld_fft_convolution_work(1 << 21, true, false), 2 * pld_fft_convolution_work(1 << 20, true, false));
  EXPECT_EQ(pld_direct_convolution_work(10, 20), 230);
  // The joint product (2 transforms) costs as much as a squaring's transforms, less than the 5 it replaces.
  for (bool ext : {false, true}) {
    EXPECT_GT(pld_fft_joint_products_work(1 << 20, ext), pld_fft_convolution_work(1 << 20, true, ext));
    EXPECT_LT(pld_fft_joint_products_work(1 << 20, ext),
              pld_fft_convolution_work(1 << 20, true, ext) + pld_fft_convolution_work(1 << 20, false, ext));
  }
  EXPECT_GT(pld_fft_joint_products_work(1 << 20, true), pld_fft_joint_products_work(1 << 20, false));
  // The real-input squaring (two half-length transforms): about half a complex squaring, more in long double.
  for (bool ext : {false, true}) {
    const double real = pld_fft_real_squaring_work(1 << 20, ext), cplx = pld_fft_convolution_work(1 << 20, true, ext);
    EXPECT_GT(real, 0.45 * cplx);
    EXPECT_LT(real, 0.55 * cplx);
  }
  EXPECT_GT(pld_fft_real_squaring_work(1 << 20, true), pld_fft_real_squaring_work(1 << 20, false));
  EXPECT_GT(pld_discretisation_work(2000), pld_discretisation_work(1000));
}

TEST(PldWorkBudget, ARunOverItsLimitIsRefusedAndAutoAnswers) {
  // 10^6 composed steps of a subsampled Gaussian with sigma 0.001: a loss range of ~10^6 on a fine grid.
  const Ledger l = {parse_entry("gaussian:sigma=0.001,q=1e-5,steps=1e6")};
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
  EXPECT_EQ(r.value, cheap.value);  // the best value certified before the stop
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
