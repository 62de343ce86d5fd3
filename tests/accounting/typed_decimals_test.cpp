// SPDX-License-Identifier: Apache-2.0
// Typed decimals honoured in the safe direction: every bound holds at the decimal typed, not at its nearest double.
// The references are computed here at 332 bits from the closed forms (sharing no code with the accountants) or, for
// the soundness review's reproductions, pasted from 120-digit mpmath computations at the typed decimals. Each check
// is paired with a twin that must be caught: the same ledger read to the nearest doubles (the parser before), a
// calibrated value printed as its nearest shortest decimal, or lower bounds from the pessimistic ends.
#include "accounting/calibration/calibrate.h"
#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/mechanisms/mechanism_spec.h"
#include "accounting/numeric/decimal.h"
#include "accounting/pld/loss_pair.h"
#include "accounting/rdp/rdp_accountant.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <boost/multiprecision/mpfr.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

namespace dpl {
namespace {

// The reference type: 100 decimal digits (332 bits), rounded to nearest; accurate far beyond every comparison below.
using Ref = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<100>, boost::multiprecision::et_off>;

Ref ref_dec(const std::string& decimal) { return Ref(decimal); }
// Exact: the accountants' 200-bit endpoints fit in 332 bits.
Ref ref_of(const Real& x) {
  Ref r;
  mpfr_set(r.backend().data(), x.backend().data(), MPFR_RNDN);
  return r;
}

// Phi(x) = erfc(-x / sqrt 2) / 2.
Ref normal_cdf(const Ref& x) { return boost::multiprecision::erfc(-x / boost::multiprecision::sqrt(Ref(2))) / 2; }

// Balle and Wang 2018, Thm 8: delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu), in log space.
Ref gaussian_delta(const Ref& mu, const Ref& eps) {
  const Ref la = log(normal_cdf(mu / 2 - eps / mu)), lb = log(normal_cdf(-mu / 2 - eps / mu));
  return exp(la) * -boost::multiprecision::expm1(eps + lb - la);
}

// k-fold composition of (eps0, delta0)-DP, the worst case (Kairouz, Oh and Viswanath 2015, Thm 3.3), summed directly
// over the outcomes j of k randomized responses: 1 - (1 - delta0)^k (1 - sum_j [P(j) - e^eps Q(j)]_+).
Ref kov_delta(const Ref& eps0, const Ref& delta0, int k, const Ref& eps) {
  const Ref p = exp(eps0) / (1 + exp(eps0));
  Ref sum = 0, binom = 1;
  for (int j = 0; j <= k; ++j) {
    if (j > 0) binom = binom * (k - j + 1) / j;
    const Ref P = binom * pow(p, j) * pow(1 - p, k - j), Q = binom * pow(1 - p, j) * pow(p, k - j);
    const Ref v = P - exp(eps) * Q;
    if (v > 0) sum += v;
  }
  return 1 - pow(1 - delta0, k) * (1 - sum);
}

// RDP of the Poisson-subsampled Gaussian at an integer order (Mironov, Talwar and Zhang 2019, Sec. 3.2):
// log(sum_k C(a,k) (1-q)^{a-k} q^k e^{(k^2-k)/(2 z^2)}) / (a - 1).
Ref subsampled_gaussian_rdp(const Ref& q, const Ref& z, int a) {
  Ref sum = 0, binom = 1;
  for (int k = 0; k <= a; ++k) {
    if (k > 0) binom = binom * (a - k + 1) / k;
    sum += binom * pow(1 - q, a - k) * pow(q, k) * exp(Ref(k * k - k) / (2 * z * z));
  }
  return log(sum) / (a - 1);
}

// A ledger entry as the parser read decimals before: each value the nearest double, no enclosure (the twin).
LedgerEntry nearest_twin(const std::string& spec) {
  LedgerEntry e = parse_entry(spec);
  const RawSpec raw = parse_raw_spec(spec);
  for (const auto& [key, value] : raw.params) {
    const double v = std::strtod(value.c_str(), nullptr);
    const std::string k = canonical_key(key);
    if (k == "sigma") e.mechanism.sigma = v;
    if (k == "sens") e.mechanism.sens = v;
    if (k == "b") e.mechanism.b = v;
    if (k == "eps") e.mechanism.eps = v;
    if (k == "delta") e.mechanism.delta = v;
    if (k == "q") e.q = v;
    if (k == "contraction") e.mechanism.contraction = v;
  }
  e.optimistic.reset();
  return e;
}

// A random decimal m * 10^-s with `digits` significant digits in [lo, hi) (lo > 0), as text.
std::string decimal_in(std::mt19937_64& g, double lo, double hi, int digits) {
  const double x = std::uniform_real_distribution<double>(lo, hi)(g);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, x);
  return buf;
}

DecimalTarget typed_target(Target::Given given, const std::string& decimal) {
  const DecimalValue v = decimal_value(decimal);
  return {given, v.down, v.up};
}

// --- the soundness review's reproductions (references: mpmath, 120 digits, at the typed decimals) -----------------

TEST(TypedDecimals, GaussianAtEpsilon1e7) {
  // compose -m gaussian:sigma=0.8 --epsilon 1e7: delta = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu), mu = 1.25.
  const Ref truth = ref_dec("1.43829637823871236133770689106e-13897421249446");
  const AccountingResult r =
      compose(Ledger{parse_entry("gaussian:sigma=0.8")}, typed_target(Target::Given::epsilon, "1e7"), AccountantKind::automatic);
  EXPECT_GE(ref_of(hi(r.delta)), truth) << format_upper(r.delta);
  ASSERT_TRUE(r.lower);
  EXPECT_LE(ref_of(lo(*r.lower)), truth) << format_lower(*r.lower);
  // Twin: sigma read as the nearest double (0.8000000000000000444, more noise) printed 1.43319573252774e-..., 0.35%
  // below the truth.
  const AccountingResult t = compose(Ledger{nearest_twin("gaussian:sigma=0.8")}, Target::for_epsilon(1e7), AccountantKind::automatic);
  EXPECT_LT(ref_of(hi(t.delta)), truth);
}

TEST(TypedDecimals, GaussianTenStepsAt7_2e_11) {
  const Ref truth = ref_dec("1496.06967463945013168071490682");
  const std::string spec = "gaussian:sigma=0.06496,steps=10";
  const AccountingResult r = compose(Ledger{parse_entry(spec)}, typed_target(Target::Given::delta, "7.2e-11"), AccountantKind::automatic);
  EXPECT_GE(ref_dec(format_upper(r.epsilon)), truth) << format_upper(r.epsilon);  // the printed decimal too
  ASSERT_TRUE(r.lower);
  EXPECT_LE(ref_dec(format_lower(*r.lower)), truth);
  // Twin: printed 1496.06967463945, below 1496.0696746394501.
  const AccountingResult t =
      compose(Ledger{nearest_twin(spec)}, typed_target(Target::Given::delta, "7.2e-11"), AccountantKind::automatic);
  EXPECT_LT(ref_dec(format_upper(t.epsilon)), truth);
}

TEST(TypedDecimals, GaussianMillionStepsLowerBound) {
  const Ref truth = ref_dec("429.264109818532947007932096734");
  const std::string spec = "gaussian:sigma=36.23,steps=1000000";
  const AccountingResult r = compose(Ledger{parse_entry(spec)}, typed_target(Target::Given::delta, "0.037"), AccountantKind::automatic);
  ASSERT_TRUE(r.lower);
  EXPECT_LE(ref_dec(format_lower(*r.lower)), truth) << format_lower(*r.lower);
  EXPECT_GE(ref_dec(format_upper(r.epsilon)), truth);
  // Twin: epsilon_lower 429.264109818533 was above the truth.
  const AccountingResult t = compose(Ledger{nearest_twin(spec)}, typed_target(Target::Given::delta, "0.037"), AccountantKind::automatic);
  ASSERT_TRUE(t.lower);
  EXPECT_GT(ref_dec(format_lower(*t.lower)), truth);
}

TEST(TypedDecimals, SubsampledGaussianRdpOrder2) {
  // rdp -m gaussian:sigma=6.979,q=0.436 --orders 2: log(1 + q^2 (e^{1/sigma^2} - 1)).
  const Ref truth = ref_dec("0.00393547934032241001184318440762");
  EXPECT_EQ(subsampled_gaussian_rdp(ref_dec("0.436"), ref_dec("6.979"), 2) > truth * (1 - Ref("1e-30")), true);  // the closed form agrees
  const ComposedRdp rdp(Ledger{parse_entry("gaussian:sigma=6.979,q=0.436")});
  EXPECT_GE(ref_dec(format_upper(rdp.at(Real(2)))), truth) << format_upper(rdp.at(Real(2)));
  // Twin: printed 0.00393547934032241, below the truth.
  const ComposedRdp twin(Ledger{nearest_twin("gaussian:sigma=6.979,q=0.436")});
  EXPECT_LT(ref_dec(format_upper(twin.at(Real(2)))), truth);
}

TEST(TypedDecimals, ApproxLowerBoundAtTheTypedGuarantee) {
  // --json compose -m approx:eps=0.0148,delta=6.1e-09,steps=176 --delta 1.1e-05 --accountant optimal.
  const Ref truth = ref_dec("0.706563389045516983928217688211");
  const std::string spec = "approx:eps=0.0148,delta=6.1e-09,steps=176";
  const AccountingResult r = compose(Ledger{parse_entry(spec)}, typed_target(Target::Given::delta, "1.1e-05"), AccountantKind::optimal);
  ASSERT_TRUE(r.lower);
  EXPECT_LE(ref_dec(format_lower(*r.lower)), truth) << format_lower(*r.lower);
  EXPECT_GE(ref_dec(format_upper(r.epsilon)), truth);
  // Twin: the lower bound from the guarantees rounded up (no optimistic ends) printed 0.706563389045517.
  LedgerEntry twin = parse_entry(spec);
  twin.optimistic.reset();
  const AccountingResult t = compose(Ledger{twin}, typed_target(Target::Given::delta, "1.1e-05"), AccountantKind::optimal);
  ASSERT_TRUE(t.lower);
  EXPECT_GT(ref_dec(format_lower(*t.lower)), truth);
}

TEST(TypedDecimals, CalibratedEpsilonMeetsTheTargetWhenTypedBack) {
  // calibrate -m pure:eps=?,steps=10 --epsilon 1.6 --delta 6.7e-12 --accountant advanced.
  const DecimalValue delta = decimal_value("6.7e-12");
  const CalibrationResult c = calibrate({"pure:eps=?,steps=10"}, from_decimal("1.6"), delta.down, AccountantKind::advanced, 0);
  auto meets = [&](const std::string& printed) {
    const AccountingResult back = compose(Ledger{parse_entry("pure:eps=" + printed + ",steps=10")},
                                          DecimalTarget{Target::Given::delta, delta.down, delta.up}, AccountantKind::advanced);
    return hi(back.epsilon) <= lo(from_decimal("1.6"));
  };
  EXPECT_TRUE(meets(spec_decimal("eps", c.value))) << spec_decimal("eps", c.value);
  // Twin: the nearest shortest decimal, 0.15999999999999998 (what --json printed), misses it.
  EXPECT_FALSE(meets(format_input(c.value))) << format_input(c.value);
}

// --- properties at random typed decimals ------------------------------------------------------------------------

// Unsampled Gaussians under the analytic accountant, delta for a typed epsilon: upper >= truth >= lower at the decimals.
struct GaussianCase {
  std::string sigma, eps;
  int steps;
};
GaussianCase gaussian_case(std::mt19937_64& g) {
  GaussianCase c;
  const int digits = std::uniform_int_distribution<int>(2, 17)(g);
  c.sigma = decimal_in(g, 0.05, 20, digits);
  c.steps = std::uniform_int_distribution<int>(1, 1000)(g);
  const double mu = std::sqrt(static_cast<double>(c.steps)) / std::strtod(c.sigma.c_str(), nullptr);
  c.eps = decimal_in(g, 0.01, mu * mu / 2 + 4 * mu + 0.02, std::uniform_int_distribution<int>(2, 17)(g));
  return c;
}
Ref gaussian_truth(const GaussianCase& c) { return gaussian_delta(sqrt(Ref(c.steps)) / ref_dec(c.sigma), ref_dec(c.eps)); }

RC_GTEST_PROP(TypedDecimals, GaussianBoundsHoldAtTheTypedDecimals, ()) {
  std::mt19937_64 g(*rc::gen::arbitrary<std::uint64_t>());
  const GaussianCase c = gaussian_case(g);
  const Ref truth = gaussian_truth(c);
  const AccountingResult r = compose(Ledger{parse_entry("gaussian:sigma=" + c.sigma + ",steps=" + std::to_string(c.steps))},
                                     typed_target(Target::Given::epsilon, c.eps), AccountantKind::optimal);
  RC_ASSERT(ref_of(hi(r.delta)) >= truth);
  if (r.lower) RC_ASSERT(ref_of(lo(*r.lower)) <= truth);
}

TEST(TypedDecimals, GaussianTwinReadToNearestIsCaught) {
  std::mt19937_64 g(20261201);
  int caught = 0;
  for (int i = 0; i < 60; ++i) {
    const GaussianCase c = gaussian_case(g);
    const AccountingResult t = compose(Ledger{nearest_twin("gaussian:sigma=" + c.sigma + ",steps=" + std::to_string(c.steps))},
                                       Target::for_epsilon(std::strtod(c.eps.c_str(), nullptr)), AccountantKind::optimal);
    caught += ref_of(hi(t.delta)) < gaussian_truth(c);
  }
  EXPECT_GE(caught, 5) << "the nearest-double twin never bounded below the truth";
}

// Poisson-subsampled Gaussians: the RDP curve at integer orders bounds the one at the typed decimals.
struct RdpCase {
  std::string sigma, q;
  int order;
};
RdpCase rdp_case(std::mt19937_64& g) {
  return {decimal_in(g, 0.3, 10, std::uniform_int_distribution<int>(2, 17)(g)),
          decimal_in(g, 1e-4, 0.99, std::uniform_int_distribution<int>(2, 17)(g)), std::uniform_int_distribution<int>(2, 8)(g)};
}
Ref rdp_truth(const RdpCase& c) { return subsampled_gaussian_rdp(ref_dec(c.q), ref_dec(c.sigma), c.order); }

RC_GTEST_PROP(TypedDecimals, SubsampledRdpBoundsTheTypedDecimals, ()) {
  std::mt19937_64 g(*rc::gen::arbitrary<std::uint64_t>());
  const RdpCase c = rdp_case(g);
  const ComposedRdp rdp(Ledger{parse_entry("gaussian:sigma=" + c.sigma + ",q=" + c.q)});
  RC_ASSERT(ref_of(hi(rdp.at(Real(c.order)))) >= rdp_truth(c));
  RC_ASSERT(ref_of(hi(rdp.certified_at(c.order))) >= rdp_truth(c));
}

TEST(TypedDecimals, RdpTwinReadToNearestIsCaught) {
  std::mt19937_64 g(20261202);
  int caught = 0;
  for (int i = 0; i < 100; ++i) {
    const RdpCase c = rdp_case(g);
    const ComposedRdp twin(Ledger{nearest_twin("gaussian:sigma=" + c.sigma + ",q=" + c.q)});
    caught += ref_of(hi(twin.at(Real(c.order)))) < rdp_truth(c);
  }
  EXPECT_GE(caught, 5);
}

// Homogeneous approx ledgers under the optimal accountant: the lower bound at the typed guarantee, the upper bound too.
struct ApproxCase {
  std::string eps0, delta0, delta;
  int steps;
};
ApproxCase approx_case(std::mt19937_64& g) {
  ApproxCase c;
  c.eps0 = decimal_in(g, 0.001, 0.5, std::uniform_int_distribution<int>(2, 17)(g));
  c.delta0 = std::uniform_int_distribution<int>(0, 2)(g) == 0 ? "0" : decimal_in(g, 1e-10, 1e-7, std::uniform_int_distribution<int>(2, 17)(g));
  c.steps = std::uniform_int_distribution<int>(1, 150)(g);
  c.delta = decimal_in(g, 1e-6, 0.2, std::uniform_int_distribution<int>(2, 17)(g));
  return c;
}
std::string approx_spec(const ApproxCase& c) {
  return "approx:eps=" + c.eps0 + ",delta=" + c.delta0 + ",steps=" + std::to_string(c.steps);
}
// delta(eps) at the typed values (non-increasing in eps): eps is an upper bound iff delta(eps) <= the target, a lower
// bound iff delta(eps) >= the target or eps = 0.
Ref approx_delta_at(const ApproxCase& c, const Real& eps) { return kov_delta(ref_dec(c.eps0), ref_dec(c.delta0), c.steps, ref_of(eps)); }

RC_GTEST_PROP(TypedDecimals, ApproxBoundsHoldAtTheTypedGuarantees, ()) {
  std::mt19937_64 g(*rc::gen::arbitrary<std::uint64_t>());
  const ApproxCase c = approx_case(g);
  AccountingResult r;
  try {
    r = compose(Ledger{parse_entry(approx_spec(c))}, typed_target(Target::Given::delta, c.delta), AccountantKind::optimal);
  } catch (const NotApplicable&) {
    RC_DISCARD("the steps' own deltas exceed the target");
  }
  RC_ASSERT(approx_delta_at(c, hi(r.epsilon)) <= ref_dec(c.delta));
  if (r.lower) RC_ASSERT(lo(*r.lower) == 0 || approx_delta_at(c, lo(*r.lower)) >= ref_dec(c.delta));
}

TEST(TypedDecimals, ApproxTwinWithLowerBoundsFromTheRoundedUpGuaranteeIsCaught) {
  std::mt19937_64 g(20261203);
  int caught = 0;
  for (int i = 0; i < 40; ++i) {
    const ApproxCase c = approx_case(g);
    LedgerEntry twin = parse_entry(approx_spec(c));
    twin.optimistic.reset();  // lower bounds from the pessimistic ends, as before
    try {
      const AccountingResult t = compose(Ledger{twin}, typed_target(Target::Given::delta, c.delta), AccountantKind::optimal);
      caught += t.lower && lo(*t.lower) > 0 && approx_delta_at(c, lo(*t.lower)) < ref_dec(c.delta);
    } catch (const NotApplicable&) {
    }
  }
  EXPECT_GE(caught, 5);
}

// The PLD's loss pairs: the Gaussian's mu = sens/sigma and the Laplace's scale b/sens are formed in the safe direction,
// so the pessimistic pair's P-survival bounds the typed mechanism's from above (where it increases with mu, l > 0) and
// the optimistic pair's from below, within the survival functions' assumed relative error 1e-15
// (docs/pld_accountant.md, 1).
constexpr double kSurvivalMargin = 1e-15;

struct PairCase {
  std::string sens, noise;
  double y;  // standardised point of the Gaussian's loss, (l - mu^2/2)/mu; for the Laplace, l lambda in (-1, 1)
};
PairCase pair_case(std::mt19937_64& g, double noise_lo, double noise_hi) {
  return {std::uniform_int_distribution<int>(0, 1)(g) ? "1" : decimal_in(g, 0.5, 2, std::uniform_int_distribution<int>(2, 17)(g)),
          decimal_in(g, noise_lo, noise_hi, std::uniform_int_distribution<int>(2, 17)(g)),
          std::uniform_real_distribution<double>(2, 25)(g)};
}
// The Gaussian pair's P-survival at l: Q((l - mu^2/2)/mu) = erfc(y / sqrt 2) / 2, mu = sens/sigma at the decimals.
Ref gaussian_survival(const PairCase& c, double l) {
  const Ref mu = ref_dec(c.sens) / ref_dec(c.noise);
  return boost::multiprecision::erfc((Ref(l) - mu * mu / 2) / mu / boost::multiprecision::sqrt(Ref(2))) / 2;
}
double gaussian_point(const PairCase& c) {
  const double mu = std::strtod(c.sens.c_str(), nullptr) / std::strtod(c.noise.c_str(), nullptr);
  return c.y * mu + mu * mu / 2;
}

RC_GTEST_PROP(TypedDecimals, GaussianLossPairEndsBoundTheTypedMechanism, ()) {
  std::mt19937_64 g(*rc::gen::arbitrary<std::uint64_t>());
  const PairCase c = pair_case(g, 0.05, 5);
  const LedgerEntry e = parse_entry("gaussian:sigma=" + c.noise + ",sens=" + c.sens);
  const double l = gaussian_point(c);
  const Ref s = gaussian_survival(c, l);
  RC_ASSERT(Ref(loss_pair(e, PairDirection::remove, true).survival_p(l)) * (1 + Ref(kSurvivalMargin)) >= s);
  RC_ASSERT(Ref(loss_pair(optimistic_entry(e), PairDirection::remove, false).survival_p(l)) * (1 - Ref(kSurvivalMargin)) <= s);
}

TEST(TypedDecimals, GaussianLossPairTwinReadToNearestIsCaught) {
  std::mt19937_64 g(20261204);
  int caught = 0;
  for (int i = 0; i < 200; ++i) {
    const PairCase c = pair_case(g, 0.05, 5);
    const LedgerEntry twin = nearest_twin("gaussian:sigma=" + c.noise + ",sens=" + c.sens);
    const double l = gaussian_point(c);
    caught += Ref(loss_pair(twin, PairDirection::remove, true).survival_p(l)) * (1 + Ref(kSurvivalMargin)) <
              gaussian_survival(c, l);
  }
  EXPECT_GE(caught, 5);
}

// Laplace pair: its largest loss sens/b (the step's pure epsilon; the loss has an atom there) is held rounded up by the
// pessimistic pair and down by the optimistic one.
RC_GTEST_PROP(TypedDecimals, LaplaceLossPairEndsBoundTheTypedMechanism, ()) {
  std::mt19937_64 g(*rc::gen::arbitrary<std::uint64_t>());
  const PairCase c = pair_case(g, 0.002, 50);
  const LedgerEntry e = parse_entry("laplace:b=" + c.noise + ",sens=" + c.sens);
  const Ref top = ref_dec(c.sens) / ref_dec(c.noise);
  RC_ASSERT(Ref(loss_pair(e, PairDirection::remove, true).support_hi) >= top);
  RC_ASSERT(Ref(loss_pair(optimistic_entry(e), PairDirection::remove, false).support_hi) <= top);
}

TEST(TypedDecimals, LaplaceLossPairTwinReadToNearestIsCaught) {
  std::mt19937_64 g(20261205);
  int caught = 0;
  for (int i = 0; i < 200; ++i) {
    const PairCase c = pair_case(g, 0.002, 50);
    const LedgerEntry twin = nearest_twin("laplace:b=" + c.noise + ",sens=" + c.sens);
    caught += Ref(loss_pair(twin, PairDirection::remove, true).support_hi) < ref_dec(c.sens) / ref_dec(c.noise);
  }
  EXPECT_GE(caught, 5);
}

// The Poisson-subsampled Gaussian's add direction ends at loss -log(1 - q), beyond which its survival functions are 0:
// the pessimistic pair's end is at or above it for the q held, the optimistic pair's at or below; formed in double
// to nearest (the twin, what the pair did before) it falls below for some q.
Ref add_direction_top(double q) { return -boost::multiprecision::log1p(-Ref(q)); }

RC_GTEST_PROP(TypedDecimals, SubsampledGaussianAddDirectionEndsEnclosed, ()) {
  std::mt19937_64 g(*rc::gen::arbitrary<std::uint64_t>());
  const std::string q = decimal_in(g, 1e-6, 0.999, std::uniform_int_distribution<int>(1, 17)(g));
  const LedgerEntry e = parse_entry("gaussian:sigma=0.7,q=" + q);
  RC_ASSERT(Ref(loss_pair(e, PairDirection::add, true).support_hi) >= add_direction_top(e.q));
  const LedgerEntry o = optimistic_entry(e);
  RC_ASSERT(Ref(loss_pair(o, PairDirection::add, false).support_hi) <= add_direction_top(o.q));
}

TEST(TypedDecimals, AddDirectionEndToNearestIsCaught) {
  std::mt19937_64 g(20261208);
  int caught = 0;
  for (int i = 0; i < 200; ++i) {
    const double q = parse_entry("gaussian:sigma=0.7,q=" + decimal_in(g, 1e-6, 0.999, 17)).q;
    caught += Ref(-std::log1p(-q)) < add_direction_top(q);
  }
  EXPECT_GE(caught, 5);
}

// Calibration: the printed answer (spec_decimal), typed back as a decimal with the typed target, meets the target;
// the nearest shortest decimal of the same value (the twin, what --json printed) misses it for some.
struct CalibrationCase {
  std::string epsilon, delta;
  int steps;
};
CalibrationCase calibration_case(std::mt19937_64& g) {
  return {decimal_in(g, 0.05, 20, std::uniform_int_distribution<int>(1, 17)(g)),
          decimal_in(g, 1e-12, 1e-3, std::uniform_int_distribution<int>(1, 17)(g)), std::uniform_int_distribution<int>(1, 500)(g)};
}
// Whether `pure:eps=<printed>,steps=k` meets the case's target under advanced composition at the typed decimals.
bool pure_meets(const CalibrationCase& c, const std::string& printed) {
  const DecimalValue delta = decimal_value(c.delta);
  const AccountingResult back = compose(Ledger{parse_entry("pure:eps=" + printed + ",steps=" + std::to_string(c.steps))},
                                        DecimalTarget{Target::Given::delta, delta.down, delta.up}, AccountantKind::advanced);
  return hi(back.epsilon) <= lo(from_decimal(c.epsilon));
}
CalibrationResult calibrate_pure(const CalibrationCase& c) {
  return calibrate({"pure:eps=?,steps=" + std::to_string(c.steps)}, from_decimal(c.epsilon), decimal_value(c.delta).down,
                   AccountantKind::advanced, 0);
}

RC_GTEST_PROP(TypedDecimals, CalibratedValuesMeetTheTargetWhenTypedBack, ()) {
  std::mt19937_64 g(*rc::gen::arbitrary<std::uint64_t>());
  const CalibrationCase c = calibration_case(g);
  const CalibrationResult r = calibrate_pure(c);
  RC_ASSERT(pure_meets(c, spec_decimal("eps", r.value)));
}

TEST(TypedDecimals, CalibratedValuePrintedToNearestIsCaught) {
  std::mt19937_64 g(20261206);
  int caught = 0;
  for (int i = 0; i < 60; ++i) {
    const CalibrationCase c = calibration_case(g);
    caught += !pure_meets(c, format_input(calibrate_pure(c).value));
  }
  EXPECT_GE(caught, 3);
}

// The same for a noise scale under the analytic Gaussian accountant (a few cases: each calibration runs ~40
// certified searches).
TEST(TypedDecimals, CalibratedSigmaMeetsTheTargetWhenTypedBack) {
  std::mt19937_64 g(20261207);
  int twin_caught = 0;
  for (int i = 0; i < 6; ++i) {
    const CalibrationCase c = calibration_case(g);
    const std::string spec = "gaussian:sigma=?,steps=" + std::to_string(c.steps);
    const DecimalValue delta = decimal_value(c.delta);
    const CalibrationResult r = calibrate({spec}, from_decimal(c.epsilon), delta.down, AccountantKind::optimal, 0);
    auto meets = [&](const std::string& printed) {
      const AccountingResult back =
          compose(Ledger{parse_entry("gaussian:sigma=" + printed + ",steps=" + std::to_string(c.steps))},
                  DecimalTarget{Target::Given::delta, delta.down, delta.up}, AccountantKind::optimal);
      return hi(back.epsilon) <= lo(from_decimal(c.epsilon));
    };
    EXPECT_TRUE(meets(spec_decimal("sigma", r.value))) << spec << " eps " << c.epsilon << " delta " << c.delta;
    twin_caught += !meets(format_input(r.value));
  }
  EXPECT_GE(twin_caught, 1) << "the nearest shortest decimal of every calibrated sigma met the target";
}

}  // namespace
}  // namespace dpl
