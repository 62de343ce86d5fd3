// SPDX-License-Identifier: Apache-2.0
// Certified lower bounds only from pairs the mechanism attains (accounting/pld/loss_pair_extended.h, unattained_lower_pair):
// a dominating pair that is only a cover (a labelled mixture, randomized response at the exponential mechanism's eps,
// a clone pair) bounds the cover, and its optimistic PLD may lie above the true value. Each mechanism class is checked
// against a closed form on the truth, with a twin (the cover's value, what was printed before) that the same check
// catches, and the mechanisms whose pairs are attained keep their lower bounds.
#include "accounting/composition/compose.h"
#include "accounting/mechanisms/analytic_gaussian.h"
#include "accounting/mechanisms/mechanism_spec.h"
#include "accounting/numeric/decimal.h"
#include "accounting/pld/loss_pair_extended.h"
#include "accounting/pld/pld_accountant.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace dpl {
namespace {

AccountingResult at_delta(const std::string& spec, double delta, AccountantKind kind = AccountantKind::pld) {
  return compose(Ledger{parse_entry(spec)}, Target::for_delta(delta), kind);
}

AccountingResult at_epsilon(const std::string& spec, double eps, AccountantKind kind = AccountantKind::pld) {
  return compose(Ledger{parse_entry(spec)}, Target::for_epsilon(eps), kind);
}

// Sampling with replacement, one draw from n = 100 under replace-one: Balle, Barthe and Gaboardi 2018 (Thm 10, m = 1)
// with the exact Gaussian curve: (log(1 + (e^eps_G - 1)/n), delta_G/n), eps_G the analytic Gaussian's epsilon at
// delta n 1e-5 (Balle and Wang 2018, Thm 8). An upper bound on the truth; the lower bound must be below it. The
// labelled mixture's own value (the Gaussian's at delta 1e-3: what its optimistic PLD bounded) is far above.
TEST(AttainedLowerBound, WrGaussianBelowBalleBartheGaboardi) {
  const double n = 100, delta = 1e-5;
  const EpsilonSearch g = analytic_gaussian_epsilon(exact(0.5), n * delta);
  const Interval closed_form = log1p((exp(g.epsilon) - exact(1.0)) / exact(n));
  const auto r = at_delta("wr_gaussian:sigma=2,batch_size=1,dataset_size=100", delta);
  ASSERT_TRUE(r.lower.has_value()) << r.note;  // one draw: the attained mixture (1 - 1/n) N(0) + N(1)/n against N(0)
  EXPECT_GT(lo(*r.lower), 0.0);
  EXPECT_LE(hi(*r.lower), lo(closed_form)) << format_lower(*r.lower) << " above " << format_upper(closed_form);
  EXPECT_GE(hi(r.epsilon), lo(*r.lower));
  // The twin: the cover's lower bound (the labelled pair's, i.e. the Gaussian's at delta n 1e-5) is caught.
  const auto cover = at_delta("gaussian:sigma=2", n * delta);
  ASSERT_TRUE(cover.lower.has_value());
  EXPECT_GT(lo(*cover.lower), hi(closed_form));
}

// Beyond what the attained mixture holds (batch_size above 1000), and for the truncated and shuffled mechanisms,
// there is no attained pair: no lower bound, and the note says why.
TEST(AttainedLowerBound, CoversGiveNoLowerBound) {
  for (const std::string spec : {"wr_gaussian:sigma=200,batch_size=2000,dataset_size=1000000",
                                 "truncated_gaussian:sigma=1.1,q=0.01,batch_size=650,dataset_size=60000,steps=10",
                                 "shuffle:eps0=1,n=100"}) {
    const auto r = at_delta(spec, 1e-5);
    EXPECT_FALSE(r.lower.has_value()) << spec;
    EXPECT_NE(r.note.find("no certified lower bound"), std::string::npos) << spec << ": " << r.note;
    const auto a = at_delta(spec, 1e-5, AccountantKind::automatic);
    EXPECT_FALSE(a.lower.has_value()) << spec << " (auto)";
  }
  const LedgerEntry e = parse_entry("shuffle:eps0=1,n=100");
  EXPECT_TRUE(unattained_lower_pair(e).has_value());
}

// The exponential mechanism at eps 1, 10 steps: the lower bound comes from the two-candidate pair it attains
// (utilities (0, 1) and (1, 0): binary randomized response at eps/2), so it is at most that pair's exact value (Kairouz,
// Oh and Viswanath 2015, Thm 3.3, via the optimal accountant on pure:eps=0.5) and at most the rdp upper bound on the
// mechanism. The twin, randomized response at eps 1 (the cover), is above the rdp upper bound.
TEST(AttainedLowerBound, ExponentialMechanismBelowItsUpperBound) {
  const double delta = 1e-5;
  const auto r = at_delta("exponential:eps=1,steps=10", delta);
  const auto rdp = at_delta("exponential:eps=1,steps=10", delta, AccountantKind::rdp);
  const auto attained = at_delta("pure:eps=0.5,steps=10", delta, AccountantKind::optimal);
  ASSERT_TRUE(r.lower.has_value()) << r.note;
  EXPECT_LE(hi(*r.lower), lo(rdp.epsilon));
  EXPECT_LE(hi(*r.lower), hi(attained.epsilon));
  EXPECT_GE(lo(*r.lower), 0.95 * lo(*attained.lower));  // the attained pair's value, up to the PLD's lower gap
  const auto cover = at_delta("pure:eps=1,steps=10", delta, AccountantKind::optimal);
  ASSERT_TRUE(cover.lower.has_value());
  EXPECT_GT(lo(*cover.lower), hi(rdp.epsilon));
  // auto: never the cover's lower bound.
  const auto a = at_delta("exponential:eps=1,steps=10", delta, AccountantKind::automatic);
  if (a.lower) {
    EXPECT_LE(hi(*a.lower), lo(rdp.epsilon));
  }
}

// At --epsilon 0 the delta is the total variation. Permute-and-flip at eps E on two candidates whose utilities swap
// attains 1 - e^{-E/2} (McKenna and Sheldon 2020, Alg. 1: P(r1) = e^{-E/2}/2 against 1 - e^{-E/2}/2); the exponential
// mechanism attains tanh(E/4). Randomized response at E (the cover) has tanh(E/2), above both: the twin.
TEST(AttainedLowerBound, SelectionMechanismsTotalVariation) {
  const double e = 1;
  const double pf_tv = -std::expm1(-e / 2), em_tv = std::tanh(e / 4), rr_tv = std::tanh(e / 2);
  const auto pf = at_epsilon("permute_and_flip:eps=1", 0);
  ASSERT_TRUE(pf.lower.has_value()) << pf.note;
  EXPECT_LE(hi(*pf.lower), pf_tv * (1 + 1e-12));
  EXPECT_GE(lo(*pf.lower), pf_tv * 0.99);
  const auto em = at_epsilon("exponential:eps=1", 0);
  ASSERT_TRUE(em.lower.has_value()) << em.note;
  EXPECT_LE(hi(*em.lower), em_tv * (1 + 1e-12));
  EXPECT_GE(lo(*em.lower), em_tv * 0.99);
  EXPECT_GT(rr_tv, pf_tv * (1 + 1e-3));
  EXPECT_GT(rr_tv, em_tv * (1 + 1e-3));
  const auto rr = at_epsilon("rr:eps=1", 0);
  ASSERT_TRUE(rr.lower.has_value());
  EXPECT_GT(lo(*rr.lower), pf_tv);  // the cover's lower bound, caught by the check above
}

// The mechanisms whose pairs are attained keep their lower bounds (below their upper bounds).
TEST(AttainedLowerBound, AttainedPairsKeepTheirLowerBounds) {
  for (const std::string spec :
       {"gaussian:sigma=1.1,q=0.01,steps=100", "laplace:b=2,steps=5", "rr:eps=0.5,steps=4", "rr:p=0.5,k=4,steps=3",
        "discrete_laplace:a=0.5,sens=2,steps=3", "discrete_gaussian:sigma=2,dim=1,steps=3", "tree:sigma=5,leaves=100",
        "mixture:sigma=1,sens=[0,1,2],probs=[0.5,0.375,0.125],steps=10", "wr_gaussian:sigma=2,batch_size=3,dataset_size=10"}) {
    const auto r = at_delta(spec, 1e-5);
    ASSERT_TRUE(r.lower.has_value()) << spec << ": " << r.note;
    EXPECT_LE(hi(*r.lower), lo(r.epsilon)) << spec;
    EXPECT_FALSE(unattained_lower_pair(parse_entry(spec)).has_value()) << spec;
  }
}

}  // namespace
}  // namespace dpl
