// SPDX-License-Identifier: Apache-2.0
// The PLD's grouping of thousands of distinct Gaussian entries (pld_entry_groups.h): every entry lands in one group
// whose upper representative is at most as noisy and at least as often sampled (and the lower one the reverse), the
// steps add up, at most 256 groups unless they are at their widest; 300 distinct unsampled Gaussians bracket the exact analytic value, and a twin that
// takes each group's most private member for the upper bound falls below it.
#include "accounting/composition/compose.h"
#include "accounting/mechanisms/analytic_gaussian.h"
#include "accounting/pld/pld_accountant.h"
#include "accounting/pld/pld_entry_groups.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdio>

namespace dpl {
namespace {

Ledger gaussians(unsigned seed, std::size_t n, bool sampled) {
  Ledger l;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned h = (seed + 7919 * static_cast<unsigned>(i)) * 2654435761u;
    char spec[128];
    const double sigma = 0.5 + (h % 100000) / 20000.0, sens = 0.5 + (h >> 20) % 8 / 4.0;
    if (sampled)
      std::snprintf(spec, sizeof spec, "gaussian:sigma=%.6f,sens=%.2f,q=%.6f,steps=%u", sigma, sens,
                    0.001 + ((h >> 7) % 1000) / 2000.0, 1 + h % 50);
    else
      std::snprintf(spec, sizeof spec, "gaussian:sigma=%.6f,sens=%.2f,steps=%u", sigma, sens, 1 + h % 50);
    l.push_back(parse_entry(spec));
  }
  return l;
}

RC_GTEST_PROP(PldEntryGroups, EveryEntryIsDominatedByItsUpperGroupAndDominatesItsLowerOne,
              (unsigned seed, unsigned count, bool sampled)) {
  const Ledger l = gaussians(seed, 257 + count % 2000, sampled);
  const GroupedLedger g = group_pld_entries(l);
  // At most 256 groups, unless the groups have reached their widest (2^-6 in log2: 1.1%) or nothing could merge.
  RC_ASSERT(g.upper.size() <= kMaxPldDistinctEntries || g.resolution >= std::exp2(0x1p-6) - 1 || g.resolution == 0);
  RC_ASSERT(g.upper.size() == g.lower.size());
  std::vector<std::int64_t> steps(g.upper.size(), 0);
  for (std::size_t i = 0; i < l.size(); ++i) {
    const LedgerEntry &e = l[i], &up = g.upper[g.group_of[i]], &down = g.lower[g.group_of[i]];
    steps[g.group_of[i]] += e.steps;
    // sigma/sens compared exactly as products (the test's doubles are far from ties).
    RC_ASSERT(up.mechanism.sigma * e.mechanism.sens <= e.mechanism.sigma * up.mechanism.sens);
    RC_ASSERT(down.mechanism.sigma * e.mechanism.sens >= e.mechanism.sigma * down.mechanism.sens);
    RC_ASSERT(up.q >= e.q && down.q <= e.q);
    RC_ASSERT(up.sampling == e.sampling);
    // Within the stated resolution (plus the rounding of log2 at a bin's edge).
    RC_ASSERT(e.mechanism.sigma / e.mechanism.sens <= up.mechanism.sigma / up.mechanism.sens * (1 + g.resolution) * (1 + 1e-12));
  }
  for (std::size_t k = 0; k < g.upper.size(); ++k) RC_ASSERT(steps[k] == g.upper[k].steps && steps[k] == g.lower[k].steps);
}

// 300 distinct unsampled Gaussians compose to one Gaussian with mu = sqrt(sum steps (sens/sigma)^2) (Dong, Roth and Su
// 2019): the exact epsilon is the analytic Gaussian's. The grouped PLD brackets it; the twin (each group at its most
// private member, presented as an upper bound) falls below it, so the check can fail.
TEST(PldEntryGroups, ThreeHundredGaussiansBracketTheExactValue) {
  Ledger l;
  for (int i = 0; i < 300; ++i) {
    char spec[96];
    std::snprintf(spec, sizeof spec, "gaussian:sigma=%.4f,steps=10", 4 + 0.01 * i);
    l.push_back(parse_entry(spec));
  }
  const auto exact_r = compose(l, Target::for_delta(1e-6), AccountantKind::optimal);
  const auto r = compose_pld(l, Target::for_delta(1e-6));
  EXPECT_GE(lo(r.epsilon), hi(exact_r.epsilon));
  EXPECT_LE(hi(r.epsilon), hi(exact_r.epsilon) * 1.01);
  if (r.lower) {
    EXPECT_LE(hi(*r.lower), lo(exact_r.epsilon));
  }
  const GroupedLedger g = group_pld_entries(l);
  ASSERT_GT(g.resolution, 0);
  const auto twin = compose_pld(g.lower, Target::for_delta(1e-6));
  EXPECT_LT(hi(twin.epsilon), lo(exact_r.epsilon));  // caught
}

}  // namespace
}  // namespace dpl
