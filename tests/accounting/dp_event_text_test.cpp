// SPDX-License-Identifier: Apache-2.0
// dp_accounting's DpEvents as Python prints them (repr, attr.asdict) and Opacus' accountant state read as ledgers:
// each form gives the same ledger as the equivalent -m specs (golden ledgers written by hand from the dp_accounting
// 0.6 class definitions); forms that are ambiguous or malformed are refused, naming the candidates or the line.
#include "accounting/errors.h"
#include "accounting/mechanisms/dp_event_text.h"
#include "accounting/mechanisms/ledger_file.h"

#include <gtest/gtest.h>

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

std::string error_of(const std::string& text, const LedgerReadOptions& o = {}) {
  try {
    parse_ledger_text(text, "events.txt", o);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// DP-SGD as dp_accounting builds it: 1000 steps of a Poisson-sampled Gaussian.
const char* kDpSgdRepr =
    "SelfComposedDpEvent(event=PoissonSampledDpEvent(sampling_probability=0.01, "
    "event=GaussianDpEvent(noise_multiplier=1.1)), count=1000)";
const char* kDpSgdAsdictPrinted =
    "{'event': {'sampling_probability': 0.01, 'event': {'noise_multiplier': 1.1}}, 'count': 1000}";
const char* kDpSgdAsdictJson =
    R"({"event": {"sampling_probability": 0.01, "event": {"noise_multiplier": 1.1}}, "count": 1000})";

}  // namespace

TEST(DpEventText, ReprGivesTheLedgerOfTheSpecs) {
  const auto want = canonical({"gaussian:sigma=1.1,q=0.01,steps=1000"});
  EXPECT_EQ(specs(parse_ledger_text(kDpSgdRepr, "event.txt")), want);
  // With the module prefix, numpy 2 scalars and a trailing newline.
  EXPECT_EQ(specs(parse_ledger_text("dp_event.SelfComposedDpEvent(event=dp_event.PoissonSampledDpEvent("
                                    "sampling_probability=np.float64(0.01), event=dp_event.GaussianDpEvent("
                                    "noise_multiplier=np.float64(1.1))), count=1000)\n",
                                    "event.txt")),
            want);
}

TEST(DpEventText, ReprOfComposedEventsListsAndLines) {
  const auto want = canonical({"laplace:b=3,steps=2", "approx:eps=0.5,delta=1e-7", "gaussian:sigma=2,steps=5"});
  const std::string composed =
      "ComposedDpEvent(events=[SelfComposedDpEvent(event=LaplaceDpEvent(noise_multiplier=3), count=2), "
      "EpsilonDeltaDpEvent(epsilon=0.5, delta=1e-07), NoOpDpEvent(), "
      "SelfComposedDpEvent(event=GaussianDpEvent(noise_multiplier=2.0), count=5)])";
  EXPECT_EQ(specs(parse_ledger_text(composed, "e.txt")), want);
  // One repr per line (a log of events), a Python list of them: the same ledger.
  const std::string lines =
      "# events of the run\n"
      "SelfComposedDpEvent(event=LaplaceDpEvent(noise_multiplier=3), count=2)\n"
      "EpsilonDeltaDpEvent(epsilon=0.5, delta=1e-07)\n"
      "SelfComposedDpEvent(event=GaussianDpEvent(noise_multiplier=2.0), count=5)\n";
  EXPECT_EQ(specs(parse_ledger_text(lines, "e.txt")), want);
  const std::string list =
      "[SelfComposedDpEvent(event=LaplaceDpEvent(noise_multiplier=3), count=2),\n"
      " EpsilonDeltaDpEvent(epsilon=0.5, delta=1e-07),\n"
      " SelfComposedDpEvent(event=GaussianDpEvent(noise_multiplier=2.0), count=5)]";
  EXPECT_EQ(specs(parse_ledger_text(list, "e.txt")), want);
}

TEST(DpEventText, AsdictPrintedAndJsonDumpedGiveTheSameLedger) {
  const auto want = canonical({"gaussian:sigma=1.1,q=0.01,steps=1000"});
  // {'noise_multiplier': 1.1} is a GaussianDpEvent or a LaplaceDpEvent: the user names the one meant.
  LedgerReadOptions gaussian;
  gaussian.asdict_classes = {"GaussianDpEvent"};
  EXPECT_EQ(specs(parse_ledger_text(kDpSgdAsdictPrinted, "e.txt", gaussian)), want);
  EXPECT_EQ(specs(parse_ledger_text(kDpSgdAsdictJson, "e.json", gaussian)), want);
  LedgerReadOptions laplace;
  laplace.asdict_classes = {"LaplaceDpEvent"};
  EXPECT_EQ(specs(parse_ledger_text(kDpSgdAsdictJson, "e.json", laplace)),
            canonical({"laplace:b=1.1,q=0.01,steps=1000"}));
  // Unambiguous dicts need no option: Poisson sampling of an (epsilon, delta) event.
  EXPECT_EQ(specs(parse_ledger_text("{'sampling_probability': 0.01, 'event': {'epsilon': 1.0, 'delta': 1e-06}}",
                                    "e.txt")),
            canonical({"approx:eps=1,delta=1e-6,q=0.01"}));
  // Sampling with and without replacement have the same fields: named by the option.
  LedgerReadOptions wor;
  wor.asdict_classes = {"SampledWithoutReplacementDpEvent"};
  EXPECT_EQ(specs(parse_ledger_text("{'source_dataset_size': 1000, 'sample_size': 10, "
                                    "'event': {'epsilon': 1.0, 'delta': 1e-06}}",
                                    "e.txt", wor)),
            canonical({"approx:eps=1,delta=1e-6,q=0.01,sampling=wor"}));
}

TEST(DpEventText, AmbiguousOrUnknownDictsAreRefusedNamingTheCandidates) {
  const std::string e = error_of(kDpSgdAsdictJson);
  EXPECT_NE(e.find("GaussianDpEvent"), std::string::npos) << e;
  EXPECT_NE(e.find("LaplaceDpEvent"), std::string::npos) << e;
  EXPECT_NE(e.find("--asdict-class"), std::string::npos) << e;
  // A dict with the fields of no class is an ordinary ledger entry without a mechanism name.
  EXPECT_NE(error_of("{'noise_multiplier': 1.1, 'count': 3}").find("events.txt"), std::string::npos);
  // Classes that share their fields: Gaussian/Laplace (noise_multiplier), sampling with/without replacement,
  // exponential/permute-and-flip (epsilon), and the three without fields.
  EXPECT_EQ(ambiguous_asdict_classes(),
            (std::vector<std::string>{"NoOpDpEvent", "NonPrivateDpEvent", "UnsupportedDpEvent", "GaussianDpEvent",
                                      "LaplaceDpEvent", "SampledWithReplacementDpEvent",
                                      "SampledWithoutReplacementDpEvent", "ExponentialMechanismDpEvent",
                                      "PermuteAndFlipDpEvent"}));
}

TEST(DpEventText, MalformedPythonTextNamesTheLine) {
  const std::string e = error_of("GaussianDpEvent(noise_multiplier=1.1)\nGaussianDpEvent(noise_multiplier=)\n");
  EXPECT_NE(e.find("events.txt:2"), std::string::npos) << e;
  EXPECT_NE(error_of("GaussianDpEvent(1.1)").find("positional"), std::string::npos);
  EXPECT_NE(error_of("GaussianDpEvent(noise_multiplier=inf)").find("finite"), std::string::npos);
  EXPECT_NE(error_of("SelfComposedDpEvent(event=GaussianDpEvent(noise_multiplier=1.1), count=3").find("events.txt:1"),
            std::string::npos);
}

TEST(DpEventText, OpacusStateAndPrintedHistory) {
  const auto want = canonical({"gaussian:sigma=1.1,q=0.01,steps=1000", "gaussian:sigma=0.8,q=0.02,steps=500"});
  // json.dump(accountant.state_dict()) and print(accountant.history) (a list of tuples).
  EXPECT_EQ(specs(parse_ledger_text(R"({"history": [[1.1, 0.01, 1000], [0.8, 0.02, 500]], "mechanism": "rdp"})",
                                    "state.json")),
            want);
  EXPECT_EQ(specs(parse_ledger_text("[(1.1, 0.01, 1000), (0.8, 0.02, 500)]", "history.txt")), want);
  EXPECT_EQ(specs(parse_ledger_text("{'history': [(1.1, 0.01, 1000), (0.8, 0.02, 500)], 'mechanism': 'rdp'}",
                                    "state.txt")),
            want);
}

TEST(DpEventText, TheProvenanceLineOfDpledgersOwnFilesIsSkipped) {
  const std::string jsonl = R"j({"version":"0.1.0 (commit 0123456789ab)","arguments":["run","x"]})j"
                            "\n{\"mechanism\":\"gaussian\",\"sigma\":1.1,\"q\":0.01,\"steps\":1000}\n";
  EXPECT_EQ(specs(parse_ledger_text(jsonl, "ledger.jsonl")), canonical({"gaussian:sigma=1.1,q=0.01,steps=1000"}));
  // An object with other members is not a provenance line: it is refused as an entry without a mechanism.
  EXPECT_FALSE(error_of(R"({"version":"0.1.0","note":"x"})").empty());
}
