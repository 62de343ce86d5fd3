// SPDX-License-Identifier: Apache-2.0
// Order infinity in the RDP accountant: a ledger whose curve is finite at infinity (pure DP) is reported at that
// pure bound where the finite orders give more (three Laplace steps at delta 1e-30: exactly 3, the finite orders
// about 3 + log(1/delta)/alpha); delta is 0 for eps at or above it. Repeat and select (Papernot and Steinke 2022):
// mean 1 is the run itself at every order; a pure run under the truncated negative binomial is (2 + shape) eps-DP.
#include "accounting/composition/compose.h"
#include "accounting/numeric/decimal.h"
#include "accounting/rdp/rdp_accountant.h"
#include "accounting/rdp/rdp_conversion.h"

#include <gtest/gtest.h>

#include <cmath>

namespace dpl {
namespace {

TEST(RdpOrderInfinity, PureLedgerAtATinyDeltaIsItsPureBound) {
  const Ledger l{parse_entry("laplace:b=1,steps=3")};
  const AccountingResult r = compose(l, Target::for_delta(1e-30), AccountantKind::rdp);
  EXPECT_LE(hi(r.epsilon), 3 * (1 + 1e-15));
  EXPECT_GE(hi(r.epsilon), 3);
  ASSERT_TRUE(r.order.has_value());
  EXPECT_TRUE(std::isinf(*r.order));
  // The twin: the best finite order's conversion is above it (what was reported before).
  const ComposedRdp rdp(l);
  const Interval at_big = rdp_to_epsilon(rdp.certified_at(1e6), Real(1e6), 1e-30);
  EXPECT_GT(lo(at_big), hi(r.epsilon));
  const AccountingResult d = compose(l, Target::for_epsilon(3), AccountantKind::rdp);
  EXPECT_EQ(hi(d.delta), 0);
}

TEST(RdpOrderInfinity, GaussianHasNoPureBound) {
  const AccountingResult r = compose({parse_entry("gaussian:sigma=1,steps=3")}, Target::for_delta(1e-30), AccountantKind::rdp);
  ASSERT_TRUE(r.order.has_value());
  EXPECT_TRUE(std::isfinite(*r.order));
}

TEST(RdpOrderInfinity, RepeatAndSelectOfMeanOneIsTheRun) {
  const ComposedRdp run({parse_entry("gaussian:sigma=2,steps=10")});
  const ComposedRdp select({parse_entry("select:mean=1,shape=1,run=[gaussian:sigma=2,steps=10]")});
  for (const double a : {1.000001, 1.5, 2.0, 10.0, 100.0}) EXPECT_EQ(hi(select.at(Real(a))), hi(run.at(Real(a)))) << a;
}

TEST(RdpOrderInfinity, PureRunUnderTheTruncatedNegativeBinomialIsTwoPlusShapeTimesEps) {
  for (const double shape : {0.0, 0.5, 1.0, 2.0}) {
    char spec[96];
    std::snprintf(spec, sizeof spec, "select:mean=10,shape=%g,run=[laplace:b=1]", shape);
    const ComposedRdp select({parse_entry(spec)});
    EXPECT_NEAR(hi_up(select.at_infinity()), 2 + shape, 1e-12) << spec;
    EXPECT_GE(hi(select.at_infinity()), 2 + shape) << spec;
  }
  const ComposedRdp poisson({parse_entry("select:mean=10,shape=inf,run=[laplace:b=1]")});
  EXPECT_FALSE(is_finite(poisson.at_infinity()));
}

}  // namespace
}  // namespace dpl
