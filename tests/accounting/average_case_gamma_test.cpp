// SPDX-License-Identifier: Apache-2.0
// Seed 000's average-case gamma: reference values, the thesis's (2.6) below the exact value, the small-shift
// limit, the pointwise loss (Theta <= e, = e outside the interval, endpoint maximisation), and RapidCheck
// properties (0 < gamma <= 1, decreasing in omega and beta, scale invariance); the certified enclosure contains the
// 200-bit Gauss-Kronrod value (accurate to ~1e-40 on these inputs) and is tight, also when coarse (the remainder
// term is what keeps a coarse midpoint sum an enclosure).
#include "accounting/errors.h"
#include "accounting/gamma/average_case_gamma.h"
#include "accounting/gamma/certified_gamma.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

namespace dpl {
namespace {

double d(const Real& x) { return x.convert_to<double>(); }

TEST(Gamma, ReferenceValues) {
  // Public reference value: omega = 1, beta = 1, shift = 0.5.
  const GammaResult g = average_case_gamma(1, 1, 0.5);
  EXPECT_NEAR(d(g.gamma), 0.9228019252207762, 1e-12);
  EXPECT_NEAR(d(g.thesis_bound), 0.8828126715410948, 1e-12);
  EXPECT_LT(g.thesis_bound, g.gamma);  // the printed bound is not an upper bound
  EXPECT_LT(g.quadrature_error, Real(1e-20));
  // notes/000 sec. 3.6, Table 1 (shift 0.001): omega 0.1 beta 2 -> .9526/.9517; omega 1 beta 10 -> .1993/.1995.
  const GammaResult a = average_case_gamma(0.1, 2, 0.001), b = average_case_gamma(1, 10, 0.001);
  EXPECT_NEAR(d(a.gamma), 0.9526, 5e-5);
  EXPECT_NEAR(d(a.thesis_bound), 0.9517, 5e-5);
  EXPECT_NEAR(d(b.gamma), 0.1993, 5e-5);
  EXPECT_NEAR(d(b.thesis_bound), 0.1995, 5e-5);
  // Scale invariance quoted in the notes to 12 digits.
  for (auto [w, be, s] : {std::tuple{0.5, 4.0, 0.01}, {1.0, 2.0, 0.02}, {2.0, 1.0, 0.04}})
    EXPECT_NEAR(d(average_case_gamma(w, be, s).gamma), 0.642912944574, 1e-11);
}

TEST(Gamma, PointwiseLossAndEndpointRule) {
  const Real u(1.3), e(0.4);
  for (double y : {-2.0, -0.1, 0.0, 1.3, 1.5, 4.0}) EXPECT_NEAR(d(pointwise_loss(u, e, Real(y))), 0.4, 1e-40);
  // Inside, strictly below e, and equal to the brute-force max over |t| <= e of |log J(y)/J(y-t)|.
  for (double y : {0.05, 0.3, 0.65, 0.9, 1.25}) {
    const Real th = pointwise_loss(u, e, Real(y));
    EXPECT_LT(th, e);
    Real best = 0;
    for (int k = -400; k <= 400; ++k) {
      const Real t = e * k / 400;
      const Real v = abs(log(laplace_window(u, Real(y)) / laplace_window(u, Real(y) - t)));
      if (v > best) best = v;
    }
    EXPECT_LE(abs(th - best), Real(1e-30)) << y;
  }
  // Fixed aggregation (omega = 0): the Laplace mechanism, loss = beta s.
  EXPECT_DOUBLE_EQ(realised_coordinate_loss(3.0, 1.0, 1.0, 2.0, 0.25), 0.5);
  const RunLoss run = realised_run_loss({0.5, 2.0}, {0.0, 0.0}, {1.0, 1.0}, {1.0, 1.0}, 0.5);
  EXPECT_DOUBLE_EQ(run.worst, 1.0);
  EXPECT_LT(run.realised, run.worst);
  EXPECT_THROW(average_case_gamma(0, 1, 0.1), InputError);
  EXPECT_THROW(average_case_gamma(1, -1, 0.1), InputError);
  EXPECT_THROW(average_case_gamma(1, 1, NAN), InputError);
}

TEST(Gamma, TinyIntervalsReturnAndTendToOne) {
  // beta * omega below ~1.5e-10 once made the adaptive quadrature recurse for ever (depth 30 chasing a
  // tolerance the precision cannot meet). As u -> 0 the aggregation is fixed and gamma -> 1 from below.
  double previous = 0;
  for (double omega : {1e-3, 1e-6, 1e-10, 1e-15, 1e-100, 1e-300}) {
    const GammaResult g = average_case_gamma(omega, 1, 0.001);
    EXPECT_LE(d(g.gamma), 1 + 1e-15) << omega;
    EXPECT_GE(d(g.gamma), previous - 1e-15) << omega;  // non-increasing in omega
    EXPECT_LT(d(g.quadrature_error), 1e-20) << omega;
    previous = d(g.gamma);
  }
  EXPECT_GT(previous, 1 - 1e-12);
}

TEST(Gamma, SmallShiftLimit) {
  // gamma -> 2(1 - e^{-u/2})/u as the shift -> 0, from above, with an O(e) gap.
  for (double u : {0.2, 1.0, 5.0}) {
    const double g3 = d(average_case_gamma(u, 1, 1e-3).gamma), g4 = d(average_case_gamma(u, 1, 1e-4).gamma);
    const double g0 = d(average_case_gamma(u, 1, 1e-4).small_shift);
    EXPECT_GE(g4, g0);
    EXPECT_LT(g4 - g0, (g3 - g0) / 5);  // roughly linear in e
  }
}

double unit(unsigned v, double lo, double hi) { return lo + (hi - lo) * (v % 10001) / 10000.0; }

RC_GTEST_PROP(Gamma, RangeMonotoneAndScaleInvariant, (unsigned a, unsigned b, unsigned c)) {
  const double w = unit(a, 0.05, 5), be = unit(b, 0.2, 10), s = unit(c, 1e-3, 1.0);
  const double g = d(average_case_gamma(w, be, s).gamma);
  RC_ASSERT(g > 0);
  RC_ASSERT(g <= 1 + 1e-15);
  RC_ASSERT(d(average_case_gamma(w * 1.3, be, s).gamma) <= g + 1e-15);
  RC_ASSERT(d(average_case_gamma(w, be * 1.3, s).gamma) <= g + 1e-15);
  RC_ASSERT(std::abs(d(average_case_gamma(w * be, 1, s * be).gamma) - g) <= 1e-13);
}

TEST(CertifiedGamma, EnclosesTheReferenceValuesTightly) {
  for (auto [w, be, s] : {std::tuple{1.0, 1.0, 0.5}, {0.1, 2.0, 0.001}, {1.0, 10.0, 0.001}, {0.5, 4.0, 0.01},
                          {3.0, 2.0, 1.7}, {1e-6, 1.0, 1.0}, {40.0, 3.0, 1e-4}}) {
    const GammaEnclosure c = certified_gamma(w, be, s);
    const Real ref = average_case_gamma(w, be, s).gamma;
    EXPECT_TRUE(contains(c.gamma, ref)) << w << " " << be << " " << s;
    EXPECT_TRUE(c.converged) << w << " " << be << " " << s;
    EXPECT_LE(d(width(c.gamma)), 1e-7 * d(ref)) << w << " " << be << " " << s;
  }
  // 0.9228019252207762 (reference value, omega = beta = 1, shift 0.5): inside, two-sided.
  const GammaEnclosure r = certified_gamma(1, 1, 0.5);
  EXPECT_GE(hi_up(r.gamma), 0.9228019252207762);
  EXPECT_LE(hi_up(r.gamma), 0.9228019252207762 * (1 + 2e-7));
  EXPECT_LE(lo_down(r.gamma), 0.9228019252207762);
}

TEST(CertifiedGamma, CoarsePanelsStayAnEnclosure) {
  // 16 panels: the midpoint sum alone is off by ~1e-4; with the remainder the interval still contains gamma.
  for (auto [w, be, s] : {std::tuple{1.0, 1.0, 0.5}, {5.0, 1.0, 0.05}, {0.3, 7.0, 0.2}}) {
    const GammaEnclosure coarse = certified_gamma(w, be, s, 1e-12, 16);
    const Real ref = average_case_gamma(w, be, s).gamma;
    EXPECT_FALSE(coarse.converged);
    EXPECT_TRUE(contains(coarse.gamma, ref)) << w;
    EXPECT_GT(d(width(coarse.gamma)), 1e-9) << w;  // honest width, not a point
  }
  EXPECT_THROW(certified_gamma(0, 1, 1), InputError);
  EXPECT_THROW(certified_gamma(1, 1, HUGE_VAL), InputError);
}

// 30 random points (fixed seed; log-uniform omega in [1e-3, 30], shift in [1e-5, 3]): kept to a loop rather than
// a RapidCheck property because each point costs two high-precision quadratures.
TEST(CertifiedGamma, ContainsTheQuadratureValueAtRandomPoints) {
  std::uint64_t state = 20261123;
  auto next = [&state](double lo, double hi) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * static_cast<double>(state >> 11) * 0x1.0p-53;
  };
  for (int i = 0; i < 30; ++i) {
    const double w = std::pow(10.0, next(-3, 1.5)), be = next(0.2, 10), s = std::pow(10.0, next(-5, 0.5));
    const GammaEnclosure g = certified_gamma(w, be, s);
    const Real ref = average_case_gamma(w, be, s).gamma;
    EXPECT_TRUE(contains(g.gamma, ref)) << w << " " << be << " " << s;
    EXPECT_LE(hi_up(g.gamma), 1.0);
    if (g.converged) {
      EXPECT_LE(d(width(g.gamma)), 1e-7 * d(ref) * (1 + 1e-9));
    }
  }
}


// The binary64 estimates (used by audits of many runs) agree with the 200-bit values to 1e-13 max(1, beta s)
// (absolute: near the interval's ends the log term cancels to ~1e-16) over a wide range of (x, interval, rate,
// shift), including x outside the interval, tiny and huge u and e.
TEST(Gamma, Binary64EstimatesMatchTheCertifiedValues) {
  for (double beta : {0.01, 1.0, 37.0, 1e4})
    for (double shift : {1e-6, 0.03, 0.5, 2.0})
      for (double width : {0.0, 1e-9, 0.2, 5.0})
        for (double x : {-3.0, 0.0, 1e-7, 0.1, 0.3, 2.5, 7.0}) {
          const double exact = realised_coordinate_loss(x, 0.1, 0.1 + width, beta, shift);
          const double fast = realised_coordinate_loss_estimate(x, 0.1, 0.1 + width, beta, shift);
          EXPECT_NEAR(fast, exact, 1e-13 * std::max(1.0, beta * shift))
              << "x " << x << " width " << width << " beta " << beta << " shift " << shift;
          EXPECT_GE(fast, 0);
          EXPECT_LE(fast, beta * shift * (1 + 1e-12));
        }
  for (double u : {0.01, 1.0, 30.0, 1e3})
    for (double e : {1e-4, 0.003, 0.4})
      if (e < u) {
        EXPECT_NEAR(thesis_eq_2_6_estimate(u, e), d(thesis_eq_2_6(Real(u), Real(e))), 1e-9) << u << " " << e;
      }
}

}  // namespace
}  // namespace dpl
