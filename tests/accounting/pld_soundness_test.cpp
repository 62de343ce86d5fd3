// SPDX-License-Identifier: Apache-2.0
// The PLD accountant's two-sided guarantee against independent high-precision values: the optimistic lower
// bound keeps the atom at the lower end of a finite support, random unsampled Gaussian compositions (any
// sensitivity, extreme magnitudes) against the exact analytic Gaussian, random pure compositions against the
// exact optimal composition (Kairouz, Oh and Viswanath 2015), the radix-2 FFT against a direct transform, and
// inputs whose loss range exceeds the grid limit (answered on a coarser grid, never an allocation failure), and
// subsampled Gaussians whose per-step losses exceed long double's exp range (against a certified event bound), and
// an untilted pass's one-step masses rounded down with their shortfall at +inf (nothing lost; a twin loses it).
#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/mechanisms/analytic_gaussian.h"
#include "accounting/numeric/decimal.h"
#include "accounting/pld/discrete_pld.h"
#include "accounting/pld/loss_pair.h"
#include "accounting/pld/pld_accountant.h"
#include "accounting/pld/radix2_fft.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <complex>

namespace dpl {
namespace {

AccountingResult pld_for_epsilon(const std::string& spec, double eps, double grid) {
  PldOptions o;
  o.grid = grid;
  return compose_pld(Ledger{parse_entry(spec)}, Target::for_epsilon(eps), o);
}

TEST(PldSoundness, OptimisticKeepsTheAtomAtTheLowerEndOfTheSupport) {
  // 40 pure 0.3-DP steps at eps = 0 (total variation) once gave a lower bound 2.2e-10 for the exact 0.6533.
  const auto r = pld_for_epsilon("pure:eps=0.3,steps=40", 0.0, 1e-4);
  const auto exact_r = compose(Ledger{parse_entry("pure:eps=0.3,steps=40")}, Target::for_epsilon(0.0),
                               AccountantKind::optimal);
  const double exact_delta = hi_up(exact_r.delta);
  EXPECT_NEAR(exact_delta, 0.6533, 1e-4);
  ASSERT_TRUE(r.lower.has_value());
  EXPECT_LE(hi(*r.lower), lo(exact_r.delta));
  EXPECT_GE(lo(r.delta), hi(exact_r.delta));
  // Slack: the optimistic rule moves each step down by at most one grid cell of the 4x coarser grid.
  EXPECT_GE(lo_down(*r.lower), exact_delta - 0.02);
  EXPECT_LE(hi_up(r.delta), exact_delta + 1e-3);
}

// An untilted pass rounds every one-step mass down and moves the exact shortfall to +inf (docs/pld_accountant.md,
// 1, "Rounding"): no stored mass exceeds the nearest-rounded one of a (practically untilted) pass that keeps the
// float64 error bound, nothing is lost (masses plus p_inf reach 1), the shortfall is a few u, and err_l1 is 0. Its
// twin, the rounded-down masses with the other pass's p_inf, loses mass: the move to +inf is what keeps the total.
TEST(PldSoundness, UntiltedMassesRoundDownAndMoveTheShortfallToInfinity) {
  for (const char* spec : {"gaussian:sigma=1.1,q=0.01", "gaussian:sigma=0.5,q=1e-5", "laplace:b=2"}) {
    const LossPair pair = loss_pair(parse_entry(spec), PairDirection::remove);
    const double h = 0x1p-12;
    const DiscretePld down = discretize(pair, h, 1e-20, true, 0);
    const DiscretePld kept = discretize(pair, h, 1e-20, true, 1e-300);  // same grid, the error-bound path
    ASSERT_EQ(down.offset, kept.offset) << spec;
    ASSERT_EQ(down.p.size(), kept.p.size()) << spec;
    EXPECT_EQ(down.err_l1, 0.0) << spec;
    EXPECT_GT(kept.err_l1, 0.0) << spec;
    // Neumaier-compensated long-double sums (error far below the shortfalls compared).
    struct Sum {
      long double s = 0, c = 0;
      void add(long double x) {
        const long double t = s + x;
        c += std::fabs(s) >= std::fabs(x) ? (s - t) + x : (x - t) + s;
        s = t;
      }
      long double value() const { return s + c; }
    } total_down, total_kept;
    for (std::size_t k = 0; k < down.p.size(); ++k) {
      EXPECT_LE(down.p[k], kept.p[k] * (1 + 1e-15) + 1e-300) << spec << " at " << k;
      total_down.add(down.p[k]);
      total_kept.add(kept.p[k]);
    }
    total_down.add(down.p_inf);
    EXPECT_GE(total_down.value(), 1.0L) << spec << " short by " << static_cast<double>(1.0L - total_down.value());
    EXPECT_LE(down.p_inf - kept.p_inf, 1e-14) << spec;
    total_kept.add(kept.p_inf);
    EXPECT_LT(total_down.value() - down.p_inf + kept.p_inf, total_kept.value()) << spec << ": the twin loses mass";
  }
}

TEST(PldSoundness, Radix2FftMatchesDirectTransform) {
  // The transform whose error the accountant bounds: against a direct O(n^2) DFT in long double, within the
  // Thm 24.2 factor.
  for (std::size_t n : {1u, 2u, 8u, 64u, 512u}) {
    ComplexArray<double> x;
    x.resize(n);
    std::vector<std::complex<long double>> v(n);
    for (std::size_t k = 0; k < n; ++k) {
      x.re[k] = std::sin(1.0 + 3.0 * static_cast<double>(k));
      x.im[k] = std::cos(0.5 * static_cast<double>(k * k));
      v[k] = {x.re[k], x.im[k]};
    }
    radix2_fft(x, false);
    long double err = 0, norm = 0;
    for (std::size_t j = 0; j < n; ++j) {
      std::complex<long double> s = 0;
      for (std::size_t k = 0; k < n; ++k) {
        const long double a = -2 * 3.141592653589793238462643383279L * static_cast<long double>((j * k) % n) /
                              static_cast<long double>(n);
        s += v[k] * std::complex<long double>(std::cos(a), std::sin(a));
      }
      err += std::norm(s - std::complex<long double>(x.re[j], x.im[j]));
      norm += std::norm(s);
    }
    EXPECT_LE(std::sqrt(err), fft_error_factor<double>(n) * std::sqrt(norm) + 1e-300) << n;
  }
}

TEST(PldSoundness, WideLossRangesAnswerOnACoarserGrid) {
  // Pure eps = 1e4 (2e8 points on the default grid) once aborted in FFTW; a Laplace scale of 1e-6
  // (2e10 points) threw bad_alloc. Both now answer on a coarser grid, and are still upper bounds.
  const auto r = pld_for_epsilon("pure:eps=1e4,steps=10", 1.0, 1e-4);
  EXPECT_GE(lo(r.delta), Real(0));
  EXPECT_LE(hi(r.delta), Real(1));
  const auto exact_r = compose(Ledger{parse_entry("pure:eps=1e4,steps=10")}, Target::for_epsilon(1.0),
                               AccountantKind::optimal);
  EXPECT_GE(hi(r.delta), lo(exact_r.delta));
  const Ledger l{parse_entry("laplace:b=1e-6"), parse_entry("laplace:b=2")};
  const auto s = compose_pld(l, Target::for_delta(1e-5));
  EXPECT_TRUE(std::isfinite(hi_up(s.epsilon)));
  EXPECT_GE(hi_up(s.epsilon), 1e6);  // the first step alone is 1e6-DP and no better (Laplace at sens/b = 1e6)
}

double unit(unsigned v, double lo, double hi) { return lo + (hi - lo) * (v % 10001) / 10000.0; }

RC_GTEST_PROP(PldSoundness, GaussianCompositionBracketsTheAnalyticValue, (unsigned a, unsigned b, unsigned c, unsigned d)) {
  // k Gaussian steps with noise sigma and sensitivity sens are one Gaussian with mu = sens sqrt(k)/sigma
  // (Dong, Roth and Su 2019); its exact delta(eps) is the analytic Gaussian (Balle and Wang 2018, Thm 8).
  const double scale = std::pow(10.0, unit(a, -6, 6));  // extreme magnitudes, same ratio
  const double mu1 = std::pow(10.0, unit(b, -1.3, 0.8));
  const int steps = 1 + static_cast<int>(c % 32);
  const double sens = scale * unit(d, 0.1, 3.0);
  const double sigma = sens / mu1;
  const std::string spec = "gaussian:sigma=" + format_input(sigma) + ",sens=" + format_input(sens) +
                           ",steps=" + std::to_string(steps);
  const auto entry = parse_entry(spec);
  // The exact mu from the doubles actually used (mu1 above was rounded by format_input and the division).
  const Interval mu = exact(entry.mechanism.sens) / exact(entry.mechanism.sigma) * sqrt(exact_int(steps));
  const double eps = unit(a / 7 + c, 0.0, 2.0) * mid_double(mu) * (mid_double(mu) + 1);
  PldOptions o;
  o.grid = 2e-3;
  o.refine = false;
  const auto r = compose_pld(Ledger{entry}, Target::for_epsilon(eps), o);
  const Interval truth = analytic_gaussian_delta(mu, exact(eps));
  RC_ASSERT(lo(r.delta) >= hi(truth));
  RC_ASSERT(r.lower.has_value());
  RC_ASSERT(hi(*r.lower) <= lo(truth));
  // Slack: O(h^2) per composition plus the round-off budget.
  RC_ASSERT(hi_up(r.delta) <= hi_up(truth) + 5e-3);
}

RC_GTEST_PROP(PldSoundness, TinyDeltaBracketsTheAnalyticEpsilon, (unsigned a, unsigned b, unsigned c, unsigned d)) {
  // Target deltas 1e-30 .. 1e-10 (exponentially tilted PLDs): certified upper >= exact >= certified lower.
  const double scale = std::pow(10.0, unit(a, -4, 4));
  const double mu1 = std::pow(10.0, unit(b, -1.0, 0.5));
  const int steps = 1 + static_cast<int>(c % 16);
  const double sens = scale * unit(a / 3 + d, 0.2, 2.0);
  const std::string spec = "gaussian:sigma=" + format_input(sens / mu1) + ",sens=" + format_input(sens) +
                           ",steps=" + std::to_string(steps);
  const auto entry = parse_entry(spec);
  const Interval mu = exact(entry.mechanism.sens) / exact(entry.mechanism.sigma) * sqrt(exact_int(steps));
  const double delta = std::pow(10.0, -unit(d, 10.0, 30.0));
  PldOptions o;
  o.grid = 4e-3;
  o.refine = false;
  const auto r = compose_pld(Ledger{entry}, Target::for_delta(delta), o);
  const auto truth = analytic_gaussian_epsilon(mu, delta);
  RC_ASSERT(lo(r.epsilon) >= hi(truth.epsilon));
  RC_ASSERT(r.lower.has_value());
  RC_ASSERT(hi(*r.lower) <= lo(truth.epsilon));
  RC_ASSERT(hi_up(r.epsilon) <= hi_up(truth.epsilon) * 1.01 + 0.02);
}

TEST(PldSoundness, TiltedAndUntiltedAgree) {
  // Tilting changes only where the round-off is small, not the discretised PLD: at a delta both paths certify,
  // a tilted and an untilted composition of the same ledger agree closely (both upper bounds).
  const Ledger l{parse_entry("gaussian:sigma=1.1,q=0.01,steps=1000")};
  PldOptions plain, tilted;
  plain.grid = tilted.grid = 4e-4;
  plain.refine = tilted.refine = false;
  tilted.tilt = 3;
  const double e0 = hi_up(compose_pld(l, Target::for_delta(1e-7), plain).epsilon);
  const double e1 = hi_up(compose_pld(l, Target::for_delta(1e-7), tilted).epsilon);
  EXPECT_NEAR(e0, e1, 5e-5);  // the untilted round-off budget is ~1e-11 of the mass: the tilted one is tighter
}

RC_GTEST_PROP(PldSoundness, PureCompositionBracketsTheOptimalComposition, (unsigned a, unsigned b, unsigned c)) {
  // k pure eps-DP steps: the exact privacy profile is the optimal composition (Kairouz, Oh and Viswanath 2015,
  // Thm 3.5), computed independently in high precision by the `optimal` accountant.
  const double eps1 = std::pow(10.0, unit(a, -2.5, 1.5));
  const int steps = 1 + static_cast<int>(b % 100);
  const std::string spec = "pure:eps=" + format_input(eps1) + ",steps=" + std::to_string(steps);
  const double eps = unit(c, 0.0, 1.0) * eps1 * steps;
  const Ledger l{parse_entry(spec)};
  PldOptions o;
  o.grid = 2e-3;
  o.refine = false;
  const auto r = compose_pld(l, Target::for_epsilon(eps), o);
  const auto truth = compose(l, Target::for_epsilon(eps), AccountantKind::optimal);
  RC_ASSERT(lo(r.delta) >= hi(truth.delta));
  RC_ASSERT(r.lower.has_value());
  RC_ASSERT(hi(*r.lower) <= lo(truth.delta));
}

// A Poisson-subsampled Gaussian with sigma 0.003 loses about 1/(2 sigma^2) = 55,555 per sampled step, beyond
// long double's exp range (~11,356): the survival functions must follow it there. (They returned 0 beyond l ~
// 10,600, which moved every sampled step's loss down to ~11,356: the PLD printed 22695.4 below for a true
// epsilon above 44,996, and auto took it.)
TEST(PldSoundness, SubsampledGaussianLossesBeyondTheExpRange) {
  const double q = 1e-4, z = 0.003;
  const LossPair remove = loss_pair(parse_entry("gaussian:sigma=0.003,q=1e-4,steps=1"), PairDirection::remove);
  const LossPair add = loss_pair(parse_entry("gaussian:sigma=0.003,q=1e-4,steps=1"), PairDirection::add);
  // At l = 2e4 the crossing point is x = z^2 (l - log q + log1p(-(1 - q) e^{-l})) + 1/2 = 0.68008..., so
  // S_P(l) = (1 - q) Phi(-x/z) + q Phi((1 - x)/z) = q (1 - 1e-23) and, for add, Q(L <= -l) = 1 - S_Q(-l) = q as well.
  EXPECT_NEAR(remove.survival_p(2e4), q, 1e-12 * q);
  EXPECT_NEAR(1 - add.survival_q(-2e4), q, 1e-8 * q);
  // Around the mean sampled loss (55,545) S_P falls from ~q to ~0, continuously across the formula's switch at 64
  // and non-increasing everywhere.
  EXPECT_NEAR(remove.survival_p(64.0), remove.survival_p(std::nextafter(64.0, 65.0)), 1e-14 * q);
  double previous = 1;
  for (double l = 0; l < 6e4; l += 250) {
    const double v = remove.survival_p(l);
    EXPECT_LE(v, previous) << l;
    previous = v;
  }
  EXPECT_GT(remove.survival_p(55000), 0.9 * q);  // x = 0.995: Phi(-1.67) of q
  EXPECT_LT(remove.survival_p(57000), 0.01 * q);
  // A certified lower bound on the true epsilon of 10^4 steps at delta 0.1: the event E = {the largest of the
  // 10^4 outputs is at least c = 0.9} has Q(E) <= T Phi(-c/z) <= T phi(c/z) / (c/z) (Mills) and P(E) >= (1 - (1 -
  // q)^T) Phi((1 - c)/z) >= 0.632, and delta(eps) >= P(E) - e^eps Q(E) for every event (the hockey-stick
  // divergence), so delta(eps) <= 0.1 needs eps >= log(0.532) - log T + (c/z)^2/2 + log(c/z) + log sqrt(2 pi)
  // = 44996.78. (The PLD prints 111677.9, rdp 212280.)
  const double c = 0.9, t = 1e4;
  const double lower = std::log(0.532) - std::log(t) + 0.5 * (c / z) * (c / z) + std::log(c / z) + 0.5 * std::log(2 * M_PI);
  EXPECT_GT(lower, 44996);
  const Ledger l = {parse_entry("gaussian:sigma=0.003,q=1e-4,steps=1e4")};
  for (AccountantKind kind : {AccountantKind::pld, AccountantKind::automatic}) {
    const AccountingResult r = compose(l, Target::for_delta(0.1), kind);
    EXPECT_GE(lo(r.epsilon), lower) << r.accountant;
    if (r.lower) {
      EXPECT_LE(hi(*r.lower), hi(r.epsilon));
    }
  }
}

}  // namespace
}  // namespace dpl
