// SPDX-License-Identifier: Apache-2.0
// Ledger files: every format gives the same ledger as the equivalent -m specs; malformed files are refused with
// the source, the line and the field named.
#include "accounting/errors.h"
#include "accounting/mechanisms/ledger_file.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <charconv>
#include <cmath>
#include <string>
#include <vector>

using namespace dpl;

namespace {

std::vector<std::string> specs(const std::vector<LedgerFileEntry>& es) {
  std::vector<std::string> out;
  for (const auto& e : es) out.push_back(to_spec(e.entry));
  return out;
}

std::vector<std::string> canonical(const std::vector<std::string>& ms) {
  std::vector<std::string> out;
  for (const auto& m : ms) out.push_back(to_spec(parse_entry(m)));
  return out;
}

std::string num(double v) {
  char b[64];
  return std::string(b, std::to_chars(b, b + sizeof b, v).ptr);
}

std::string error_of(const std::string& text) {
  try {
    parse_ledger_text(text, "run.log");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(LedgerFile, JsonLinesArrayAndTextAgreeWithSpecs) {
  const auto want = canonical({"gaussian:sigma=1.1,q=0.01,steps=1000", "laplace:b=2,sens=0.5,steps=3",
                               "pure:eps=0.1", "approx:eps=1,delta=1e-6,q=0.2,sampling=wor"});
  const std::string jsonl =
      "{\"mechanism\":\"gaussian\",\"sigma\":1.1,\"q\":0.01,\"steps\":1000}\n"
      "{\"mechanism\":\"laplace\",\"b\":2,\"sens\":0.5,\"steps\":3}\n\n"
      "{\"name\":\"pure\",\"eps\":0.1,\"q\":1,\"sampling\":\"none\"}\n"
      "{\"mechanism\":\"approx\",\"eps\":1,\"delta\":1e-6,\"q\":0.2,\"sampling\":\"wor\"}\n";
  EXPECT_EQ(specs(parse_ledger_text(jsonl, "a.jsonl")), want);
  const std::string array = "[\n {\"mechanism\":\"gaussian\",\"sigma\":1.1,\"q\":0.01,\"steps\":1000},\n"
                            " {\"mechanism\":\"laplace\",\"b\":2,\"sens\":0.5,\"steps\":3},\n"
                            " {\"mechanism\":\"pure\",\"eps\":0.1},\n"
                            " {\"mechanism\":\"approx\",\"eps\":1,\"delta\":1e-6,\"q\":0.2,\"sampling\":\"wor\"}\n]\n";
  EXPECT_EQ(specs(parse_ledger_text(array, "a.json")), want);
  const std::string text = "# pre-training\ngaussian:sigma=1.1,q=0.01,steps=1000\n-m laplace:b=2,sens=0.5,steps=3  # x\n"
                           "\npure:eps=0.1\napprox:eps=1,delta=1e-6,q=0.2,sampling=wor\n";
  EXPECT_EQ(specs(parse_ledger_text(text, "a.txt")), want);
}

TEST(LedgerFile, OpacusHistory) {
  const auto got = parse_ledger_text("[[1.1, 0.01, 10000], [0.8, 0.02, 500], [2.0, 1.0, 3]]", "opacus.json");
  EXPECT_EQ(specs(got), canonical({"gaussian:sigma=1.1,q=0.01,steps=10000", "gaussian:sigma=0.8,q=0.02,steps=500",
                                   "gaussian:sigma=2,steps=3"}));
  // The accountant's state_dict with the mechanism's name (json.dump of {"history": ..., "mechanism": "rdp"}).
  const auto state = parse_ledger_text(R"({"history": [[1.1, 0.01, 10000], [0.8, 0.02, 500]], "mechanism": "prv"})",
                                       "state.json");
  EXPECT_EQ(specs(state), canonical({"gaussian:sigma=1.1,q=0.01,steps=10000", "gaussian:sigma=0.8,q=0.02,steps=500"}));
}

TEST(LedgerFile, DpAccountingEventTree) {
  const std::string dpsgd = R"({"module_name": "dp_accounting.dp_event", "class_name": "SelfComposedDpEvent",
    "event": {"module_name": "dp_accounting.dp_event", "class_name": "PoissonSampledDpEvent",
              "sampling_probability": 0.01,
              "event": {"module_name": "dp_accounting.dp_event", "class_name": "GaussianDpEvent",
                        "noise_multiplier": 1.1}},
    "count": 10000})";
  EXPECT_EQ(specs(parse_ledger_text(dpsgd, "event.json")), canonical({"gaussian:sigma=1.1,q=0.01,steps=10000"}));

  const std::string composed = R"({"class_name": "ComposedDpEvent", "events": [
      {"class_name": "SelfComposedDpEvent", "count": 2, "event": {"class_name": "ComposedDpEvent", "events": [
          {"class_name": "LaplaceDpEvent", "noise_multiplier": 3},
          {"class_name": "SelfComposedDpEvent", "count": 5, "event": {"class_name": "EpsilonDeltaDpEvent", "epsilon": 0.5, "delta": 1e-7}}]}},
      {"class_name": "NoOpDpEvent"},
      {"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": 1000, "sample_size": 10,
       "event": {"class_name": "RandomizedResponseDpEvent", "noise_parameter": 0.5, "num_buckets": 2}},
      {"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": 3, "sample_size": 1,
       "event": {"class_name": "GaussianDpEvent", "noise_multiplier": 2}}]})";
  const auto got = parse_ledger_text(composed, "event.json");
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(to_spec(got[0].entry), to_spec(parse_entry("laplace:b=3,steps=2")));
  EXPECT_EQ(to_spec(got[1].entry), to_spec(parse_entry("approx:eps=0.5,delta=1e-7,steps=10")));
  // RR with p = 1/2 over 2 buckets: eps = log(1 + 2 (1/2)/(1/2)) = log 3, rounded up; q = 10/1000 exactly.
  EXPECT_EQ(got[2].entry.mechanism.kind, MechanismKind::rr);
  EXPECT_GE(got[2].entry.mechanism.eps, std::log(3.0));
  EXPECT_LE(got[2].entry.mechanism.eps, std::log(3.0) * (1 + 1e-15));
  EXPECT_EQ(got[2].entry.q, 0.01);
  EXPECT_EQ(got[2].entry.sampling, Sampling::wor);
  // 1/3 is not a double: the sampling ratio is rounded up (a larger ratio, a larger bound).
  EXPECT_GT(got[3].entry.q, 1.0 / 3.0);
  EXPECT_LT(got[3].entry.q, 1.0 / 3.0 * (1 + 1e-15));
}

TEST(LedgerFile, MalformedFilesNameTheLineAndField) {
  EXPECT_NE(error_of("").find("empty"), std::string::npos);
  EXPECT_NE(error_of("  \n# only a comment\n").find("no entry"), std::string::npos);
  const std::string bad_json = error_of("{\"mechanism\":\"gaussian\",\"sigma\":1}\n{\"mechanism\":\"gaussian\",\"sigma\":}\n");
  EXPECT_NE(bad_json.find("run.log:2"), std::string::npos) << bad_json;
  EXPECT_NE(bad_json.find("not valid JSON"), std::string::npos) << bad_json;
  const std::string unknown = error_of("gaussian:sigma=1\n\nbogus:x=1\n");
  EXPECT_NE(unknown.find("run.log:3"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("bogus"), std::string::npos) << unknown;
  const std::string missing = error_of("{\"mechanism\":\"gaussian\",\"q\":0.1}\n");
  EXPECT_NE(missing.find("run.log:1"), std::string::npos) << missing;
  EXPECT_NE(missing.find("sigma"), std::string::npos) << missing;
  const std::string negative = error_of("[\n{\"mechanism\":\"gaussian\",\"sigma\":1},\n{\"mechanism\":\"gaussian\",\"sigma\":1,\"steps\":-4}\n]");
  EXPECT_NE(negative.find("run.log:3"), std::string::npos) << negative;
  EXPECT_NE(negative.find("steps"), std::string::npos) << negative;
  const std::string no_name = error_of("{\"sigma\":1}");
  EXPECT_NE(no_name.find("mechanism"), std::string::npos) << no_name;
  const std::string nonprivate = error_of("{\"class_name\":\"NonPrivateDpEvent\"}");
  EXPECT_NE(nonprivate.find("NonPrivateDpEvent"), std::string::npos) << nonprivate;
  // Several mechanisms on one sample are accounted only when they are Gaussians (one equivalent Gaussian).
  const std::string nested = error_of(R"({"class_name":"PoissonSampledDpEvent","sampling_probability":0.1,
      "event":{"class_name":"SelfComposedDpEvent","count":3,"event":{"class_name":"LaplaceDpEvent","noise_multiplier":1}}})");
  EXPECT_NE(nested.find("cannot be accounted"), std::string::npos) << nested;
  EXPECT_NE(error_of("[[1.1, 0.01]]").find("noise_multiplier, sample_rate, steps"), std::string::npos);
  EXPECT_NE(error_of("{\"mechanism\":\"gaussian\",\"sigma\":[1]}").find("field 'sigma'"), std::string::npos);
}

// to_spec is the inverse of parse_entry on every valid entry, and a JSON line built from the spec's keys reads back
// to the same entry.
RC_GTEST_PROP(LedgerFile, SpecRoundTrip, ()) {
  const int kind = *rc::gen::inRange(0, 5);
  const double v = std::ldexp(1.0 + *rc::gen::inRange(0, 1 << 20) / double(1 << 20), *rc::gen::inRange(-30, 30));
  const auto steps = *rc::gen::inRange<std::int64_t>(1, 1000000);
  const double q = *rc::gen::inRange(1, 1000) / 1000.0;
  std::string spec;
  switch (kind) {
    case 0: spec = "gaussian:sigma=" + num(v); break;
    case 1: spec = "laplace:b=" + num(v) + ",sens=2"; break;
    case 2: spec = "pure:eps=" + num(v); break;
    case 3: spec = "rr:eps=" + num(v); break;
    default: spec = "approx:eps=" + num(v) + ",delta=1e-9"; break;
  }
  spec += ",steps=" + std::to_string(steps) + ",q=" + num(q) + (*rc::gen::arbitrary<bool>() ? ",sampling=wor" : "");
  const LedgerEntry e = parse_entry(spec);
  RC_ASSERT(to_spec(parse_entry(to_spec(e))) == to_spec(e));
  const auto back = parse_ledger_text(to_spec(e) + "\n", "x");
  RC_ASSERT(back.size() == 1u);
  RC_ASSERT(back[0].entry.mechanism.sigma == e.mechanism.sigma);
  RC_ASSERT(back[0].entry.mechanism.b == e.mechanism.b);
  RC_ASSERT(back[0].entry.mechanism.eps == e.mechanism.eps);
  RC_ASSERT(back[0].entry.steps == e.steps);
  RC_ASSERT(back[0].entry.q == e.q);
  RC_ASSERT(back[0].entry.sampling == e.sampling);
}
