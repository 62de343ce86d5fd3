// SPDX-License-Identifier: Apache-2.0
// `auto` takes the minimum of every bound that applies, including the ledger's unsampled variant (sampling never
// hurts), and no accountant reports more than the trivial basic-composition bound. Two golden cases, and
// RapidCheck properties on random small ledgers: auto <= each applicable accountant, sampling never hurts, every
// accountant <= basic composition where it applies, lower <= upper, monotone in the noise, composition adds.
#include "accounting/composition/basic_composition.h"
#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/numeric/decimal.h"
#include "accounting/rdp/rdp_accountant.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

namespace dpl {
namespace {

Ledger ledger_of(const std::string& specs) {
  Ledger l;
  std::size_t pos = 0;
  while (pos < specs.size()) {
    const auto space = specs.find(' ', pos);
    l.push_back(parse_entry(specs.substr(pos, space == std::string::npos ? std::string::npos : space - pos)));
    if (space == std::string::npos) break;
    pos = space + 1;
  }
  return l;
}

// The PLD on one grid 8x coarser than the one it would choose for the ledger and for its unsampled variant (a valid,
// looser bound at a fraction of the cost), so that the properties below can run auto, which includes the PLD, on
// hundreds of ledgers.
PldOptions coarse_pld(const Ledger& l, double delta) {
  PldOptions o;
  o.lower = false;
  double grid = 0;
  Ledger unsampled = l;
  for (auto& e : unsampled) e.q = 1, e.sampling = Sampling::none;
  for (const Ledger* x : {&l, static_cast<const Ledger*>(&unsampled)}) try {
      grid = std::max(grid, pld_fine_grid(*x, Target::for_delta(delta), o));
    } catch (const NotApplicable&) {
    }
  if (grid > 0) o.grid = 8 * grid, o.refine = false;
  return o;
}

std::optional<AccountingResult> try_compose(const Ledger& l, double delta, AccountantKind k, const PldOptions& o) {
  try {
    return compose_with_pld_options(l, Target::for_delta(delta), k, o);
  } catch (const NotApplicable&) {
    return std::nullopt;
  }
}

// 500 steps of a WOR-sampled Gaussian gave 1.639 (RDP, the only accountant for wor), above the
// exact value 1.52386549372379 of the same Gaussian without sampling. auto now takes the unsampled bound; rdp alone
// stays at 1.6388 (the twin: what auto reported before).
TEST(AutoMinimum, SamplingWithoutReplacementNeverHurts) {
  const Ledger sampled = ledger_of("gaussian:sigma=128,sens=2,q=0.1,sampling=wor,steps=500");
  const Ledger unsampled = ledger_of("gaussian:sigma=128,sens=2,steps=500");
  const auto a = compose(sampled, Target::for_delta(1e-6), AccountantKind::automatic);
  const auto exact = compose(unsampled, Target::for_delta(1e-6), AccountantKind::optimal);
  EXPECT_LE(hi(a.epsilon), hi(exact.epsilon));
  EXPECT_LT(hi(a.epsilon), Real(1.5239));
  EXPECT_FALSE(a.lower.has_value());  // the variant's lower bound is not one on the sampled ledger's value
  const auto rdp = compose(sampled, Target::for_delta(1e-6), AccountantKind::rdp);
  EXPECT_GT(hi(rdp.epsilon), Real(1.6388));  // the twin: without the unsampled variant auto printed this
}

// 5 Laplace steps with b = 0.01 (pure epsilon 100 each) by PLD printed 500.0024 > 500 before the cap.
TEST(AutoMinimum, NoAccountantExceedsTheSumOfPureEpsilons) {
  const Ledger l = ledger_of("laplace:b=0.01,steps=5");
  const auto basic = compose(l, Target::for_delta(1e-12), AccountantKind::basic);
  for (const auto k : {AccountantKind::pld, AccountantKind::rdp, AccountantKind::advanced, AccountantKind::automatic}) {
    const auto r = try_compose(l, 1e-12, k, coarse_pld(l, 1e-12));
    ASSERT_TRUE(r.has_value()) << to_string(k);
    EXPECT_LE(hi(r->epsilon), hi(basic.epsilon)) << to_string(k);
    if (r->lower) {
      EXPECT_LE(lo(*r->lower), hi(r->epsilon));
    }
  }
}

// A random small ledger: 1-3 entries of gaussian, laplace or pure, all unsampled, all Poisson or all wor, 1-100 steps;
// delta from 1e-8 to 1e-3.
struct Case {
  Ledger ledger;
  double delta;
};
Case random_case(unsigned a, unsigned b, unsigned c) {
  const unsigned scheme = a % 3;  // none, poisson, wor
  Case k{};
  const unsigned n = 1 + b % 3;
  for (unsigned i = 0; i < n; ++i) {
    const unsigned h = (a + 7919 * i) * 2654435761u ^ (b + 104729 * i);
    const double steps = 1 + h % 100;
    const double x = 0.2 + (h % 1000) / 200.0;  // 0.2 .. 5.2
    char spec[160];
    switch ((h >> 10) % 3) {
      case 0: std::snprintf(spec, sizeof spec, "gaussian:sigma=%.4g,sens=%.3g,steps=%.0f", x, 0.5 + (h % 7) / 4.0, steps); break;
      case 1: std::snprintf(spec, sizeof spec, "laplace:b=%.4g,steps=%.0f", x, steps); break;
      default: std::snprintf(spec, sizeof spec, "pure:eps=%.4g,steps=%.0f", 0.1 + x / 5, steps); break;
    }
    std::string s = spec;
    const double q = 0.01 + ((h >> 5) % 90) / 100.0;
    char qs[64];
    std::snprintf(qs, sizeof qs, ",q=%.2f,sampling=%s", q, scheme == 1 ? "poisson" : "wor");
    if (scheme != 0) s += qs;
    k.ledger.push_back(parse_entry(s));
  }
  k.delta = std::pow(10.0, -3.0 - (c % 6));
  return k;
}

RC_GTEST_PROP(AutoMinimum, AutoIsBelowEveryApplicableAccountantAndSamplingNeverHurts, (unsigned a, unsigned b, unsigned c)) {
  const Case k = random_case(a, b, c);
  const PldOptions o = coarse_pld(k.ledger, k.delta);
  const auto automatic = try_compose(k.ledger, k.delta, AccountantKind::automatic, o);
  RC_ASSERT(automatic.has_value());
  const Real best = hi(automatic->epsilon);
  const auto basic = try_compose(k.ledger, k.delta, AccountantKind::basic, o);
  for (const auto kind : {AccountantKind::pure, AccountantKind::basic, AccountantKind::advanced, AccountantKind::optimal,
                          AccountantKind::rdp, AccountantKind::pld}) {
    const auto r = try_compose(k.ledger, k.delta, kind, o);
    if (!r) continue;
    RC_ASSERT(best <= hi(r->epsilon));                          // auto <= each applicable accountant
    if (basic) RC_ASSERT(hi(r->epsilon) <= hi(basic->epsilon));  // no accountant above the trivial bound
    if (r->lower) RC_ASSERT(lo(*r->lower) <= hi(r->epsilon));    // lower <= upper
    if (r->lower) RC_ASSERT(lo(*r->lower) <= best);              // a lower bound is below every upper bound
  }
  // Sampling never hurts: the same mechanisms without sampling give at least auto's bound.
  Ledger unsampled = k.ledger;
  for (auto& e : unsampled) e.q = 1, e.sampling = Sampling::none;
  const auto plain = try_compose(unsampled, k.delta, AccountantKind::automatic, o);
  RC_ASSERT(plain.has_value());
  RC_ASSERT(best <= hi(plain->epsilon));
}

// Monotone in the noise (RDP: every order's value decreases in sigma; the certified optimum follows to within the
// order search's tolerance) and the certified lower bound of the noisier ledger stays below the upper bound of the
// less noisy one (PLD: truth(sigma') <= truth(sigma)). Composition adds: the composed RDP curve is the sum of the parts.
RC_GTEST_PROP(AutoMinimum, MonotoneInTheNoiseAndCompositionAdds, (unsigned a, unsigned b)) {
  const double sigma = 0.5 + (a % 1000) / 250.0, q = 0.001 + (b % 500) / 1000.0;
  const int steps = 1 + static_cast<int>(b % 2000);
  char s1[128], s2[128];
  std::snprintf(s1, sizeof s1, "gaussian:sigma=%.4f,q=%.4f,steps=%d", sigma, q, steps);
  std::snprintf(s2, sizeof s2, "gaussian:sigma=%.4f,q=%.4f,steps=%d", sigma * 1.25, q, steps);
  const Ledger l1 = ledger_of(s1), l2 = ledger_of(s2);
  const auto r1 = compose(l1, Target::for_delta(1e-6), AccountantKind::rdp);
  const auto r2 = compose(l2, Target::for_delta(1e-6), AccountantKind::rdp);
  RC_ASSERT(hi(r2.epsilon) <= hi(r1.epsilon) * (1 + Real(1e-9)));
  const ComposedRdp c1(l1), c2(l2), both(Ledger{l1[0], l2[0]});
  for (const double alpha : {1.5, 2.0, 3.25, 8.0}) {
    const Interval sum = c1.certified_at(alpha) + c2.certified_at(alpha), joint = both.certified_at(alpha);
    RC_ASSERT(hi(c2.certified_at(alpha)) <= hi(c1.certified_at(alpha)));
    RC_ASSERT(lo(joint) <= hi(sum) && lo(sum) <= hi(joint));
  }
  if (a % 8 == 0) {
    const PldOptions o = coarse_pld(l1, 1e-6);
    const auto p1 = try_compose(l1, 1e-6, AccountantKind::pld, o), p2 = try_compose(l2, 1e-6, AccountantKind::pld, o);
    RC_ASSERT(p1 && p2);
    if (p2->lower) RC_ASSERT(lo(*p2->lower) <= hi(p1->epsilon));
  }
}

}  // namespace
}  // namespace dpl
