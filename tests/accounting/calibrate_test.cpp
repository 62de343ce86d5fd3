// Calibration: reference values, the certified round trip (the answer fed back to compose meets the target),
// optimality (the other end of the bracket does not), and input validation.
#include "accounting/calibration/calibrate.h"
#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/numeric/decimal.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

namespace dpl {
namespace {

double eps_of(const Ledger& l, double delta, AccountantKind k) {
  return hi_up(compose(l, Target::for_delta(delta), k).epsilon);
}

TEST(Calibrate, FullBatchGaussianReference) {
  // ../shared/reference/README.md: smallest sigma, full-batch Gaussian, 100 steps, eps=1, delta=1e-5.
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
  const Ledger l{parse_entry("pure:eps=" + format_input(r.value) + ",steps=" + std::to_string(steps))};
  RC_ASSERT(eps_of(l, 1e-6, AccountantKind::advanced) <= target);
}

}  // namespace
}  // namespace dpl
