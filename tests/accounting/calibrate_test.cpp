// SPDX-License-Identifier: Apache-2.0
// Calibration: reference values, the certified round trip (the answer fed back to compose meets the target),
// optimality (the other end of the bracket does not), and input validation.
#include "accounting/calibration/calibrate.h"
#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/numeric/decimal.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>

namespace dpl {
namespace {

double eps_of(const Ledger& l, double delta, AccountantKind k) {
  return hi_up(compose(l, Target::for_delta(delta), k).epsilon);
}

TEST(Calibrate, FullBatchGaussianReference) {
  // Public reference value: smallest sigma, full-batch Gaussian, 100 steps, eps=1, delta=1e-5.
  const auto r = calibrate({"gaussian:sigma=?,steps=100"}, 1.0, 1e-5, AccountantKind::automatic, 0);
  EXPECT_EQ(r.parameter, "sigma");
  EXPECT_TRUE(r.smallest);
  EXPECT_GE(r.value, 37.30631634815941813);
  EXPECT_LE(r.value, 37.30631634815941813 * (1 + 1e-14));
  EXPECT_EQ(format_input(r.value).substr(0, 16), "37.3063163481594");
  EXPECT_LE(eps_of(r.ledger, 1e-5, AccountantKind::optimal), 1.0);
}

TEST(Calibrate, EachParameterKind) {
  // The largest steps for pure eps=0.1 under optimal composition at (5, 1e-5): checked against compose.
  const auto s = calibrate({"pure:eps=0.1,steps=?"}, 5.0, 1e-5, AccountantKind::optimal, 0);
  EXPECT_FALSE(s.smallest);
  EXPECT_EQ(s.value, std::floor(s.value));
  EXPECT_LE(eps_of({parse_entry("pure:eps=0.1,steps=" + format_input(s.value))}, 1e-5, AccountantKind::optimal), 5.0);
  EXPECT_GT(eps_of({parse_entry("pure:eps=0.1,steps=" + format_input(s.value + 1))}, 1e-5, AccountantKind::optimal), 5.0);
  // Laplace scale under pure composition: exactly sens * steps / eps = 10 (rounded up).
  const auto b = calibrate({"laplace:b=?,steps=10"}, 1.0, 0.0, AccountantKind::pure, 0);
  EXPECT_GE(b.value, 10.0);
  EXPECT_LE(b.value, 10.0 * (1 + 1e-14));
  // q in (0, 1]: q = 1 when even full participation meets the target.
  EXPECT_EQ(calibrate({"pure:eps=0.1,q=?"}, 1.0, 0.0, AccountantKind::pure, 0).value, 1.0);
  const auto q = calibrate({"pure:eps=1,q=?,steps=100"}, 2.0, 1e-5, AccountantKind::optimal, 0);
  EXPECT_GT(q.value, 0.0);
  EXPECT_LT(q.value, 1.0);
  EXPECT_LT(q.value, q.failing);
  // The discrete Laplace parameter a (larger is less noise): the largest a; pure eps = a sens steps, so 3/(2*5).
  const auto a = calibrate({"discrete_laplace:a=?,sens=2,steps=5"}, 3.0, 0.0, AccountantKind::pure, 0);
  EXPECT_FALSE(a.smallest);
  EXPECT_LE(a.value, 0.3);
  EXPECT_GE(a.value, 0.3 * (1 - 1e-14));
  EXPECT_LE(eps_of(a.ledger, 0.0, AccountantKind::pure), 3.0);
}

TEST(Calibrate, RejectsBadRequests) {
  EXPECT_THROW(calibrate({"gaussian:sigma=1"}, 1, 1e-5, AccountantKind::automatic, 0), InputError);
  EXPECT_THROW(calibrate({"gaussian:sigma=?", "laplace:b=?"}, 1, 1e-5, AccountantKind::automatic, 0), InputError);
  EXPECT_THROW(calibrate({"iteration:sigma=1,steps=?"}, 1, 1e-5, AccountantKind::automatic, 0), InputError);
  EXPECT_THROW(calibrate({"gaussian:sigma=?"}, 1, 1e-5, AccountantKind::automatic, 0.5), InputError);
  // No sigma makes a Gaussian pure: the accountant never applies.
  EXPECT_THROW(calibrate({"gaussian:sigma=?"}, 1, 1e-5, AccountantKind::pure, 0), NotApplicable);
  // Even one step is too much.
  EXPECT_THROW(calibrate({"pure:eps=2,steps=?"}, 1, 0, AccountantKind::pure, 0), NotApplicable);
}

double unit(unsigned v, double lo, double hi) { return lo + (hi - lo) * (v % 10001) / 10000.0; }

RC_GTEST_PROP(Calibrate, SigmaRoundTripIsCertifiedAndTight, (unsigned a, unsigned b, unsigned c)) {
  const double eps = unit(a, 0.1, 8.0);
  const double delta = std::pow(10.0, -unit(b, 2, 12));
  const int steps = 1 + static_cast<int>(c % 5000);
  const auto r = calibrate({"gaussian:sigma=?,steps=" + std::to_string(steps)}, eps, delta,
                           AccountantKind::optimal, 1e-10);
  RC_ASSERT(eps_of(r.ledger, delta, AccountantKind::optimal) <= eps);
  RC_ASSERT(r.failing < r.value);
  RC_ASSERT(r.value - r.failing <= 2e-10 * r.value);
  // The other end of the bracket is not certified to meet the target.
  const Ledger below{parse_entry("gaussian:sigma=" + format_input(r.failing) + ",steps=" + std::to_string(steps))};
  RC_ASSERT(eps_of(below, delta, AccountantKind::optimal) > eps);
}

RC_GTEST_PROP(Calibrate, EpsRoundTripUnderAdvanced, (unsigned a, unsigned b)) {
  const double target = unit(a, 0.5, 20.0);
  const int steps = 2 + static_cast<int>(b % 3000);
  const auto r = calibrate({"pure:eps=?,steps=" + std::to_string(steps)}, target, 1e-6, AccountantKind::advanced, 1e-9);
  const Ledger l{parse_entry("pure:eps=" + format_guarantee(r.value) + ",steps=" + std::to_string(steps))};
  RC_ASSERT(eps_of(l, 1e-6, AccountantKind::advanced) <= target);
}

// PLD calibration searches on one fixed grid without the lower bound and certifies only its final answer with the
// full accountant: the answer fed back to compose under pld (and auto) meets the target, and is tight (a PLD
// epsilon within 1e-4 of it). q=? and steps=? under auto: tests/slow/pld_calibration_test.cpp.
TEST(Calibrate, PldAnswersAreCertifiedByTheFullAccountant) {
  const auto s = calibrate({"gaussian:sigma=?,q=0.01,steps=1000"}, 1.0, 1e-5, AccountantKind::pld, 0);
  EXPECT_EQ(s.at_value.accountant, "pld");
  const double at = eps_of(s.ledger, 1e-5, AccountantKind::pld);
  EXPECT_LE(at, 1.0);
  EXPECT_GE(at, 1.0 - 1e-4);
  EXPECT_LT(s.failing, s.value);
  // The rdp answer is looser (a larger sigma).
  EXPECT_LT(s.value, calibrate({"gaussian:sigma=?,q=0.01,steps=1000"}, 1.0, 1e-5, AccountantKind::rdp, 0).value);
}

// Targets are the decimals typed, not their nearest doubles: the answer fed back to compose meets the decimal
// exactly. 1,000 random decimal targets (fixed seed) over closed-form accountants (fast), each compared with the
// exact decimal (the lower end of its enclosure). Against the nearest double about half of them would fail.
TEST(Calibrate, DecimalTargetsMetExactly) {
  std::mt19937_64 rng(20261123);
  int fails = 0;
  for (int i = 0; i < 1000; ++i) {
    // A decimal with 1 to 6 significant digits and an exponent in [-3, 2].
    const int digits = 1 + static_cast<int>(rng() % 6);
    std::uint64_t mant = 1 + rng() % static_cast<std::uint64_t>(std::pow(10.0, digits) - 1);
    const int exponent = -3 + static_cast<int>(rng() % 6);
    const std::string typed = std::to_string(mant) + "e" + std::to_string(exponent - digits + 1);
    const DecimalValue eps = decimal_value(typed);
    const DecimalValue delta = decimal_value("1e-" + std::to_string(3 + rng() % 8));
    const int steps = 1 + static_cast<int>(rng() % 50);
    std::string spec;
    AccountantKind kind{};
    switch (i % 3) {
      case 0: spec = "laplace:b=?,steps=" + std::to_string(steps); kind = AccountantKind::pure; break;
      case 1: spec = "pure:eps=?,steps=" + std::to_string(steps); kind = AccountantKind::basic; break;
      default: spec = "laplace:b=?,sens=3,steps=" + std::to_string(steps); kind = AccountantKind::advanced; break;
    }
    const auto r = calibrate({spec}, eps.exact, delta.down, kind, 0);
    const AccountingResult back = compose(r.ledger, DecimalTarget{Target::Given::delta, delta.down, delta.up}, kind);
    if (!(hi(back.epsilon) <= lo(eps.exact))) {
      ++fails;
      ADD_FAILURE() << spec << " at --epsilon " << typed << ": value " << format_input(r.value) << " gives "
                    << format_up(hi(back.epsilon), 25) << " > " << typed;
    }
    if (fails > 5) break;
  }
}

// The case: 4.32 is 4.3200000000000002842... as a double; the answer must meet 4.32 itself.
TEST(Calibrate, GaussianMeetsTypedDecimal) {
  const DecimalValue eps = decimal_value("4.32"), delta = decimal_value("1.1e-05");
  const auto r = calibrate({"gaussian:sigma=?"}, eps.exact, delta.down, AccountantKind::automatic, 0);
  const AccountingResult back =
      compose(r.ledger, DecimalTarget{Target::Given::delta, delta.down, delta.up}, AccountantKind::optimal);
  EXPECT_LE(hi(back.epsilon), lo(eps.exact)) << format_up(hi(back.epsilon), 25);
  // And it is tight: within 1e-12 relative of the target.
  EXPECT_GE(hi(back.epsilon), Real("4.32") * (1 - 1e-12));
}

}  // namespace
}  // namespace dpl
