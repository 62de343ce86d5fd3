// SPDX-License-Identifier: Apache-2.0
// The joint FFT products of the PLD self-composition (r * b and b * b from one forward and one inverse transform
// of r + i b; docs/pld_accountant.md, 3, "Joint products") against an exact direct convolution in binary128, on
// PLD-like vectors (Gaussian bumps, masses spanning 1e-300..1, subnormals) of several lengths: the actual l1 error
// of each product is within its returned bound, and the bound is not absurdly loose.
// No miscalibrated twin (the bound with eF halved or the separation term dropped) is tested, because it would
// not be caught: Higham's Thm 24.2 is a worst-case bound and the measured errors are 0.08-0.4% of the bound in
// double (round-off accumulates like a random walk, not linearly in log2 n), and at most 11% in long double, where
// the final rounding to double dominates; a bound 2x too small still holds on every input we can construct.
#include "accounting/pld/discrete_pld.h"
#include "tests/accounting/pld_reference_convolution.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace dpl {
namespace {

using namespace dpl::testing;

TEST(PldJointProducts, WithinTheirBoundsAgainstAnExactConvolution) {
  std::mt19937_64 rng(20261126);
  double worst_ratio = 0;
  for (const auto& [nr, nb] : std::vector<std::pair<std::size_t, std::size_t>>{
           {65, 65}, {100, 300}, {513, 257}, {1000, 1000}, {2047, 700}, {300, 1800}})
    for (Shape shape : {Shape::bump, Shape::wide_range, Shape::subnormal})
      for (bool extended : {false, true}) {
        const std::vector<double> r = pld_like(nr, shape, rng), b = pld_like(nb, shape, rng);
        const JointProducts j = fft_joint_products(r, b, extended);
        ASSERT_EQ(j.rb.size(), nr + nb - 1);
        ASSERT_EQ(j.bb.size(), 2 * nb - 1);
        Quad e1 = 0, e2 = 0;
        const std::vector<Quad> rb = direct_convolution(r, b, e1), bb = direct_convolution(b, b, e2);
        const double d1 = l1_distance(j.rb, rb) + static_cast<double>(e1),
                     d2 = l1_distance(j.bb, bb) + static_cast<double>(e2);
        const std::string what = std::to_string(nr) + "x" + std::to_string(nb) + " shape " +
                                 std::to_string(static_cast<int>(shape)) + (extended ? " long double" : " double");
        EXPECT_LE(d1, j.err_rb) << what;
        EXPECT_LE(d2, j.err_bb) << what;
        // Not absurdly loose: masses sum to 1, so these are relative errors.
        EXPECT_LT(j.err_rb, extended ? 1e-14 : 1e-10) << what;
        EXPECT_LT(j.err_bb, extended ? 1e-14 : 1e-10) << what;
        worst_ratio = std::max({worst_ratio, d1 / j.err_rb, d2 / j.err_bb});
        std::printf("%s: actual/bound %.3g %.3g, bounds %.3g %.3g\n", what.c_str(), d1 / j.err_rb, d2 / j.err_bb,
                    j.err_rb, j.err_bb);
      }
  RecordProperty("worst_actual_over_bound", std::to_string(worst_ratio));
  std::printf("worst actual/bound: %.3g\n", worst_ratio);
}

TEST(PldJointProducts, SelfCompositionMatchesSeparateProducts) {
  // The joint path changes only how r * b and b * b are computed: a 7-fold self-composition (bits 1, 2, 4: the
  // joint path at block 2) against step by step.
  const SelfCompositionCheck c = self_composition_against_steps(7, 7);
  EXPECT_LE(c.diff, c.bound_self + c.bound_steps);
  EXPECT_LT(c.bound_self, 1e-12);
}

}  // namespace
}  // namespace dpl
