// SPDX-License-Identifier: Apache-2.0
// The mechanisms of accounting/mechanisms/extended_mechanisms.h (dp_accounting 0.6's events and shuffling): golden
// values against independent high-precision computations (tests/accounting/extended_mechanisms_golden.py, mpmath,
// exact PLDs and closed forms at the decimals typed), each with a miscalibrated twin the same check catches;
// properties (monotone in the noise, composition adds, sampling never hurts); refusals naming why.
#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/mechanisms/mechanism_spec.h"
#include "accounting/numeric/decimal.h"
#include "accounting/rdp/rdp_accountant.h"
#include "accounting/rdp/rdp_bounded_range.h"
#include "accounting/rdp/rdp_repeat_and_select.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace dpl {
namespace {

Ledger ledger_of(const std::vector<std::string>& specs) {
  Ledger l;
  for (const auto& s : specs) l.push_back(parse_entry(s));
  return l;
}

// epsilon at the decimal delta 1e-5 (bounded at the double below it).
AccountingResult at_1e5(const std::vector<std::string>& specs, AccountantKind k) {
  const DecimalValue d = decimal_value("1e-5");
  return compose(ledger_of(specs), DecimalTarget{Target::Given::delta, d.down, d.up}, k);
}

// The certified upper bound is at or above the exact value (up to the reference's 20th digit) and within `rel` of
// it; a lower bound, when given, is at or below it.
void expect_sandwich(const AccountingResult& r, const char* exact, double rel, const std::string& what) {
  const Real v(exact), slack = v * Real(1e-19);
  EXPECT_GE(hi(r.epsilon), v - slack) << what << ": upper " << format_upper(r.epsilon) << " below the exact " << exact;
  EXPECT_LE(hi(r.epsilon), v * (1 + Real(rel))) << what << ": upper " << format_upper(r.epsilon) << " vs " << exact;
  if (r.lower) {
    EXPECT_LE(lo(*r.lower), v + slack) << what << ": lower " << format_lower(*r.lower) << " above " << exact;
  }
}

// The twin: the same mechanism with a parameter moved by 1% in the less private direction's opposite (more noise,
// smaller eps, ...) must give an upper bound below the exact value, so the >= check above has power.
void expect_twin_caught(const AccountingResult& twin, const char* exact, const std::string& what) {
  EXPECT_LT(hi(twin.epsilon), Real(exact)) << what << ": the miscalibrated twin was not caught";
}

struct Golden {
  std::vector<std::string> specs, twin;
  AccountantKind kind;
  const char* exact;
  double rel;
};

// Exact values at delta = 1e-5 from tests/accounting/extended_mechanisms_golden.py.
const std::vector<Golden>& goldens() {
  static const std::vector<Golden> g = {
      // Exact PLDs of the discrete mechanisms (enumerated atoms, exact convolution).
      {{"discrete_gaussian:sigma=2,dim=1,steps=10"}, {"discrete_gaussian:sigma=2.02,dim=1,steps=10"}, AccountantKind::pld,
       "7.4952536578853058023", 1e-6},
      {{"discrete_laplace:a=0.5,sens=2,steps=10"}, {"discrete_laplace:a=0.495,sens=2,steps=10"}, AccountantKind::pld,
       "9.9988541204123691183", 1e-8},
      {{"discrete_laplace:a=0.3,sens=3,steps=7"}, {"discrete_laplace:a=0.297,sens=3,steps=7"}, AccountantKind::rdp,
       "6.2995154047084704875", 1e-8},
      {{"rr:p=0.3,k=4,steps=20"}, {"rr:p=0.303,k=4,steps=20"}, AccountantKind::pld, "46.705860287308766937", 1e-6},
      {{"rr:p=0.6,k=10,steps=50"}, {"rr:p=0.606,k=10,steps=50"}, AccountantKind::pld, "74.919605695598359878", 1e-6},
      // Renyi curves minimised over the order (continuous), converted by the smaller of Mironov 2017 Prop. 3 and
      // Balle et al. 2020 Thm 21.
      {{"zcdp:rho=0.05,steps=10"}, {"zcdp:rho=0.0495,steps=10"}, AccountantKind::rdp, "4.7283869849433139", 1e-9},
      {{"zcdp:rho=0.01,xi=0.1,steps=3"}, {"zcdp:rho=0.0099,xi=0.1,steps=3"}, AccountantKind::rdp, "1.290046997514690529",
       1e-9},
      {{"discrete_gaussian:sigma=2,steps=10"}, {"discrete_gaussian:sigma=2.02,steps=10"}, AccountantKind::rdp,
       "8.0783595481444464764", 1e-9},
      {{"exponential:eps=0.5,steps=20"}, {"exponential:eps=0.495,steps=20"}, AccountantKind::rdp,
       "5.3755139493926759865", 1e-9},
      // Gaussian closed forms: tree aggregation is the Gaussian of sensitivity sqrt(depth).
      {{"tree:sigma=5,leaves=1000,steps=3"}, {"tree:sigma=5.05,leaves=1000,steps=3"}, AccountantKind::automatic,
       "4.8660828453087669364", 1e-12},
      {{"tree:sigma=5,leaves=1000,steps=3"}, {"tree:sigma=5.05,leaves=1000,steps=3"}, AccountantKind::pld,
       "4.8660828453087669364", 1e-7},
      {{"mixture:sigma=1,sens=[0,1,2],probs=[0.81,0.18,0.01]"}, {"mixture:sigma=1.01,sens=[0,1,2],probs=[0.81,0.18,0.01]"},
       AccountantKind::pld, "3.6176509935409230757", 1e-8},
      {{"mixture:sigma=2,sens=[1,3],probs=[0.5,0.5]"}, {"mixture:sigma=2.02,sens=[1,3],probs=[0.5,0.5]"},
       AccountantKind::pld, "6.1293080554893417741", 1e-8},
      {{"truncated_gaussian:sigma=0.6,q=0.05,batch_size=60,dataset_size=1000"},
       {"truncated_gaussian:sigma=0.606,q=0.05,batch_size=60,dataset_size=1000"}, AccountantKind::pld,
       "11.235062234688658172", 1e-8},
      // Poisson sampling under replace-one: the antipodal pair's loss from its densities, the root by bisection.
      {{"gaussian:sigma=1,q=0.1,sampling=poisson_replace_one"}, {"gaussian:sigma=1.01,q=0.1,sampling=poisson_replace_one"},
       AccountantKind::pld, "1.7891545544669088891", 1e-8},
      {{"gaussian:sigma=0.5,q=0.01,sampling=poisson_replace_one"},
       {"gaussian:sigma=0.505,q=0.01,sampling=poisson_replace_one"}, AccountantKind::pld, "3.0354080735014605312", 1e-8},
      // Two steps: the first step's outcome integrated by quadrature (20 digits, the crossing to 1e-14).
      {{"gaussian:sigma=1,q=0.2,steps=2,sampling=poisson_replace_one"},
       {"gaussian:sigma=1.01,q=0.2,steps=2,sampling=poisson_replace_one"}, AccountantKind::pld, "3.33424409092435", 1e-8},
      {{"wr_gaussian:sigma=0.8,batch_size=50,dataset_size=1000"}, {"wr_gaussian:sigma=0.808,batch_size=50,dataset_size=1000"},
       AccountantKind::pld, "8.924517383245155166", 1e-8},
      // Papernot-Steinke 2022 Thm 2 with the run's exact Renyi curve 1.25 a, minimised over both orders.
      {{"select:mean=10,shape=1,run=[gaussian:sigma=2,steps=10]"}, {"select:mean=10,shape=1,run=[gaussian:sigma=2.02,steps=10]"},
       AccountantKind::rdp, "13.13202977287749079", 1e-9},
      {{"select:mean=10,shape=0.5,run=[gaussian:sigma=2,steps=10]"},
       {"select:mean=10,shape=0.5,run=[gaussian:sigma=2.02,steps=10]"}, AccountantKind::rdp, "12.555835465050930191",
       1e-9},
      // Shuffling: the exact PLD of Feldman-McMillan-Talwar's pair, every atom enumerated.
      {{"shuffle:eps0=1,n=100"}, {"shuffle:eps0=0.99,n=100"}, AccountantKind::pld, "0.55318981105983477551", 1e-9},
      {{"shuffle:eps0=2,n=300"}, {"shuffle:eps0=1.98,n=300"}, AccountantKind::pld, "0.9663277117137537648", 1e-9},
  };
  return g;
}

TEST(ExtendedMechanisms, GoldenValuesAreBoundedAndTheTwinsCaught) {
  for (const auto& g : goldens()) {
    const std::string what = g.specs[0] + " by " + to_string(g.kind);
    expect_sandwich(at_1e5(g.specs, g.kind), g.exact, g.rel, what);
    expect_twin_caught(at_1e5(g.twin, g.kind), g.exact, what);
  }
}

// The bounded-range KL constant c - 1 - log c, c = eps/(e^eps - 1), from the direct branch and the series branch
// (eps < 1e-12), against mpmath (40 digits): 0.5 -> 0.031142092261155879588, 1e-4 -> 1.2499999998263888889e-9,
// 1e-13 -> 1.2499999999999999998e-27 (eps^2/8 - eps^4/1152).
TEST(ExtendedMechanisms, BoundedRangeKlConstant) {
  auto expect_close_above = [](double eps, const char* exact_value, double rel) {
    const Real v(exact_value), b = hi(BoundedRangeRdp::kl_bound(exact(eps)));
    EXPECT_GE(b, v) << eps;
    EXPECT_LE(b, v * (1 + Real(rel))) << eps;
  };
  expect_close_above(0.5, "0.031142092261155879588", 1e-15);
  expect_close_above(1e-4, "1.2499999998263888889e-9", 1e-15);
  expect_close_above(1e-13, "1.2499999999999999998e-27", 1e-12);
  expect_close_above(1e-30, "1.2499999999999999999e-61", 1e-12);
}

// The truncated negative binomial's gamma is rounded so that its mean is at least the one given.
TEST(ExtendedMechanisms, RepeatAndSelectGammaRoundsDown) {
  EXPECT_EQ(RepeatAndSelectRdp::gamma_lower(10, 1), 0.09999999999999999);  // 1/10 rounded down
  for (double shape : {0.0, 0.5, 2.0}) {
    auto mean = [shape](double g) {
      const Interval gi = exact(g);
      return shape == 0 ? (1 - gi) / (gi * -log(gi)) : exact(shape) * (1 - gi) / (gi * -expm1(exact(shape) * log(gi)));
    };
    const double g = RepeatAndSelectRdp::gamma_lower(10, shape);
    EXPECT_GE(lo(mean(g)), Real(10)) << shape;              // certainly the mean given, or more
    EXPECT_LT(hi(mean(g * (1 + 1e-12))), Real(10)) << shape;  // and as large a gamma as that allows
  }
}

TEST(ExtendedMechanisms, AccountantsThatDoNotApplySayWhy) {
  auto reason = [](const std::string& spec, AccountantKind k) {
    try {
      (void)compose(ledger_of({spec}), Target::for_delta(1e-5), k);
    } catch (const NotApplicable& e) {
      return std::string(e.what());
    }
    return std::string("(applied)");
  };
  EXPECT_NE(reason("zcdp:rho=0.1", AccountantKind::pld).find("zCDP"), std::string::npos);
  EXPECT_NE(reason("discrete_gaussian:sigma=2", AccountantKind::pld).find("univariate"), std::string::npos);
  EXPECT_NE(reason("discrete_gaussian:sigma=2,dim=3", AccountantKind::pld).find("dimension is 3"), std::string::npos);
  EXPECT_NE(reason("mixture:sigma=1,sens=[0,1],probs=[0.9,0.1]", AccountantKind::rdp).find("use pld"), std::string::npos);
  EXPECT_NE(reason("shuffle:eps0=1,n=100", AccountantKind::rdp).find("use pld"), std::string::npos);
  EXPECT_NE(reason("select:mean=2,shape=1,run=[gaussian:sigma=1]", AccountantKind::pld).find("Renyi"), std::string::npos);
  EXPECT_NE(reason("tree:sigma=1,leaves=10", AccountantKind::pure).find("does not apply to tree"), std::string::npos);
  EXPECT_NE(reason("exponential:eps=1,q=0.1", AccountantKind::pld).find("subsampling"), std::string::npos);
  EXPECT_NE(reason("gaussian:sigma=1,q=0.1,sampling=poisson_replace_one", AccountantKind::rdp).find("use pld"), std::string::npos);
  EXPECT_NE(reason("gaussian:sigma=1,q=0.1,sampling=poisson_replace_one", AccountantKind::advanced).find("pld"), std::string::npos);
  // Each of them is answered by another accountant, which auto finds.
  for (const char* spec : {"zcdp:rho=0.1", "discrete_gaussian:sigma=2", "mixture:sigma=1,sens=[0,1],probs=[0.9,0.1]",
                           "shuffle:eps0=1,n=100", "select:mean=2,shape=1,run=[gaussian:sigma=1]", "tree:sigma=1,leaves=10",
                           "exponential:eps=1,q=0.1", "gaussian:sigma=1,q=0.1,sampling=poisson_replace_one"})
    EXPECT_TRUE(is_finite(compose(ledger_of({spec}), Target::for_delta(1e-5), AccountantKind::automatic).epsilon)) << spec;
}

TEST(ExtendedMechanisms, PureGuarantees) {
  // discrete Laplace: eps = a sens; exponential, permute-and-flip, shuffle: eps (eps0) as stated.
  EXPECT_EQ(hi(compose(ledger_of({"discrete_laplace:a=0.25,sens=2,steps=4"}), Target::for_delta(0), AccountantKind::pure).epsilon),
            Real(2));
  EXPECT_EQ(hi(compose(ledger_of({"exponential:eps=0.5,steps=4"}), Target::for_delta(0), AccountantKind::pure).epsilon), Real(2));
  EXPECT_EQ(hi(compose(ledger_of({"shuffle:eps0=0.5,n=10,steps=2"}), Target::for_delta(0), AccountantKind::pure).epsilon),
            Real(1));
  // rr in the (p, k) form: eps = log(1 + k(1-p)/p) = log 3 for p = 0.5, k = 2, rounded up.
  const Real e = hi(compose(ledger_of({"rr:p=0.5,k=2"}), Target::for_delta(0), AccountantKind::pure).epsilon);
  EXPECT_GE(e, Real(std::log(3.0)));
  EXPECT_LE(e, Real(std::log(3.0)) * (1 + Real(1e-15)));
}

// A ledger of mechanisms no single accountant covers is split (Renyi part + the rest, basic composition): at least
// the larger part's own bound, at most the sum of the parts at half the target.
TEST(ExtendedMechanisms, SplitLedger) {
  const std::vector<std::string> a = {"zcdp:rho=0.02,steps=5"}, b = {"mixture:sigma=1.5,sens=[0,1],probs=[0.95,0.05],steps=50"};
  const AccountingResult whole = compose(ledger_of({a[0], b[0]}), Target::for_delta(1e-5), AccountantKind::automatic);
  EXPECT_EQ(whole.accountant, "rdp+pld");
  const Real ea = hi(compose(ledger_of(a), Target::for_delta(5e-6), AccountantKind::automatic).epsilon);
  const Real eb = hi(compose(ledger_of(b), Target::for_delta(5e-6), AccountantKind::automatic).epsilon);
  EXPECT_LE(hi(whole.epsilon), (ea + eb) * (1 + Real(1e-15)));
  EXPECT_GE(hi(whole.epsilon), ea + eb - Real(1e-12));
}

// Poisson sampling under replace-one sits between two relations' bounds (a fixed pseudo-random sample of cases: a PLD
// run costs ~0.1 s): replacing a record by one that contributes nothing is one of its changes, so its true epsilon is
// at least the add/remove one (its upper bound at least the add/remove lower bound); and sampling never hurts, so it
// is at most the unsampled Gaussian's, whose replace-one shift is twice the per-record bound (its lower bound at most
// that upper bound). Every value the ledger gives is also a sandwich: lower <= upper.
TEST(ExtendedMechanisms, PoissonReplaceOneBetweenRemovalAndTheUnsampledGaussian) {
  unsigned state = 20261207;
  auto next = [&state](unsigned n) { return (state = state * 1103515245u + 12345u) / 65536u % n; };
  for (int i = 0; i < 6; ++i) {
    const double sigma = 0.6 + next(300) / 100.0, q = (1 + next(300)) / 1000.0;
    const std::string steps = ",steps=" + std::to_string(1 + next(100));
    const std::string g = "gaussian:sigma=" + format_input(sigma);
    const AccountingResult rep = at_1e5({g + ",q=" + format_input(q) + steps + ",sampling=poisson_replace_one"}, AccountantKind::pld);
    const AccountingResult ar = at_1e5({g + ",q=" + format_input(q) + steps}, AccountantKind::pld);
    const AccountingResult whole = at_1e5({g + ",sens=2" + steps}, AccountantKind::pld);
    ASSERT_TRUE(rep.lower && ar.lower && whole.lower) << g;
    EXPECT_LE(lo(*rep.lower), hi(rep.epsilon)) << g << " q " << q;
    EXPECT_GE(hi(rep.epsilon), lo(*ar.lower)) << g << " q " << q;
    EXPECT_LE(lo(*rep.lower), hi(whole.epsilon)) << g << " q " << q;
  }
}

// --- Properties -----------------------------------------------------------------------------------------------

double rdp_eps(const std::string& spec) {
  return hi_up(compose(ledger_of({spec}), Target::for_delta(1e-6), AccountantKind::rdp).epsilon);
}

std::string num(double v) { return format_input(v); }

// More noise (or a smaller eps/rho/mean/noise parameter a) never gives a larger epsilon.
RC_GTEST_PROP(ExtendedMechanisms, MonotoneInTheNoise, ()) {
  const double s1 = std::ldexp(1 + *rc::gen::inRange(0, 1000) / 1000.0, *rc::gen::inRange(-2, 4));
  const double s2 = s1 * (1 + *rc::gen::inRange(1, 500) / 1000.0);  // more noise / a larger parameter
  const int kind = *rc::gen::inRange(0, 9);
  std::string more, less;  // more private, less private
  switch (kind) {
    case 0: more = "discrete_gaussian:sigma=" + num(s2) + ",steps=7"; less = "discrete_gaussian:sigma=" + num(s1) + ",steps=7"; break;
    case 1: more = "discrete_laplace:a=" + num(1 / s2) + ",sens=2"; less = "discrete_laplace:a=" + num(1 / s1) + ",sens=2"; break;
    case 2: more = "zcdp:rho=" + num(0.01 / s2) + ",steps=9"; less = "zcdp:rho=" + num(0.01 / s1) + ",steps=9"; break;
    case 3: more = "exponential:eps=" + num(1 / s2) + ",steps=5"; less = "exponential:eps=" + num(1 / s1) + ",steps=5"; break;
    case 4: more = "tree:sigma=" + num(s2) + ",leaves=100"; less = "tree:sigma=" + num(s1) + ",leaves=100"; break;
    case 5: more = "rr:p=" + num(std::min(1.0, 0.1 * s2)) + ",k=5"; less = "rr:p=" + num(std::min(1.0, 0.1 * s1)) + ",k=5"; break;
    case 6:
      more = "select:mean=" + num(1 + s1) + ",shape=1,run=[gaussian:sigma=" + num(s2) + ",steps=3]";
      less = "select:mean=" + num(1 + s2) + ",shape=1,run=[gaussian:sigma=" + num(s1) + ",steps=3]";
      break;
    case 7:
      more = "truncated_gaussian:sigma=" + num(s2) + ",q=0.05,batch_size=60,dataset_size=1000";
      less = "truncated_gaussian:sigma=" + num(s1) + ",q=0.05,batch_size=60,dataset_size=1000";
      break;
    default:
      more = "wr_gaussian:sigma=" + num(s2) + ",batch_size=5,dataset_size=500";
      less = "wr_gaussian:sigma=" + num(s1) + ",batch_size=5,dataset_size=500";
      break;
  }
  RC_ASSERT(rdp_eps(more) <= rdp_eps(less) * (1 + 1e-12));
}

// Composition adds: the Renyi curve of k steps is k times that of one, two entries' curves add, and the epsilon
// of a composition is at least that of each part.
RC_GTEST_PROP(ExtendedMechanisms, CompositionAdds, ()) {
  const std::vector<std::string> specs = {"discrete_gaussian:sigma=1.5", "discrete_laplace:a=0.4,sens=3", "zcdp:rho=0.03,xi=0.01",
                                          "exponential:eps=0.7", "permute_and_flip:eps=0.7", "tree:sigma=3,leaves=50",
                                          "rr:p=0.4,k=6", "truncated_gaussian:sigma=1,q=0.1,batch_size=12,dataset_size=100",
                                          "wr_gaussian:sigma=2,batch_size=3,dataset_size=100",
                                          "select:mean=3,shape=1,run=[gaussian:sigma=3]"};
  const auto& a = specs[*rc::gen::inRange<std::size_t>(0, specs.size())];
  const auto& b = specs[*rc::gen::inRange<std::size_t>(0, specs.size())];
  // truncated_gaussian (add/remove neighbours) and wr_gaussian (replace-one) do not compose (an input error).
  RC_PRE(!((a.find("truncated") == 0 && b.find("wr_") == 0) || (a.find("wr_") == 0 && b.find("truncated") == 0)));
  const int k = *rc::gen::inRange(2, 50);
  const double alpha = 1.5 + *rc::gen::inRange(0, 60) / 4.0;
  const ComposedRdp one(ledger_of({a})), many(ledger_of({a + ",steps=" + std::to_string(k)})), both(ledger_of({a, b}));
  const ComposedRdp only_b(ledger_of({b}));
  const Real r1 = hi(one.at(Real(alpha))), rk = hi(many.at(Real(alpha))), rb = hi(only_b.at(Real(alpha)));
  RC_ASSERT(std::abs((rk - k * r1).convert_to<double>()) <= 1e-12 * (1 + k * r1.convert_to<double>()));
  if (a != b) RC_ASSERT(std::abs((hi(both.at(Real(alpha))) - r1 - rb).convert_to<double>()) <= 1e-12 * (1 + (r1 + rb).convert_to<double>()));
  // Under rdp (every entry above has a curve) the composition's epsilon is at least each part's (up to the order
  // search's tolerance).
  const double e_ab = hi_up(compose(ledger_of({a, b}), Target::for_delta(1e-6), AccountantKind::rdp).epsilon);
  RC_ASSERT(e_ab >= hi_up(compose(ledger_of({a}), Target::for_delta(1e-6), AccountantKind::rdp).epsilon) * (1 - 1e-9));
}

// Subsampling (the q modifier) never gives a larger epsilon than the unsampled mechanism under rdp (a fixed
// pseudo-random sample of cases: the general subsampled curves cost tens of milliseconds each). Under auto it does
// only once auto also takes the unsampled bound of a sampled entry (rr:p=0.3,k=3,steps=160 at q=0.991: 305.5 against
// 301.4 unsampled, the exact k-ary PLD having no subsampled form).
TEST(ExtendedMechanisms, SamplingNeverHurts) {
  const std::vector<std::string> specs = {"discrete_gaussian:sigma=1.2", "discrete_laplace:a=0.6,sens=1", "zcdp:rho=0.08",
                                          "exponential:eps=0.9", "permute_and_flip:eps=0.9", "rr:p=0.3,k=3"};
  unsigned state = 20261122;
  auto next = [&state](unsigned n) { return (state = state * 1103515245u + 12345u) / 65536u % n; };
  for (int i = 0; i < 24; ++i) {
    const auto& s = specs[static_cast<std::size_t>(i) % specs.size()];
    const double q = (1 + next(999)) / 1000.0;
    const std::string plain = s + ",steps=" + std::to_string(1 + next(200));
    const std::string sampled = plain + ",q=" + num(q) + (next(2) ? ",sampling=wor" : "");
    for (AccountantKind k : {AccountantKind::rdp}) {
      const double e0 = hi_up(compose(ledger_of({plain}), Target::for_delta(1e-6), k).epsilon);
      const double eq = hi_up(compose(ledger_of({sampled}), Target::for_delta(1e-6), k).epsilon);
      EXPECT_LE(eq, e0 * (1 + 1e-12)) << sampled << " by " << to_string(k);
    }
  }
}

// The PLD pairs: more noise never gives a larger epsilon, and k steps cost at most k times one step and at least
// one step (a handful of cases each: a PLD run costs ~0.1 s).
TEST(ExtendedMechanisms, PldMonotoneAndComposition) {
  auto pld = [](const std::string& spec) {
    return hi_up(compose(ledger_of({spec}), Target::for_delta(1e-6), AccountantKind::pld).epsilon);
  };
  for (const auto& [more, less] : std::vector<std::pair<std::string, std::string>>{
           {"mixture:sigma=1.3,sens=[0,1,2],probs=[0.8,0.15,0.05],steps=20", "mixture:sigma=1.2,sens=[0,1,2],probs=[0.8,0.15,0.05],steps=20"},
           {"mixture:sigma=1,sens=[0,1],probs=[0.95,0.05],steps=20", "mixture:sigma=1,sens=[0,1],probs=[0.9,0.1],steps=20"},
           {"shuffle:eps0=1,n=2000", "shuffle:eps0=1,n=1000"},
           {"shuffle:eps0=0.9,n=1000", "shuffle:eps0=1,n=1000"},
           {"discrete_gaussian:sigma=3,dim=1,steps=5", "discrete_gaussian:sigma=2.5,dim=1,steps=5"},
           {"truncated_gaussian:sigma=1,q=0.02,batch_size=40,dataset_size=1000,steps=50",
            "truncated_gaussian:sigma=0.9,q=0.02,batch_size=40,dataset_size=1000,steps=50"},
           {"wr_gaussian:sigma=1.2,batch_size=10,dataset_size=1000,steps=20", "wr_gaussian:sigma=1,batch_size=10,dataset_size=1000,steps=20"},
           {"gaussian:sigma=1.1,q=0.05,steps=30,sampling=poisson_replace_one", "gaussian:sigma=1,q=0.05,steps=30,sampling=poisson_replace_one"},
           {"gaussian:sigma=1,q=0.04,steps=30,sampling=poisson_replace_one", "gaussian:sigma=1,q=0.05,steps=30,sampling=poisson_replace_one"}})
    EXPECT_LE(pld(more), pld(less) * (1 + 1e-9)) << more << " vs " << less;
  // k steps cost at least one step, and at most k times one step at delta/k (basic composition; up to the grid's
  // discretisation, which moves each upper bound by ~1e-5 here).
  auto pld_at = [](const std::string& spec, double delta) {
    return hi_up(compose(ledger_of({spec}), Target::for_delta(delta), AccountantKind::pld).epsilon);
  };
  for (const char* spec : {"mixture:sigma=1,sens=[0,1,2],probs=[0.8,0.15,0.05]", "shuffle:eps0=1,n=500", "rr:p=0.5,k=4",
                           "discrete_laplace:a=0.5,sens=2"}) {
    const double four = pld(std::string(spec) + ",steps=4");
    EXPECT_GE(four, pld(spec)) << spec;
    EXPECT_LE(four, 4 * pld_at(spec, 0.25e-6) * (1 + 1e-4)) << spec;
  }
}

}  // namespace
}  // namespace dpl
