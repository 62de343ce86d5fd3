// SPDX-License-Identifier: Apache-2.0
// The one-run bound (Steinke, Nasr and Jagielski 2023, Thm 3.1) against an independent 50-digit computation
// (mpmath: the binomial sums term by term, bisection to 1e-24), and the properties of its certified evaluation.
#include "audit/one_run_bound.h"

#include "accounting/errors.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

namespace {

using dpl::audit::OneRunGuesses;

struct Golden {
  OneRunGuesses g;
  double delta, significance, epsilon;  // epsilon: sup{eps : f(v) <= significance}, 50 digits, rounded here
};

// python3 + mpmath (mp.dps = 50): f(v) = sum_{j>=v} pmf(j) + 2 m delta max_i sum_{j=v-i}^{v-1} pmf(j) / i.
const Golden kGolden[] = {
    {{1000, 100, 100}, 1e-5, 0.05, 3.4653763478110464511},
    {{1000, 100, 90}, 1e-5, 0.05, 1.6261434806957261922},
    {{1000, 333, 253}, 1e-5, 0.05, 0.93416904144874737451},
    {{1000, 500, 300}, 0, 0.05, 0.25168496618252965424},
    {{10000, 1000, 900}, 1e-6, 0.05, 2.0206455958654327314},
    {{200, 50, 45}, 1e-3, 0.01, 0.0},
    {{1000, 10, 10}, 1e-5, 0.05, 1.0149862038846712562},
    {{5000, 2000, 1500}, 1e-5, 0.05, 1.0119859908321932846},
    {{400, 175, 113}, 1e-5, 0.05, 0.3297947544748378629},
};

TEST(OneRunBound, CertifiedLowerBoundIsBelowAndWithin1e8OfTheExactValue) {
  for (const auto& c : kGolden) {
    const double e = dpl::audit::one_run_epsilon_lower(c.g, c.delta, c.significance);
    EXPECT_LE(e, c.epsilon) << c.g.m << " " << c.g.r << " " << c.g.v;
    EXPECT_GE(e, c.epsilon - 1e-8 * std::max(1.0, c.epsilon)) << c.g.m << " " << c.g.r << " " << c.g.v;
  }
}

TEST(OneRunBound, GoldenValuesCatchAMissingFactorTwo) {
  // A twin with m delta in place of 2 m delta (half the delta term) lands above the exact values: the golden
  // comparison above would fail for it.
  const Golden& c = kGolden[1];
  EXPECT_GT(dpl::audit::one_run_epsilon_estimate(c.g, c.delta / 2, c.significance), c.epsilon + 1e-4);
}

TEST(OneRunBound, CertifiedPValueAgreesWithTheEstimateTo1e9) {
  for (const auto& c : kGolden) {
    for (double eps : {0.0, 0.5, 1.0, 3.0}) {
      const double est = dpl::audit::one_run_p_value_estimate(c.g, eps, c.delta);
      const double up = dpl::audit::one_run_p_value_upper(c.g, eps, c.delta);
      EXPECT_GE(up, est * (1 - 1e-9)) << eps;  // the estimate's lgamma terms carry ~1e-11 relative error
      EXPECT_LE(up, est * (1 + 1e-9) + 1e-300) << eps;
    }
  }
}

TEST(OneRunBound, RejectsBadCounts) {
  EXPECT_THROW(dpl::audit::one_run_epsilon_lower({10, 11, 5}, 1e-5, 0.05), dpl::InputError);
  EXPECT_THROW(dpl::audit::one_run_epsilon_lower({10, 5, 6}, 1e-5, 0.05), dpl::InputError);
  EXPECT_THROW(dpl::audit::one_run_epsilon_lower({10, 5, 5}, 1.0, 0.05), dpl::InputError);
  EXPECT_THROW(dpl::audit::one_run_epsilon_lower({10, 5, 5}, 1e-5, 0.0), dpl::InputError);
}

// More correct guesses never lower the bound; a larger delta or a smaller significance never raises it.
RC_GTEST_PROP(OneRunBound, MonotoneInCorrectGuessesDeltaAndSignificance, ()) {
  const auto m = static_cast<std::uint64_t>(*rc::gen::inRange(10, 3000));
  const auto r = static_cast<std::uint64_t>(*rc::gen::inRange<std::uint64_t>(1, m + 1));
  const auto v = static_cast<std::uint64_t>(*rc::gen::inRange<std::uint64_t>(0, r));
  const double delta = std::pow(10.0, -*rc::gen::inRange(3, 9));
  const double a = dpl::audit::one_run_epsilon_estimate({m, r, v}, delta, 0.05);
  const double b = dpl::audit::one_run_epsilon_estimate({m, r, v + 1}, delta, 0.05);
  RC_ASSERT(b >= a - 1e-9);
  RC_ASSERT(dpl::audit::one_run_epsilon_estimate({m, r, v}, delta * 10, 0.05) <= a + 1e-9);
  RC_ASSERT(dpl::audit::one_run_epsilon_estimate({m, r, v}, delta, 0.01) <= a + 1e-9);
}

TEST(OneRunFdp, RejectsMoreThanTheEpsDeltaBoundOnTheSameGuessesAndIsMonotone) {
  // Same guesses as a fixed-threshold case checked against jax_privacy's auditing.py (0.58014684655, its xtol 1e-6).
  const OneRunGuesses g{400, 175, 113};
  const double e = dpl::audit::one_run_fdp_epsilon(g, 1e-5, 0.05);
  EXPECT_NEAR(e, 0.5801468465517888, 2e-6);
  EXPECT_GT(e, dpl::audit::one_run_epsilon_lower(g, 1e-5, 0.05));
  EXPECT_TRUE(dpl::audit::one_run_fdp_rejects(g, e - 1e-3, 1e-5, 0.05));
  EXPECT_FALSE(dpl::audit::one_run_fdp_rejects(g, e + 1e-3, 1e-5, 0.05));
}

TEST(OneRunFdp, GaussianMuForEpsilonDelta) {
  // mu of the Gaussian mechanism that is exactly (1, 1e-5)-DP: sigma = 3.730631634815946 (scipy brentq on Balle and
  // Wang's delta, xtol 1e-14), mu = 1/sigma, returned rounded up.
  const double mu = dpl::audit::gaussian_mu_for(1.0, 1e-5);
  EXPECT_GE(mu, 0.26805112321129393 * (1 - 1e-12));
  EXPECT_LE(mu, 0.26805112321129393 * (1 + 1e-10));
}

}  // namespace
