// SPDX-License-Identifier: Apache-2.0
// Two-sided golden values of the subsampled-Gaussian RDP with sens != 1 and extreme magnitudes: the certified
// upper bound (200-bit path and binary64 fast path) and its printed decimal are >= an independent 25-digit
// reference and within a stated slack. References: tests/accounting/rdp_golden_values.py (mpmath, 60 digits:
// the binomial sum at integer orders, quadrature of the definition at fractional orders, exact binary64 inputs).
#include "accounting/composition/compose.h"
#include "accounting/numeric/decimal.h"
#include "accounting/rdp/rdp_accountant.h"
#include "accounting/rdp/rdp_conversion.h"
#include "accounting/rdp/rdp_subsampled_gaussian.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

namespace dpl {
namespace {

struct Golden {
  double sigma, sens, q, alpha;
  const char* rdp;  // 25 significant digits, rounded to nearest
  double slack;     // relative slack of the 200-bit path (near alpha = 1 its series is capped at 2500 terms)
};

// The reference is given to 25 digits: allow its last digit (5e-25 relative) below.
void expect_two_sided(const std::string& printed, const Interval& v, const char* ref, double rel_slack) {
  const Real r(ref), floor_r = r * (1 - Real("1e-24"));
  EXPECT_GE(hi(v), floor_r) << format_upper(v) << " vs " << ref;
  EXPECT_GE(Real(printed), floor_r) << printed << " vs " << ref;  // the printed decimal too
  EXPECT_LE(Real(printed) - r, r * Real(rel_slack)) << printed << " vs " << ref;
}

const Golden kGolden[] = {
    {2.399, 2.507, 0.0474, 8, "0.8957033299680750867574399", 1e-13},  // 0.895703329968075 (below) is what a wrong rounding prints
    {2.544, 1.965, 0.0156, 7.25, "0.0007881553853811657987206029", 1e-13},
    {0.3, 3.7, 0.2, 3, "225.7525097980155549841591", 1e-13},
    {5e-3, 1e-2, 1e-3, 2.5, "0.00008365779777209386622982202", 1e-13},
    {1.1, 1.0, 0.01, 4.5, "0.0003030393494134549346773167", 1e-13},
    {37.0, 41.0, 0.9, 12, "7.252482896203598140487965", 1e-13},
    {1e3, 2e3, 1e-6, 1.5, "4.017902150087060437380091e-11", 1e-9},
};

TEST(RdpGolden, SubsampledGaussianWithSensitivityIsAnUpperBound) {
  for (const auto& g : kGolden) {
    const SubsampledGaussianRdp c(g.q, g.sigma, g.sens);
    const Interval slow = c.at(Real(g.alpha));
    expect_two_sided(format_upper(slow), slow, g.rdp, g.slack);
    const Interval fast = c.certified_at(g.alpha);
    expect_two_sided(format_upper(fast), fast, g.rdp, 1e-12);
    // Through the ledger (the curve the CLI uses).
    const std::string spec = "gaussian:sigma=" + format_input(g.sigma) + ",sens=" + format_input(g.sens) +
                             ",q=" + format_input(g.q);
    const ComposedRdp composed(Ledger{parse_entry(spec)});
    expect_two_sided(format_upper(composed.at(Real(g.alpha))), composed.at(Real(g.alpha)), g.rdp, g.slack);
  }
}

// Orders near 1 and sampling rates up to 0.9: the fast path's series with the accelerated tail (CRVZ 2000, Prop. 1;
// docs/rdp_fractional_tail.md). Before it, these fell back to the convexity chord from order 2 (q 0.3 at order 1.01:
// 0.109 for 0.0447). References by quadrature of the definition (mpmath, 45 digits).
const Golden kNearOne[] = {
    {1.1, 1.0, 0.3, 1.01, "0.04471401429131443222551094", 0},
    {1.1, 1.0, 0.7, 1.01, "0.2119050618494369114628590", 0},
    {1.1, 1.0, 0.7, 1.25, "0.2723512725982521919342526", 0},
    {1.1, 1.0, 0.3, 1.5, "0.07330959197025375936329352", 0},
    {0.6, 1.3, 0.02, 1.25, "0.009403674646993110522402386", 0},
    {2.5, 1.3, 0.005, 1.75, "0.000006789023804314819101643298", 0},
    {0.5, 1.0, 0.9, 1.5, "2.734045878746672512355885", 0},
    {3.0, 1.0, 0.45, 1.1, "0.01261403874791740793330025", 0},
};

TEST(RdpGolden, FractionalOrdersNearOneAreTight) {
  for (const auto& g : kNearOne) {
    const SubsampledGaussianRdp c(g.q, g.sigma, g.sens);
    const Interval fast = c.certified_at(g.alpha);
    expect_two_sided(format_upper(fast), fast, g.rdp, 1e-12);
  }
}

// The 100-entry heterogeneous ledger (sigma_i = 0.8 + 0.02 i, q_i = 0.005 + 0.0002 i, sens 1.3, 100 steps each,
// delta 1e-5): certified at the fractional order it finds (3.648), at most dp_accounting's value (6.9997, float64, at
// its grid order 3.6), and above the exact epsilon at its order. References (mpmath, 30 digits, quadrature of each
// entry's RDP; tests/accounting/rdp_golden_values.py): exact epsilon at order 3.647999938013287 6.996050098230368680854686,
// at dp_accounting's best grid order 3.6 6.998896669723945411280127, at the best integer order 4 7.195080697637575450392682.
TEST(RdpGolden, HeterogeneousLedgerAtTheOptimalFractionalOrder) {
  Ledger ledger;
  for (int i = 0; i < 100; ++i) {
    char spec[96];
    std::snprintf(spec, sizeof spec, "gaussian:sigma=%.4f,sens=1.3,q=%.4f,steps=100", 0.8 + 0.02 * i, 0.005 + 0.0002 * i);
    ledger.push_back(parse_entry(spec));
  }
  const auto r = compose(ledger, Target::for_delta(1e-5), AccountantKind::rdp);
  ASSERT_TRUE(r.order.has_value());
  EXPECT_NE(*r.order, std::floor(*r.order));  // a fractional order, not an integer one
  EXPECT_NEAR(*r.order, 3.648, 1e-3);
  EXPECT_LE(hi(r.epsilon), Real("6.9997"));
  EXPECT_LE(hi(r.epsilon), Real("6.998896669723945411280127"));  // below the exact value at any grid order
  // Two-sided at the order it chose, against the exact value there (within the search tolerance of 3.648).
  const ComposedRdp rdp(ledger);
  const Interval eps = rdp_to_epsilon(rdp.certified_at(3.647999938013287), Real(3.647999938013287), 1e-5);
  expect_two_sided(format_upper(eps), eps, "6.996050098230368680854686", 1e-12);
  EXPECT_LE(hi(r.epsilon), Real("6.996050098230368680854686") * (1 + Real(1e-9)));
}

TEST(RdpGolden, ComposedEpsilonIsAnUpperBound) {
  // At order 13.14837403710337 (the order the accountant chose) 0.836724644125965 was printed, below the
  // exact 0.8367246441259650790... (reference: 100 x the quadrature value 0.00180204081167974876662196365856
  // converted by min(Mironov 2017 Prop. 3, Balle et al. 2020 Thm 21) at delta = binary64 1e-5, mpmath 60 digits).
  const double order = 13.14837403710337;
  const char* exact_eps = "0.836724644125965079037378280475";
  const ComposedRdp rdp(Ledger{parse_entry("gaussian:sigma=2.544,sens=1.965,q=0.0156,steps=100")});
  for (const Interval& r : {rdp.at(Real(order)), rdp.certified_at(order)}) {
    const Interval eps = rdp_to_epsilon(r, Real(order), 1e-5);
    expect_two_sided(format_upper(eps), eps, exact_eps, 1e-13);
  }
  // The accountant's own answer is at least the exact epsilon at its order, hence at least the exact optimum over
  // orders, which lies below the value at 13.148 by less than the search tolerance allows.
  const auto r = compose(Ledger{parse_entry("gaussian:sigma=2.544,sens=1.965,q=0.0156,steps=100")},
                         Target::for_delta(1e-5), AccountantKind::rdp);
  EXPECT_LE(hi(r.epsilon), Real(exact_eps) * (1 + Real(1e-9)));
  EXPECT_GE(hi(r.epsilon), Real(exact_eps) * (1 - Real(1e-6)));
}

}  // namespace
}  // namespace dpl
