// SPDX-License-Identifier: Apache-2.0
// The real-input FFT products of the PLD (a * a from two half-length transforms, a * b from three, and the split
// between them; docs/pld_accountant.md, 3, "Real-input products") against an exact direct convolution in binary128,
// on PLD-like vectors (Gaussian bumps, masses spanning 1e-300..1, subnormals; sparse vectors of atoms for the largest
// lengths), padded lengths n = 2^2 to 2^16, in double and double words: the actual l1 error is within the returned
// bound, and the bound is not absurdly loose (measured: actual/bound <= 1.3% in double, <= 36% in double words).
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

TEST(PldRealProduct, WithinItsBoundAgainstAnExactConvolution) {
  // Distinct operands of different lengths and shapes, including a light tail against a heavy bulk (the split of
  // square_concentrated) and a single point. A miscalibrated twin, the double-word bound without its final rounding
  // to double (u |c~|_1, the term that dominates it), must fail somewhere: the comparison has teeth.
  std::mt19937_64 rng(20261127);
  double worst_ratio = 0;
  bool twin_caught = false;
  struct Case { std::size_t na, nb; Shape sa, sb; double scale_a; };
  const std::vector<Case> cases = {
      {1, 65, Shape::bump, Shape::bump, 1},          {65, 1, Shape::bump, Shape::wide_range, 1},
      {2, 3, Shape::bump, Shape::bump, 1},           {64, 200, Shape::wide_range, Shape::bump, 1},
      {200, 1000, Shape::bump, Shape::subnormal, 1}, {1000, 999, Shape::subnormal, Shape::wide_range, 1},
      {3000, 70, Shape::bump, Shape::bump, 1},       {3000, 3000, Shape::bump, Shape::bump, 1.0 / 64},
      {8192, 3000, Shape::bump, Shape::wide_range, 1}, {16384, 16000, Shape::sparse, Shape::sparse, 1}};
  for (const Case& c : cases) {
    std::vector<double> a = pld_like(c.na, c.sa, rng);
    const std::vector<double> b = pld_like(c.nb, c.sb, rng);
    for (double& x : a) x *= c.scale_a;  // exact (a power of two)
    Quad ref_err = 0;
    const std::vector<Quad> exact = direct_convolution(a, b, ref_err);
    for (bool extended : {false, true}) {
      std::vector<double> conv;
      const double bound = fft_product(a, b, extended, conv);
      ASSERT_EQ(conv.size(), c.na + c.nb - 1);
      const double d = l1_distance(conv, exact) + static_cast<double>(ref_err);
      const std::string what = std::to_string(c.na) + " x " + std::to_string(c.nb) + (extended ? " double word" : " double");
      EXPECT_LE(d, bound) << what;
      EXPECT_LT(bound, extended ? 1e-14 : 1e-10) << what;
      worst_ratio = std::max(worst_ratio, d / bound);
      if (extended) {
        long double c1 = 0;
        for (double v : conv) c1 += std::abs(v);
        const double twin = bound - 0x1p-53 * static_cast<double>(c1);
        twin_caught = twin_caught || d > twin;
      }
      std::printf("%s: actual %.3g bound %.3g actual/bound %.3g\n", what.c_str(), d, bound, d / bound);
    }
  }
  EXPECT_TRUE(twin_caught) << "the bound without the final rounding was never exceeded";
  RecordProperty("worst_actual_over_bound", std::to_string(worst_ratio));
  std::printf("worst actual/bound: %.3g\n", worst_ratio);
}

TEST(PldRealProduct, ASquaringIsTheProductWithItself) {
  // fft_square and fft_product(a, a) run the same operations on the same operands (the product splits b's half
  // spectrum a second time): equal outputs, bit for bit, and a bound at least the squaring's.
  std::mt19937_64 rng(5);
  for (std::size_t na : {std::size_t{65}, std::size_t{1000}, std::size_t{5000}})
    for (bool extended : {false, true}) {
      const std::vector<double> a = pld_like(na, Shape::bump, rng);
      std::vector<double> sq, pr;
      const double e_sq = fft_square(a, extended, sq), e_pr = fft_product(a, a, extended, pr);
      EXPECT_EQ(sq, pr) << na << (extended ? " double word" : " double");
      EXPECT_GE(e_pr, e_sq);
    }
}

TEST(PldRealProduct, SimdAndScalarPassesAreBitIdentical) {
  // The passes between the transforms on AVX2 lanes (four pairs at a time, double and double words) against the
  // scalar loop: the same values and bounds, bit for bit, for lengths around the lanes' edges.
  std::mt19937_64 rng(17);
  for (std::size_t na : {std::size_t{65}, std::size_t{66}, std::size_t{67}, std::size_t{129}, std::size_t{1000}, std::size_t{4097}})
    for (bool extended : {false, true}) {
      const std::vector<double> a = pld_like(na, Shape::bump, rng), b = pld_like(na / 2 + 7, Shape::wide_range, rng);
      std::vector<double> sq[2], pr[2];
      double e_sq[2], e_pr[2];
      JointProducts j[2];
      for (int simd : {0, 1}) {
        set_pld_simd_passes(simd == 1);
        e_sq[simd] = fft_square(a, extended, sq[simd]);
        e_pr[simd] = fft_product(a, b, extended, pr[simd]);
        j[simd] = fft_joint_products(a, b, extended);
      }
      set_pld_simd_passes(true);
      const std::string what = std::to_string(na) + (extended ? " double word" : " double");
      EXPECT_EQ(sq[0], sq[1]) << what;
      EXPECT_EQ(pr[0], pr[1]) << what;
      EXPECT_EQ(j[0].rb, j[1].rb) << what;
      EXPECT_EQ(j[0].bb, j[1].bb) << what;
      EXPECT_EQ(e_sq[0], e_sq[1]) << what;
      EXPECT_EQ(e_pr[0], e_pr[1]) << what;
      EXPECT_EQ(j[0].err_rb, j[1].err_rb) << what;
    }
}

TEST(PldRealSquare, SelfCompositionMatchesStepByStep) {
  // A 4-fold self-composition (two squarings by the real-input path, 200 and 399 points) against step by step.
  const SelfCompositionCheck c = self_composition_against_steps(4, 11);
  EXPECT_LE(c.diff, c.bound_self + c.bound_steps);
  EXPECT_LT(c.bound_self, 1e-12);
}

}  // namespace
}  // namespace dpl
