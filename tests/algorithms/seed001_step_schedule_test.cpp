// SPDX-License-Identifier: Apache-2.0
// Seed 001 (Wang-Nedic) step schedules: values, enclosures, exponents, the notes' sec. 2.6 feasibility table and
// the command-line reads.
#include "accounting/errors.h"
#include "algorithms/seed001/step_schedule.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

using namespace dpl;
using namespace dpl::algorithms;
using namespace dpl::algorithms::seed001;

TEST(Seed001StepSchedule, PaperSchedulesValues) {
  // Sec. VI: lambda = 0.02/(1+0.1k), gamma = 1/(1+0.1k^0.9), nu = 1+0.1k^0.3.
  EXPECT_DOUBLE_EQ(simulation_lambda().at(10), 0.02 / 2);
  EXPECT_DOUBLE_EQ(simulation_lambda().at(0), 0.02);
  EXPECT_NEAR(simulation_gamma().at(100), 1 / (1 + 0.1 * std::pow(100.0, 0.9)), 1e-15);
  EXPECT_NEAR(simulation_nu().at(1000), 1 + 0.1 * std::pow(1000.0, 0.3), 1e-14);
  EXPECT_DOUBLE_EQ(theorem2_lambda().at(4), 0.25);
  EXPECT_NEAR(theorem2_gamma().at(32), std::pow(32.0, -0.9), 1e-16);
  // The enclosure contains the double value and is narrow.
  for (std::int64_t k : {0, 1, 7, 1000, 123456}) {
    const Interval e = simulation_nu().enclose(k);
    EXPECT_LE(lo_down(e), simulation_nu().at(k) * (1 + 1e-15));
    EXPECT_GE(hi_up(e), simulation_nu().at(k) * (1 - 1e-15));
    EXPECT_LT(mid_double(width(e)), 1e-50);
  }
}

TEST(Seed001StepSchedule, ExponentsAndFeasibilityOfThePapersSchedules) {
  const PowerLawExponents e = exponents(simulation_lambda(), simulation_gamma(), simulation_nu());
  EXPECT_DOUBLE_EQ(e.u, 1);
  EXPECT_DOUBLE_EQ(e.v, 0.9);
  EXPECT_DOUBLE_EQ(e.w, 0.3);
  const auto rows = feasibility_table(e);
  ASSERT_EQ(rows.size(), 6u);
  // Theorem 1, Assumption 3 and the paper's finite-eps condition hold; the corrected one does not (notes 2.6).
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(rows[i].holds) << rows[i].condition;
  EXPECT_FALSE(rows[5].holds);
  EXPECT_NEAR(rows[5].value, 0.4, 1e-15);
  EXPECT_NEAR(rows[4].value, 1.3, 1e-15);
  // Theorem 2(3)'s lambda = 1/k, gamma = k^-0.9, nu ~ k^0.3: same exponents.
  const PowerLawExponents t = exponents(theorem2_lambda(), theorem2_gamma(), power_schedule(7.86, 0.3));
  EXPECT_DOUBLE_EQ(t.u, 1);
  EXPECT_DOUBLE_EQ(t.v, 0.9);
  EXPECT_DOUBLE_EQ(t.w, 0.3);
}

// Notes sec. 2.6: the corrected condition u - v + w > 1 is infeasible together with Assumption 3 and u <= 1.
RC_GTEST_PROP(Seed001StepSchedule, CorrectedConditionInfeasibleWithAssumption3, ()) {
  const double u = *rc::gen::inRange(0, 1001) / 1000.0;
  const double v = *rc::gen::inRange(0, 1001) / 1000.0;
  const double w = *rc::gen::inRange(0, 1001) / 1000.0;
  const auto rows = feasibility_table({u, v, w});
  RC_ASSERT(!(rows[1].holds && rows[3].holds && rows[5].holds));
}

TEST(Seed001StepSchedule, ReadsFromParametersAndRejectsBadValues) {
  auto p = RunParameters::from_assignments({"lambda_form=power", "lambda_a=1", "lambda_c=-1", "nu_b=0.5"});
  const StepSchedule l = read_schedule(p, "lambda", simulation_lambda());
  const StepSchedule n = read_schedule(p, "nu", simulation_nu());
  EXPECT_EQ(l.form, ScheduleForm::power);
  EXPECT_DOUBLE_EQ(l.at(8), 0.125);
  EXPECT_DOUBLE_EQ(n.b, 0.5);
  EXPECT_DOUBLE_EQ(n.c, 0.3);
  EXPECT_EQ(p.resolved()["nu_form"], "affine");
  auto bad = RunParameters::from_assignments({"gamma_form=cubic"});
  EXPECT_THROW(read_schedule(bad, "gamma", simulation_gamma()), InputError);
  // Positivity and gamma <= 1.
  EXPECT_THROW(require_positive(power_schedule(1, -1), "lambda", 0), InputError);  // 1/k at k = 0
  EXPECT_THROW(require_positive(power_schedule(1, 0.3), "nu", 0), InputError);     // 0 at k = 0
  EXPECT_NO_THROW(require_positive(simulation_nu(), "nu", 0));
  EXPECT_THROW(require_nonincreasing_at_most_one(power_schedule(2, -0.5), "gamma", 1), InputError);
  EXPECT_THROW(require_nonincreasing_at_most_one(power_schedule(1, 0.5), "gamma", 1), InputError);
  EXPECT_NO_THROW(require_nonincreasing_at_most_one(simulation_gamma(), "gamma", 0));
  try {
    require_nonincreasing_at_most_one(power_schedule(2, -0.5), "gamma", 1);
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("gamma"), std::string::npos);
  }
}
