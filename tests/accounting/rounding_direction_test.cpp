// SPDX-License-Identifier: Apache-2.0
// Every key of every mechanism spec is read at the end of its decimal's enclosure that enlarges upper bounds
// (docs/typed_decimals.md, "Every key"). The test walks allowed_keys() of every kind in all_mechanism_kinds(): each
// real-valued key has a template spec; its direction is measured on a perturbed twin (the same spec with the value
// 20% smaller: which one gives the larger certified epsilon), and the entry read from a decimal that is not a double
// must be the entry read from the exact double on that side (so every bound computed from it is the bound at that
// double, at least the bound at the double on the other side). A new kind or key without a template fails the walk. The twin of the test
// itself: the discrete Laplace's `a` read at the double below (as it was) is the entry of the unsafe end.
#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/mechanisms/ledger_file.h"
#include "accounting/mechanisms/mechanism_spec.h"
#include "accounting/numeric/decimal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace dpl {
namespace {

// A template with one "X" to replace, and the decimal (not a double) typed there.
struct KeyTemplate {
  std::string spec;
  std::string value;
};

// Keys read as exact integers or names (no rounding): counts, the sampling scheme.
const std::set<std::string>& exact_keys() {
  static const std::set<std::string> k = {"steps", "index", "batch_size", "dataset_size", "epochs", "dim",
                                          "leaves", "k", "n", "sampling"};
  return k;
}

// Keys that are not read at an end, with why (docs/typed_decimals.md): the mixture's probabilities are normalised
// (they must sum to 1), select's shape is the double nearest to it, select's run holds specs walked as their own kinds,
// the discrete Laplace's sens is an integer.
bool not_directional(MechanismKind kind, const std::string& key) {
  if (kind == MechanismKind::mixture && key == "probs") return true;
  if (kind == MechanismKind::select && (key == "shape" || key == "run")) return true;
  if (kind == MechanismKind::discrete_laplace && key == "sens") return true;
  return false;
}

const std::map<std::string, std::map<std::string, KeyTemplate>>& templates() {
  static const std::map<std::string, std::map<std::string, KeyTemplate>> t = {
      {"gaussian",
       {{"sigma", {"gaussian:sigma=X,sens=1.5,q=0.25,steps=3", "1.3"}},
        {"noise_multiplier", {"gaussian:noise_multiplier=X,q=0.25,steps=3", "1.3"}},
        {"sens", {"gaussian:sigma=1.5,sens=X,q=0.25,steps=3", "1.3"}},
        {"q", {"gaussian:sigma=1.5,q=X,steps=3", "0.3"}},
        {"sample_rate", {"gaussian:sigma=1.5,sample_rate=X,steps=3", "0.3"}}}},
      {"laplace",
       {{"b", {"laplace:b=X,sens=1,steps=3", "1.3"}},
        {"sens", {"laplace:b=2,sens=X,steps=3", "1.3"}},
        {"q", {"laplace:b=2,q=X,steps=3", "0.3"}},
        {"sample_rate", {"laplace:b=2,sample_rate=X,steps=3", "0.3"}}}},
      {"rr",
       {{"eps", {"rr:eps=X,steps=3", "0.3"}},
        {"p", {"rr:p=X,k=4,steps=3", "0.3"}},
        {"q", {"rr:eps=1,q=X,steps=3", "0.3"}},
        {"sample_rate", {"rr:eps=1,sample_rate=X,steps=3", "0.3"}}}},
      {"pure",
       {{"eps", {"pure:eps=X,steps=3", "0.3"}},
        {"q", {"pure:eps=1,q=X,steps=3", "0.3"}},
        {"sample_rate", {"pure:eps=1,sample_rate=X,steps=3", "0.3"}}}},
      {"approx",
       {{"eps", {"approx:eps=X,delta=1e-7,steps=3", "0.3"}},
        {"delta", {"approx:eps=0.5,delta=X,steps=3", "1.3e-7"}},
        {"q", {"approx:eps=1,delta=1e-7,q=X,steps=3", "0.3"}},
        {"sample_rate", {"approx:eps=1,delta=1e-7,sample_rate=X,steps=3", "0.3"}}}},
      {"iteration",
       {{"sigma", {"iteration:sigma=X,sens=1,steps=5,index=2,contraction=0.9", "1.3"}},
        {"sens", {"iteration:sigma=2,sens=X,steps=5,index=2,contraction=0.9", "1.3"}},
        {"contraction", {"iteration:sigma=2,sens=1,steps=5,index=2,contraction=X", "0.7"}}}},
      {"discrete_gaussian",
       {{"sigma", {"discrete_gaussian:sigma=X,sens=1,steps=3", "1.3"}},
        {"sens", {"discrete_gaussian:sigma=2,sens=X,steps=3", "1.3"}},
        {"q", {"discrete_gaussian:sigma=2,q=X,steps=3", "0.3"}}}},
      {"discrete_laplace",
       {{"a", {"discrete_laplace:a=X,steps=3", "0.3"}}, {"q", {"discrete_laplace:a=0.5,q=X,steps=3", "0.3"}}}},
      {"zcdp",
       {{"rho", {"zcdp:rho=X,steps=3", "0.3"}},
        {"xi", {"zcdp:rho=0.1,xi=X,steps=3", "0.3"}},
        {"q", {"zcdp:rho=0.1,q=X,steps=3", "0.3"}}}},
      {"exponential",
       {{"eps", {"exponential:eps=X,steps=3", "0.3"}}, {"q", {"exponential:eps=1,q=X,steps=3", "0.3"}}}},
      {"permute_and_flip",
       {{"eps", {"permute_and_flip:eps=X,steps=3", "0.3"}}, {"q", {"permute_and_flip:eps=1,q=X,steps=3", "0.3"}}}},
      {"tree", {{"sigma", {"tree:sigma=X,leaves=10", "1.3"}}, {"sens", {"tree:sigma=2,sens=X,leaves=10", "1.3"}}}},
      {"mixture",
       {{"sigma", {"mixture:sigma=X,sens=[0,1],probs=[0.5,0.5]", "1.3"}},
        {"sens", {"mixture:sigma=1,sens=[0,X],probs=[0.5,0.5]", "1.3"}}}},
      {"truncated_gaussian",
       {{"sigma", {"truncated_gaussian:sigma=X,q=0.25,batch_size=5,dataset_size=40", "1.3"}},
        {"sens", {"truncated_gaussian:sigma=2,sens=X,q=0.25,batch_size=5,dataset_size=40", "1.3"}},
        {"q", {"truncated_gaussian:sigma=2,q=X,batch_size=5,dataset_size=40", "0.3"}}}},
      {"wr_gaussian",
       {{"sigma", {"wr_gaussian:sigma=X,batch_size=2,dataset_size=40", "1.3"}},
        {"sens", {"wr_gaussian:sigma=2,sens=X,batch_size=2,dataset_size=40", "1.3"}}}},
      {"select", {{"mean", {"select:mean=X,shape=1,run=[gaussian:sigma=3]", "1.3"}}}},
      {"shuffle", {{"eps0", {"shuffle:eps0=X,n=100", "0.3"}}}},
  };
  return t;
}

std::string with_value(const std::string& spec, const std::string& value) {
  const auto at = spec.find('X');
  return spec.substr(0, at) + value + spec.substr(at + 1);
}

// The exact decimal expansion of a double (every digit: the spec parser then reads exactly that double).
std::string exact_decimal(double x) {
  char buf[1100];
  std::snprintf(buf, sizeof buf, "%.770g", x);
  return buf;
}

// A certified upper bound on epsilon at delta 1e-5: rdp where it applies (fast), else optimal, basic or pld.
double upper_epsilon(const std::string& spec) {
  for (AccountantKind k : {AccountantKind::rdp, AccountantKind::optimal, AccountantKind::basic, AccountantKind::pld}) {
    try {
      return static_cast<double>(hi(compose(Ledger{parse_entry(spec)}, Target::for_delta(1e-5), k).epsilon));
    } catch (const NotApplicable&) {
    }
  }
  throw std::logic_error("no accountant applies to " + spec);
}

TEST(RoundingDirection, EveryKeyOfEveryMechanismEnlargesTheBound) {
  for (MechanismKind kind : all_mechanism_kinds()) {
    const std::string name = to_string(kind);
    const auto t = templates().find(name);
    ASSERT_NE(t, templates().end()) << "no templates for mechanism " << name;
    for (const std::string& key : allowed_keys(kind)) {
      if (exact_keys().count(key) || not_directional(kind, key)) continue;
      const auto k = t->second.find(key);
      ASSERT_NE(k, t->second.end()) << "no template for key " << key << " of " << name;
      const KeyTemplate& kt = k->second;
      const DecimalValue d = decimal_value(kt.value);
      ASSERT_LT(d.down, d.up) << kt.value << " must not be a double";
      // The perturbed twin: the value 20% smaller, which way the bound moves.
      char smaller[64];
      std::snprintf(smaller, sizeof smaller, "%.17g", d.nearest * 0.8);
      const double at_value = upper_epsilon(with_value(kt.spec, kt.value));
      const double at_smaller = upper_epsilon(with_value(kt.spec, smaller));
      ASSERT_NE(at_value, at_smaller) << name << ":" << key << " does not move the bound";
      const bool larger_is_less_private = at_value > at_smaller;
      const double safe = larger_is_less_private ? d.up : d.down, unsafe = larger_is_less_private ? d.down : d.up;
      const std::string typed = with_value(kt.spec, kt.value);
      const std::string at_safe = with_value(kt.spec, exact_decimal(safe));
      const std::string at_unsafe = with_value(kt.spec, exact_decimal(unsafe));
      EXPECT_EQ(to_spec(parse_entry(typed)), to_spec(parse_entry(at_safe)))
          << name << ":" << key << "=" << kt.value << " is not read at the double "
          << (larger_is_less_private ? "above" : "below") << " (a larger value is "
          << (larger_is_less_private ? "less" : "more") << " private)";
      EXPECT_NE(to_spec(parse_entry(typed)), to_spec(parse_entry(at_unsafe))) << name << ":" << key;
      // (The bounds at the two ends differ by about an ulp, below what an accountant's discretisation resolves: the
      // direction is measured on the 20% twin and the held end checked on the entry, which decides every bound.)
    }
  }
}

// The twin: a's double below 0.3 (where the parser read it before) is the unsafe end, and the check above tells it
// apart from the entry read now.
// With sens 1 the discrete Laplace is randomized response at eps = a, so near epsilon = steps a the delta is very
// sensitive to a: at --epsilon 0.9999999999999999 ten steps of a = 0.1 read at the double below 0.1 (as before) gave
// the delta 4.41e-20, six times below the exact delta 2.65e-19 at the double above, one ulp away (the truth at the
// typed 0.1 lies between, about 3.6 times the former); the entry read now is the one at the double above, whose
// bound is at least the truth at the typed 0.1 (delta grows with a).
TEST(RoundingDirection, DiscreteLaplaceATwinIsCaught) {
  const DecimalValue d = decimal_value("0.1");
  const std::string now = to_spec(parse_entry("discrete_laplace:a=0.1,steps=10"));
  const std::string up = "discrete_laplace:a=" + exact_decimal(d.up) + ",steps=10";
  const std::string down = "discrete_laplace:a=" + exact_decimal(d.down) + ",steps=10";
  EXPECT_EQ(now, to_spec(parse_entry(up)));
  EXPECT_NE(now, to_spec(parse_entry(down)));
  auto delta = [](const std::string& spec) {
    return compose(Ledger{parse_entry(spec)}, Target::for_epsilon(0.9999999999999999), AccountantKind::automatic);
  };
  const AccountingResult at_up = delta(up), at_down = delta(down), typed = delta("discrete_laplace:a=0.1,steps=10");
  EXPECT_EQ(hi(typed.delta), hi(at_up.delta));
  // The truth at the double above: ten steps of randomized response at eps = a, exact by Kairouz, Oh and Viswanath's
  // composition (the optimal accountant's certified lower bound on pure:eps=a, whose worst case is that mechanism).
  const AccountingResult truth_up = compose(Ledger{parse_entry("pure:eps=" + exact_decimal(d.up) + ",steps=10")},
                                            Target::for_epsilon(0.9999999999999999), AccountantKind::optimal);
  ASSERT_TRUE(truth_up.lower.has_value());
  EXPECT_GE(hi(at_up.delta), lo(*truth_up.lower));
  EXPECT_GT(lo(*truth_up.lower), 2 * hi(at_down.delta));  // the twin's bound is far below the other end's truth
}

}  // namespace
}  // namespace dpl
