// The real-input FFT squaring of the PLD (a * a from two half-length transforms and the split between them;
// docs/pld_accountant.md, 3, "Real-input squarings") against an exact direct convolution in binary128, on PLD-like
// vectors (Gaussian bumps, masses spanning 1e-300..1, subnormals; sparse vectors of atoms for the largest lengths),
// padded lengths n = 2^2 to 2^16, in double and long double: the actual l1 error is within the returned bound, and
// the bound is not absurdly loose (measured: actual/bound <= 1.3% in double, <= 35% in long double).
#include "accounting/pld/discrete_pld.h"
#include "tests/accounting/pld_reference_convolution.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace dpl {
namespace {

using namespace dpl::testing;

TEST(PldRealSquare, WithinItsBoundAgainstAnExactConvolution) {
  std::mt19937_64 rng(20261126);
  double worst_ratio = 0;
  struct Case { std::size_t na; Shape shape; };
  std::vector<Case> cases;
  for (std::size_t na : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{64}, std::size_t{65}, std::size_t{200}, std::size_t{1000},
                         std::size_t{3000}})
    for (Shape shape : {Shape::bump, Shape::wide_range, Shape::subnormal}) cases.push_back({na, shape});
  cases.push_back({8192, Shape::bump});  // n = 2^14
  for (std::size_t na : {std::size_t{16384}, std::size_t{32768}}) cases.push_back({na, Shape::sparse});  // 2^15, 2^16
  for (const Case& c : cases) {
    const std::vector<double> a = pld_like(c.na, c.shape, rng);
    Quad ref_err = 0;
    const std::vector<Quad> exact = direct_convolution(a, a, ref_err);
    for (bool extended : {false, true}) {
      std::vector<double> conv;
      const double bound = fft_square(a, extended, conv);
      ASSERT_EQ(conv.size(), 2 * c.na - 1);
      const double d = l1_distance(conv, exact) + static_cast<double>(ref_err);
      const std::string what = std::to_string(c.na) + " shape " + std::to_string(static_cast<int>(c.shape)) +
                               (extended ? " long double" : " double");
      EXPECT_LE(d, bound) << what;
      // Not absurdly loose: masses sum to 1, so these are relative errors.
      EXPECT_LT(bound, extended ? 1e-14 : 1e-10) << what;
      worst_ratio = std::max(worst_ratio, d / bound);
      std::printf("%s: actual %.3g bound %.3g actual/bound %.3g\n", what.c_str(), d, bound, d / bound);
    }
  }
  RecordProperty("worst_actual_over_bound", std::to_string(worst_ratio));
  std::printf("worst actual/bound: %.3g\n", worst_ratio);
}

TEST(PldRealSquare, SelfCompositionMatchesStepByStep) {
  // A 4-fold self-composition (two squarings by the real-input path, 200 and 399 points) agrees with composing
  // step by step (general products) within the sum of their certified error bounds.
  std::mt19937_64 rng(11);
  DiscretePld a;
  a.h = 0x1p-10;
  a.offset = -100;
  a.p = pld_like(200, Shape::bump, rng);
  a.err_l1 = 1e-15;
  const DiscretePld sq = self_compose(a, 4, 1e-30);
  DiscretePld step = a;
  for (int i = 1; i < 4; ++i) step = compose(step, a, 1e-30);
  long double diff = l1_distance(sq, step);
  diff -= 1e-28L;  // the tails moved by truncation
  EXPECT_LE(static_cast<double>(diff), sq.err_l1 + step.err_l1);
  EXPECT_LT(sq.err_l1, 1e-12);
}

}  // namespace
}  // namespace dpl
