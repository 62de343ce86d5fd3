// SPDX-License-Identifier: Apache-2.0
// The audit probe's statistics (algorithms/run/audit_probe.h): the Gamma-norm release in one dimension is the
// Laplace release; the replace-one mixture statistic is antisymmetric, shifts by 4 half^2/sd^2 between D and D' when
// the canary is always drawn, and its means are the two KL divergences (signs and shifts as the audits need them).
#include "algorithms/run/audit_probe.h"

#include "algorithms/rng/portable_rng.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

namespace {

using dpl::algorithms::AuditProbe;
using dpl::algorithms::Rng;

// exp(-alpha |e|) in R^1 is Laplace with scale 1/alpha: the same statistics and noise energy.
RC_GTEST_PROP(AuditProbe, GammaNormInOneDimensionIsLaplace, ()) {
  const double noise = *rc::gen::inRange(-4000, 4000) / 1000.0;
  const double alpha = *rc::gen::inRange(1, 5000) / 1000.0, shift = *rc::gen::inRange(0, 3000) / 1000.0;
  AuditProbe norm, laplace;
  norm.norm_exponential(&noise, 1, alpha, shift);
  laplace.laplace(noise, 1 / alpha, shift);
  RC_ASSERT(std::fabs(norm.statistic_d() - laplace.statistic_d()) <= 1e-12 * (1 + std::fabs(laplace.statistic_d())));
  RC_ASSERT(std::fabs(norm.statistic_dprime() - laplace.statistic_dprime()) <= 1e-12 * (1 + std::fabs(laplace.statistic_dprime())));
  RC_ASSERT(std::fabs(norm.noise_energy_norm() - laplace.noise_energy_laplace()) <= 1e-12 * (1 + laplace.noise_energy_laplace()));
  RC_ASSERT(norm.norm_shape() == 1u);
}

// The pair (1 - q) N(0) + q N(+h) against (1 - q) N(0) + q N(-h) is symmetric under y -> -y: the statistic on D' at
// noise -n is minus the statistic on D at n.
RC_GTEST_PROP(AuditProbe, ReplaceStatisticIsAntisymmetric, ()) {
  const double noise = *rc::gen::inRange(-5000, 5000) / 1000.0, sd = *rc::gen::inRange(100, 5000) / 1000.0;
  const double half = *rc::gen::inRange(0, 3000) / 1000.0, q = *rc::gen::inRange(1, 1000) / 1000.0;
  const bool in = *rc::gen::arbitrary<bool>();
  AuditProbe a, b;
  a.gaussian_replace(noise, sd, half, q, in);
  b.gaussian_replace(-noise, sd, half, q, in);
  RC_ASSERT(std::fabs(a.statistic_d() + b.statistic_dprime()) <= 1e-12 * (1 + std::fabs(a.statistic_d())));
}

TEST(AuditProbe, ReplaceStatisticWithTheCanaryAlwaysDrawnIsTheShiftedGaussianRatio) {
  AuditProbe p;
  p.gaussian_replace(0.3, 2.0, 0.5, 1.0, true);
  // loss(x) = 2 x half / sd^2: D at 0.8, D' at -0.2.
  EXPECT_NEAR(p.statistic_d(), 2 * 0.8 * 0.5 / 4, 1e-15);
  EXPECT_NEAR(p.statistic_dprime(), 2 * -0.2 * 0.5 / 4, 1e-15);
  EXPECT_NEAR(p.noise_energy_gaussian(), 0.09 / 4, 1e-15);
}

// E_D[statistic] = KL(P_D || P_D') > 0 and E_D'[statistic] = -KL(P_D' || P_D) < 0. With q = 1: +-2 h^2/sd^2. 200,000
// draws: the mean's standard error is 2 h/sd / sqrt(2e5) = 0.0022 at h/sd = 0.5; the tolerance 0.012 is above 5 of
// them (a false failure below 1e-6). A sign error in either mixture would put a mean on the wrong side of 0.
TEST(AuditProbe, ReplaceStatisticMeansAreTheDivergences) {
  Rng rng(20261127);
  AuditProbe p;
  const int n = 200000;
  const double sd = 1, half = 0.5;
  for (int i = 0; i < n; ++i) p.gaussian_replace(rng.gaussian(0, sd), sd, half, 1.0, true);
  EXPECT_NEAR(p.statistic_d() / n, 2 * half * half / (sd * sd), 0.012);
  EXPECT_NEAR(p.statistic_dprime() / n, -2 * half * half / (sd * sd), 0.012);
  EXPECT_NEAR(p.noise_energy_gaussian() / n, 1.0, 0.02);  // chi^2_1 mean, sd sqrt(2/2e5) = 0.0032
  // Subsampled (q = 1/28): the mean on D is still positive and on D' negative, and D's lies above D''s.
  AuditProbe s;
  for (int i = 0; i < n; ++i) s.gaussian_replace(rng.gaussian(0, sd), sd, 1.0, 1.0 / 28, rng.uniform_int(28) == 0);
  EXPECT_GT(s.statistic_d(), s.statistic_dprime());
}

// A Gamma-norm release in R^d: alpha ||e|| ~ Gamma(d, 1), so the energy over many draws is d per draw; the
// twin drawn at half the scale has half of it.
TEST(AuditProbe, GammaNormEnergyHasItsClaimedMean) {
  Rng rng(7);
  const int d = 5, n = 20000;
  const double alpha = 2;
  AuditProbe ok, half;
  for (int i = 0; i < n; ++i) {
    double e[d], total = 0;
    for (int k = 0; k < d; ++k) total += -std::log(rng.uniform01()) / alpha;  // Gamma(d, 1/alpha): the norm
    double g[d], gn = 0;
    for (int k = 0; k < d; ++k) g[k] = rng.gaussian(), gn += g[k] * g[k];
    for (int k = 0; k < d; ++k) e[k] = total * g[k] / std::sqrt(gn);
    ok.norm_exponential(e, d, alpha, 1.0);
    for (int k = 0; k < d; ++k) e[k] /= 2;
    half.norm_exponential(e, d, alpha, 1.0);
  }
  // Mean alpha||e||/d = 1, standard error sqrt(d n)/(d n) = 0.0032; tolerance 0.02 (over 6 of them).
  EXPECT_NEAR(ok.noise_energy_norm() / ok.norm_shape(), 1.0, 0.02);
  EXPECT_NEAR(half.noise_energy_norm() / half.norm_shape(), 0.5, 0.02);
  EXPECT_GT(ok.statistic_d(), ok.statistic_dprime());
}

}  // namespace
