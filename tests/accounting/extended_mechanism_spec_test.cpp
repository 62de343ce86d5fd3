// SPDX-License-Identifier: Apache-2.0
// Specs, ledger files and dp_accounting event trees of the mechanisms of accounting/mechanisms/extended_mechanisms.h:
// parsing, the safe rounding of typed decimals, errors naming the key and range, spec and JSON round trips, and the
// event classes of dp_accounting 0.6 read from JSON written by the library itself (to_named_tuple, json.dump).
#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/mechanisms/ledger_file.h"
#include "accounting/mechanisms/mechanism_spec.h"
#include "accounting/numeric/decimal.h"
#include "algorithms/run/mechanism_ledger.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace dpl {
namespace {

// One spec of every new kind (and of rr's (p, k) form), with lists, defaults and modifiers.
const std::vector<std::string>& samples() {
  static const std::vector<std::string> s = {
      "discrete_gaussian:sigma=2.5,sens=3,dim=1,steps=4", "discrete_gaussian:sigma=0.7,q=0.1", "discrete_laplace:a=0.25,sens=2",
      "discrete_laplace:a=1.5,q=0.2,sampling=wor,steps=3", "rr:p=0.3,k=4,steps=20", "zcdp:rho=0.05,xi=0.01,steps=10",
      "exponential:eps=0.5,q=0.5", "permute_and_flip:eps=2", "tree:sigma=5,leaves=1000,steps=3",
      "mixture:sigma=1,sens=[0,1,2],probs=[0.81,0.18,0.01],steps=100",
      "truncated_gaussian:sigma=1.1,q=0.01,batch_size=650,dataset_size=60000,steps=1000",
      "wr_gaussian:sigma=1.1,sens=2,batch_size=600,dataset_size=60000,steps=10",
      "select:mean=10,shape=1,run=[gaussian:sigma=2,steps=10;laplace:b=3,q=0.1]",
      "select:mean=3,shape=inf,run=[gaussian:sigma=2,q=0.01,steps=1000],steps=2", "shuffle:eps0=1,n=10000,steps=5"};
  return s;
}

std::string error_of(const std::string& spec) {
  try {
    (void)parse_entry(spec);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(ExtendedMechanismSpec, EveryKindParsesAndRoundTrips) {
  for (const auto& s : samples()) {
    const LedgerEntry e = parse_entry(s);
    EXPECT_NO_THROW(validate_entry(e)) << s;
    // The spec text reads back to the same entry (same text again), and so does the ledger-file JSON object.
    const std::string text = to_spec(e);
    EXPECT_EQ(to_spec(parse_entry(text)), text) << s;
    const std::string json = algorithms::mechanism_entry_json(e).dump();
    const auto back = parse_ledger_text(json, "entry.json");
    ASSERT_EQ(back.size(), 1u) << json;
    EXPECT_EQ(to_spec(back[0].entry), text) << json;
  }
}

TEST(ExtendedMechanismSpec, EveryNameIsListedWithItsKeys) {
  std::vector<std::string> names;
  for (MechanismKind k : all_mechanism_kinds()) names.push_back(to_string(k));
  for (const char* n : {"discrete_gaussian", "discrete_laplace", "zcdp", "exponential", "permute_and_flip", "tree", "mixture",
                        "truncated_gaussian", "wr_gaussian", "select", "shuffle"})
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
  const auto keys = allowed_keys(MechanismKind::rr);
  EXPECT_NE(std::find(keys.begin(), keys.end(), "p"), keys.end());
  EXPECT_NE(error_of("bogus:x=1").find("select, shuffle"), std::string::npos);
}

// Typed decimals are taken on the side that enlarges the bound: noise and rr's p (the probability of a uniform
// output) down; discrete_laplace's a (a larger a is less noise), sensitivities, eps, rho, q and the mean number of
// runs up.
TEST(ExtendedMechanismSpec, DecimalsRoundInTheSafeDirection) {
  const DecimalValue d = decimal_value("0.1");
  EXPECT_EQ(parse_entry("discrete_gaussian:sigma=0.1").mechanism.sigma, d.down);
  EXPECT_EQ(parse_entry("discrete_gaussian:sigma=2,sens=0.1").mechanism.sens, d.up);
  EXPECT_EQ(parse_entry("discrete_laplace:a=0.1").mechanism.x.a, d.up);
  EXPECT_EQ(parse_entry("rr:p=0.1,k=3").mechanism.x.p, d.down);
  EXPECT_EQ(parse_entry("zcdp:rho=0.1,xi=0.1").mechanism.x.rho, d.up);
  EXPECT_EQ(parse_entry("zcdp:rho=0.1,xi=0.1").mechanism.x.xi, d.up);
  EXPECT_EQ(parse_entry("exponential:eps=0.1").mechanism.eps, d.up);
  EXPECT_EQ(parse_entry("shuffle:eps0=0.1,n=5").mechanism.eps, d.up);
  EXPECT_EQ(parse_entry("truncated_gaussian:sigma=1,q=0.1,batch_size=2,dataset_size=9").mechanism.x.q, d.up);
  EXPECT_EQ(parse_entry("exponential:eps=1,q=0.1").q, d.up);
  EXPECT_EQ(parse_entry("select:mean=1.1,shape=1,run=[pure:eps=1]").mechanism.x.mean, decimal_value("1.1").up);
  EXPECT_EQ(parse_entry("mixture:sigma=1,sens=[0,0.1],probs=[0.5,0.5]").mechanism.x.sensitivities[1], d.up);
  // rr's eps is log(1 + k (1-p)/p) at the rounded p, itself rounded up.
  const LedgerEntry rr = parse_entry("rr:p=0.5,k=2");
  EXPECT_GE(rr.mechanism.eps, std::log(3.0));
  EXPECT_LE(rr.mechanism.eps, std::nextafter(std::log(3.0), 10.0));
}

TEST(ExtendedMechanismSpec, ErrorsNameTheKeyAndTheRange) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"discrete_gaussian:sens=1", "missing required key 'sigma'"},
      {"discrete_gaussian:sigma=-1", "sigma=-1 is out of range: allowed (0, inf)"},
      {"discrete_gaussian:sigma=1,dim=0", "dim=0 must be an integer in [1, 1e15]"},
      {"discrete_laplace:a=1,sens=1.5", "sens=1.5 must be an integer"},
      {"rr:p=0.5", "missing required key 'k'"},
      {"rr:p=0,k=2", "p=0 is out of range: allowed (0, 1]"},
      {"rr:p=0.5,k=1", "k=1 must be an integer in [2, 1e15]"},
      {"rr:eps=1,p=0.5,k=2", "not both"},
      {"zcdp:rho=0", "rho=0 is out of range"},
      {"tree:sigma=1", "missing required key 'leaves'"},
      {"tree:sigma=1,leaves=10,q=0.1", "unknown key 'q' for tree"},
      {"mixture:sigma=1,sens=[0,1],probs=[0.5]", "one probability per sensitivity"},
      {"mixture:sigma=1,sens=[0,1],probs=[0.5,0.4]", "must sum to 1"},
      {"mixture:sigma=1,sens=[0,-1],probs=[0.5,0.5]", "sens value -1 is out of range"},
      {"mixture:sigma=1,sens=[0],probs=[1]", "at least one sensitivity"},
      {"mixture:sigma=1,sens=0,probs=[1]", "must be a list in brackets"},
      {"mixture:sigma=1,sens=[0,1,probs=[1]", "'[' without ']'"},
      {"truncated_gaussian:sigma=1,q=1.5,batch_size=1,dataset_size=2", "q=1.5 is out of range: allowed (0, 1]"},
      {"truncated_gaussian:sigma=1,q=0.5,batch_size=1,dataset_size=2e9", "dataset_size=2e9 is out of range: allowed [1, 1e9]"},
      {"wr_gaussian:sigma=1,batch_size=0,dataset_size=5", "batch_size=0 must be an integer"},
      {"select:mean=0.5,shape=1,run=[pure:eps=1]", "mean=0.5 is out of range: allowed [1, inf)"},
      {"select:mean=2,shape=-1,run=[pure:eps=1]", "shape=-1 is out of range"},
      {"select:mean=2,shape=1,run=[bogus:x=1]", "unknown mechanism 'bogus'"},
      {"select:mean=2,shape=1,run=[select:mean=2,shape=1,run=[select:mean=2,shape=1,run=[select:mean=2,shape=1,"
       "run=[select:mean=2,shape=1,run=[pure:eps=1]]]]]",
       "nested more than 4 deep"},
      {"shuffle:eps0=1", "missing required key 'n'"},
  };
  for (const auto& [spec, message] : cases) EXPECT_NE(error_of(spec).find(message), std::string::npos) << spec << ": " << error_of(spec);
  // Lists and runs cannot be calibrated.
  EXPECT_THROW((void)parse_raw_spec("mixture:sigma=1,sens=?,probs=[1]", true), InputError);
  EXPECT_THROW((void)build_entry(parse_raw_spec("mixture:sigma=1,sens=?,probs=[1]", true), 1.0), InputError);
}

// Neighbouring relations: truncated_gaussian and mixture are add/remove, shuffle and wr_gaussian replace-one; a
// ledger mixing the two is refused.
TEST(ExtendedMechanismSpec, RelationsDoNotMix) {
  const Ledger bad = {parse_entry("shuffle:eps0=1,n=100"), parse_entry("gaussian:sigma=1,q=0.1")};
  EXPECT_THROW((void)compose(bad, Target::for_delta(1e-5), AccountantKind::automatic), InputError);
  const Ledger bad2 = {parse_entry("wr_gaussian:sigma=1,batch_size=2,dataset_size=100"),
                       parse_entry("mixture:sigma=1,sens=[0,1],probs=[0.9,0.1]")};
  EXPECT_THROW((void)compose(bad2, Target::for_delta(1e-5), AccountantKind::automatic), InputError);
  const Ledger ok = {parse_entry("shuffle:eps0=1,n=100"), parse_entry("gaussian:sigma=3,q=0.1,sampling=wor")};
  EXPECT_NO_THROW((void)compose(ok, Target::for_delta(1e-5), AccountantKind::automatic));
}

std::vector<std::string> specs_of(const std::vector<LedgerFileEntry>& v) {
  std::vector<std::string> out;
  for (const auto& e : v) out.push_back(to_spec(e.entry));
  return out;
}
std::vector<std::string> canonical(const std::vector<std::string>& specs) {
  std::vector<std::string> out;
  for (const auto& s : specs) out.push_back(to_spec(parse_entry(s)));
  return out;
}

// Written by dp_accounting 0.6 itself (google/differential-privacy python/dp_accounting, commit b5b0286e):
// json.dump of the nested to_named_tuple() of a ComposedDpEvent holding every mechanism event class.
constexpr const char* kEveryEvent = R"({"module_name": "dp_accounting.dp_event", "class_name": "ComposedDpEvent", "events": [
{"module_name": "dp_accounting.dp_event", "class_name": "SelfComposedDpEvent", "event": {"module_name": "dp_accounting.dp_event", "class_name": "PoissonSampledDpEvent", "sampling_probability": 0.01, "event": {"module_name": "dp_accounting.dp_event", "class_name": "GaussianDpEvent", "noise_multiplier": 1.1}}, "count": 1000},
{"module_name": "dp_accounting.dp_event", "class_name": "DiscreteGaussianDpEvent", "sigma": 2.0, "sensitivity": 1.0, "dimension": 1},
{"module_name": "dp_accounting.dp_event", "class_name": "SelfComposedDpEvent", "event": {"module_name": "dp_accounting.dp_event", "class_name": "DiscreteLaplaceDpEvent", "noise_parameter": 0.5, "sensitivity": 2}, "count": 10},
{"module_name": "dp_accounting.dp_event", "class_name": "SelfComposedDpEvent", "event": {"module_name": "dp_accounting.dp_event", "class_name": "RandomizedResponseDpEvent", "noise_parameter": 0.3, "num_buckets": 4}, "count": 20},
{"module_name": "dp_accounting.dp_event", "class_name": "SelfComposedDpEvent", "event": {"module_name": "dp_accounting.dp_event", "class_name": "ZCDpEvent", "rho": 0.05, "xi": 0.0}, "count": 10},
{"module_name": "dp_accounting.dp_event", "class_name": "ExponentialMechanismDpEvent", "epsilon": 0.5},
{"module_name": "dp_accounting.dp_event", "class_name": "PermuteAndFlipDpEvent", "epsilon": 0.5},
{"module_name": "dp_accounting.dp_event", "class_name": "SelfComposedDpEvent", "event": {"module_name": "dp_accounting.dp_event", "class_name": "SingleEpochTreeAggregationDpEvent", "noise_multiplier": 5.0, "step_counts": [100, 1000]}, "count": 3},
{"module_name": "dp_accounting.dp_event", "class_name": "MixtureOfGaussiansDpEvent", "standard_deviation": 1.0, "sensitivities": [0.0, 1.0, 2.0], "sampling_probs": [0.81, 0.18, 0.01]},
{"module_name": "dp_accounting.dp_event", "class_name": "TruncatedSubsampledGaussianDpEvent", "dataset_size": 60000, "sampling_probability": 0.01, "truncated_batch_size": 650, "noise_multiplier": 1.1},
{"module_name": "dp_accounting.dp_event", "class_name": "RepeatAndSelectDpEvent", "event": {"module_name": "dp_accounting.dp_event", "class_name": "SelfComposedDpEvent", "event": {"module_name": "dp_accounting.dp_event", "class_name": "GaussianDpEvent", "noise_multiplier": 2.0}, "count": 10}, "mean": 10, "shape": 1},
{"module_name": "dp_accounting.dp_event", "class_name": "PoissonSampledDpEvent", "sampling_probability": 0.02, "event": {"module_name": "dp_accounting.dp_event", "class_name": "ComposedDpEvent", "events": [{"module_name": "dp_accounting.dp_event", "class_name": "GaussianDpEvent", "noise_multiplier": 2.0}, {"module_name": "dp_accounting.dp_event", "class_name": "GaussianDpEvent", "noise_multiplier": 2.0}]}},
{"module_name": "dp_accounting.dp_event", "class_name": "NoOpDpEvent"},
{"module_name": "dp_accounting.dp_event", "class_name": "EpsilonDeltaDpEvent", "epsilon": 0.1, "delta": 1e-07},
{"module_name": "dp_accounting.dp_event", "class_name": "LaplaceDpEvent", "noise_multiplier": 3.0}]})";

TEST(ExtendedMechanismSpec, EveryDpAccountingEventClass) {
  const auto got = parse_ledger_text(kEveryEvent, "events.json");
  EXPECT_EQ(specs_of(got),
            canonical({"gaussian:sigma=1.1,q=0.01,steps=1000", "discrete_gaussian:sigma=2,dim=1",
                       "discrete_laplace:a=0.5,sens=2,steps=10", "rr:p=0.3,k=4,steps=20", "zcdp:rho=0.05,steps=10",
                       "exponential:eps=0.5", "permute_and_flip:eps=0.5", "tree:sigma=5,leaves=1000,steps=3",
                       "mixture:sigma=1,sens=[0,1,2],probs=[0.81,0.18,0.01]",
                       "truncated_gaussian:sigma=1.1,q=0.01,batch_size=650,dataset_size=60000",
                       "select:mean=10,shape=1,run=[gaussian:sigma=2,steps=10]",
                       // two Gaussians of noise 2 on one sample: one of noise 2/sqrt(2), rounded down
                       "gaussian:sigma=1.414213562373095,q=0.02", "approx:eps=0.1,delta=1e-7", "laplace:b=3"}));
  EXPECT_LE(got[11].entry.mechanism.sigma, std::sqrt(2.0));
  // The whole ledger composes (split: the mixture has no Renyi curve, zcdp and select no PLD).
  const AccountingResult r = compose(Ledger([&] {
                                       Ledger l;
                                       for (const auto& e : got) l.push_back(e.entry);
                                       return l;
                                     }()),
                                     Target::for_delta(1e-5), AccountantKind::automatic);
  EXPECT_TRUE(is_finite(r.epsilon));
  EXPECT_EQ(r.accountant, "rdp+pld");

  // Sampling with replacement (of a Gaussian), RepeatAndSelect with shape inf written as the string "inf".
  EXPECT_EQ(specs_of(parse_ledger_text(
                R"({"class_name": "SampledWithReplacementDpEvent", "source_dataset_size": 60000, "sample_size": 600,
                    "event": {"class_name": "GaussianDpEvent", "noise_multiplier": 1.1}})",
                "wr.json")),
            canonical({"wr_gaussian:sigma=1.1,batch_size=600,dataset_size=60000"}));
  EXPECT_EQ(specs_of(parse_ledger_text(
                R"({"class_name": "RepeatAndSelectDpEvent", "event": {"class_name": "SelfComposedDpEvent", "event":
                    {"class_name": "PoissonSampledDpEvent", "sampling_probability": 0.01, "event": {"class_name":
                    "GaussianDpEvent", "noise_multiplier": 2.0}}, "count": 1000}, "mean": 10, "shape": "inf"})",
                "select.json")),
            canonical({"select:mean=10,shape=inf,run=[gaussian:sigma=2,q=0.01,steps=1000]"}));
  // The step counts of a tree: the largest tree is the worst case; a scalar step count too.
  EXPECT_EQ(specs_of(parse_ledger_text(R"({"class_name": "SingleEpochTreeAggregationDpEvent", "noise_multiplier": 2,
                                            "step_counts": 64})", "t.json")),
            canonical({"tree:sigma=2,leaves=64"}));
}

TEST(ExtendedMechanismSpec, EventErrorsNameTheClass) {
  auto error = [](const std::string& json) {
    try {
      (void)parse_ledger_text(json, "e.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_NE(error(R"({"class_name": "UnsupportedDpEvent"})").find("UnsupportedDpEvent"), std::string::npos);
  EXPECT_NE(error(R"({"class_name": "NonPrivateDpEvent"})").find("not private"), std::string::npos);
  EXPECT_NE(error(R"({"class_name": "ZCDpEvent", "rho": 0.1, "xi": -1})").find("xi"), std::string::npos);
  EXPECT_NE(error(R"({"class_name": "SampledWithReplacementDpEvent", "source_dataset_size": 10, "sample_size": 2,
                      "event": {"class_name": "LaplaceDpEvent", "noise_multiplier": 1}})")
                .find("SampledWithReplacementDpEvent of LaplaceDpEvent"),
            std::string::npos);
  EXPECT_NE(error(R"({"class_name": "PoissonSampledDpEvent", "sampling_probability": 0.1, "event":
                      {"class_name": "MixtureOfGaussiansDpEvent", "standard_deviation": 1, "sensitivities": [1],
                       "sampling_probs": [1]}})")
                .find("inside a sampled event"),
            std::string::npos);
  EXPECT_NE(error(R"({"class_name": "FancyNewDpEvent"})").find("FancyNewDpEvent"), std::string::npos);
  // Events without a privacy cost contribute nothing (an empty ledger is then an error of its own).
  EXPECT_NE(error(R"({"class_name": "RandomizedResponseDpEvent", "noise_parameter": 1, "num_buckets": 4})").find("no entry"),
            std::string::npos);
}

}  // namespace
}  // namespace dpl
