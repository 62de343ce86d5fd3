// SPDX-License-Identifier: Apache-2.0
// Run parameters: parsing of assignments and config files, every declared read's validation (the message names
// the key, the value and the allowed range), reject_unknown, and the resolved JSON.
#include "algorithms/run/run_parameters.h"

#include "tests/algorithms/expect_input_error.h"
#include "tests/algorithms/temp_file.h"

#include <gtest/gtest.h>

namespace dpl::algorithms {
namespace {

using dpl::testing::expect_input_error;
using dpl::testing::TempFile;

TEST(RunParameters, DefaultsAreResolvedWithTheirJsonTypes) {
  RunParameters p;
  EXPECT_EQ(p.real("eta", 0.5, 0, 1), 0.5);
  EXPECT_EQ(p.integer("K", 100, 1, 100000), 100);
  EXPECT_EQ(p.choice("graph", "ring", {"ring", "complete"}), "ring");
  EXPECT_TRUE(p.flag("trace", true));
  EXPECT_EQ(p.text("data", "breast_cancer"), "breast_cancer");
  const Json& j = p.resolved();
  EXPECT_TRUE(j["eta"].is_number_float());
  EXPECT_TRUE(j["K"].is_number_integer());
  EXPECT_TRUE(j["graph"].is_string());
  EXPECT_TRUE(j["trace"].is_boolean());
  EXPECT_EQ(j.dump(), R"({"eta":0.5,"K":100,"graph":"ring","trace":true,"data":"breast_cancer"})");
  p.reject_unknown();  // nothing given
}

TEST(RunParameters, AssignmentsOverrideAndAreParsed) {
  RunParameters p = RunParameters::from_assignments({"K=10", "eta=1e-1", "K = 20", "trace=off", "graph=complete",
                                                     "data=/tmp/a=b.csv"});
  EXPECT_EQ(p.integer("K", 100, 1, 100000), 20);
  EXPECT_EQ(p.real("eta", 0.5, 0, 1), 0.1);
  EXPECT_FALSE(p.flag("trace", true));
  EXPECT_EQ(p.choice("graph", "ring", {"ring", "complete"}), "complete");
  EXPECT_EQ(p.text("data", ""), "/tmp/a=b.csv");  // only the first '=' splits
  EXPECT_EQ(p.resolved()["K"], 20);
  p.reject_unknown();
  for (const auto& [s, v] : std::vector<std::pair<std::string, bool>>{
           {"on", true}, {"true", true}, {"1", true}, {"yes", true},
           {"off", false}, {"false", false}, {"0", false}, {"no", false}}) {
    RunParameters q = RunParameters::from_assignments({"f=" + s});
    EXPECT_EQ(q.flag("f", !v), v) << s;
  }
  EXPECT_EQ(RunParameters::from_assignments({"K=+7"}).integer("K", 1, 1, 10), 7);
}

TEST(RunParameters, MalformedAssignments) {
  expect_input_error([] { RunParameters::from_assignments({"K"}); }, {"--set K", "key=value"});
  expect_input_error([] { RunParameters::from_assignments({"=3"}); }, {"--set =3", "empty key"});
}

TEST(RunParameters, EveryReadRejectsBadValuesNamingKeyValueAndRange) {
  auto with = [](const std::string& a) { return RunParameters::from_assignments({a}); };
  expect_input_error([&] { with("K=abc").integer("K", 1, 1, 100000); },
                     {"K=abc is not a number", "allowed integers [1, 100000]"});
  expect_input_error([&] { with("K=0").integer("K", 1, 1, 100000); },
                     {"K=0 is out of range", "allowed integers [1, 100000]"});
  expect_input_error([&] { with("K=2.5").integer("K", 1, 1, 10); }, {"K=2.5 is not an integer", "[1, 10]"});
  expect_input_error([&] { with("K=").integer("K", 1, 1, 10); }, {"K= is not a number"});
  expect_input_error([&] { with("K=99999999999999999999").integer("K", 1, 1, 10); },
                     {"K=99999999999999999999 is out of range"});
  expect_input_error([&] { with("eta=x").real("eta", 0.5, 0, 1); }, {"eta=x is not a number", "[0, 1]"});
  expect_input_error([&] { with("eta=0.5x").real("eta", 0.5, 0, 1); }, {"eta=0.5x is not a number"});
  expect_input_error([&] { with("eta=nan").real("eta", 0.5, 0, 1); }, {"eta=nan", "finite"});
  expect_input_error([&] { with("eta=inf").real("eta", 0.5, 0, 1); }, {"eta=inf", "finite"});
  expect_input_error([&] { with("eta=1e999").real("eta", 0.5, 0, 1); }, {"eta=1e999", "finite"});
  expect_input_error([&] { with("eta=2").real("eta", 0.5, 0, 1); }, {"eta=2 is out of range", "allowed reals [0, 1]"});
  expect_input_error([&] { with("eta=0").real("eta", 0.5, 0, 1, true); }, {"eta=0 is out of range", "(0, 1]"});
  expect_input_error([&] { with("eta=1").real("eta", 0.5, 0, 1, false, true); }, {"eta=1", "[0, 1)"});
  expect_input_error([&] { with("eta=-0.001").real("eta", 0.5, 0, 1e6); }, {"eta=-0.001", "[0, 1e+06]"});
  expect_input_error([&] { with("graph=star").choice("graph", "ring", {"ring", "complete"}); },
                     {"graph=star", "allowed values ring, complete"});
  expect_input_error([&] { with("trace=maybe").flag("trace", true); }, {"trace=maybe", "on/off"});
  // Open ends accept interior values; closed ends accept the end.
  EXPECT_EQ(with("eta=1").real("eta", 0.5, 0, 1), 1.0);
  EXPECT_EQ(with("eta=1e-300").real("eta", 0.5, 0, 1, true), 1e-300);
}

TEST(RunParameters, RejectUnknownListsTheKnownKeys) {
  RunParameters p = RunParameters::from_assignments({"K=5", "stepsize=0.1"});
  p.integer("K", 1, 1, 10);
  p.real("eta", 0.5, 0, 1);
  expect_input_error([&] { p.reject_unknown(); }, {"stepsize=0.1", "known keys are K, eta"});
  RunParameters none = RunParameters::from_assignments({"x=1"});
  expect_input_error([&] { none.reject_unknown(); }, {"x=1", "(none)"});
}

TEST(RunParameters, ConfigFilesWithCommentsAndSetOverrides) {
  TempFile f("run.cfg", "# a run\n\nK = 30   # iterations\n  eta=0.25\ndata = my file.csv\n");
  RunParameters p = RunParameters::from_assignments({"K=40"});
  p.merge_config_file(f.path());  // --set wins even when the file is merged afterwards
  EXPECT_EQ(p.integer("K", 1, 1, 100), 40);
  EXPECT_EQ(p.real("eta", 0.5, 0, 1), 0.25);
  EXPECT_EQ(p.text("data", ""), "my file.csv");
  RunParameters q;
  q.merge_config_file(f.path());
  q.set("eta", "0.75");  // and when it is set afterwards
  EXPECT_EQ(q.real("eta", 0.5, 0, 1), 0.75);
  EXPECT_EQ(q.integer("K", 1, 1, 100), 30);
}

TEST(RunParameters, MalformedConfigFilesNameFileAndLine) {
  expect_input_error([] { RunParameters().merge_config_file("/nonexistent/run.cfg"); },
                     {"/nonexistent/run.cfg", "cannot open"});
  {
    TempFile f("run.cfg", "K = 3\njust words\n");
    expect_input_error([&] { RunParameters().merge_config_file(f.path()); },
                       {f.path(), "line 2", "'just words'", "key = value"});
  }
  {
    TempFile f("run.cfg", "\n\n = 4\n");
    expect_input_error([&] { RunParameters().merge_config_file(f.path()); }, {"line 3", "empty key"});
  }
}

TEST(RunParameters, DescribeOnlyRecordsDefaultsAndAllowedThenStops) {
  RunParameters p = RunParameters::from_assignments({"K=7"});
  p.set_describe_only(true);
  EXPECT_EQ(p.integer("K", 100, 1, 1000), 7);
  EXPECT_DOUBLE_EQ(p.real("D", 10, 0, 1e3, true), 10);
  EXPECT_EQ(p.choice("loss", "logistic", {"logistic", "hinge"}), "logistic");
  EXPECT_TRUE(p.flag("noise", true));
  EXPECT_EQ(p.text("data", "breast_cancer"), "breast_cancer");
  EXPECT_EQ(p.defaults()["K"], 100);
  EXPECT_EQ(p.resolved()["K"], 7);
  EXPECT_EQ(p.allowed()["K"], "integers [1, 1000]");
  EXPECT_EQ(p.allowed()["D"], "reals (0, 1000]");
  EXPECT_EQ(p.allowed()["loss"], "one of logistic, hinge");
  EXPECT_EQ(p.allowed()["noise"], "flag: on/off");
  EXPECT_EQ(p.allowed()["data"], "text");
  EXPECT_THROW(p.reject_unknown(), ParametersDescribed);
  // An unknown key is still an input error, reported before the description.
  RunParameters q = RunParameters::from_assignments({"bogus=1"});
  q.set_describe_only(true);
  (void)q.integer("K", 100, 1, 1000);
  EXPECT_THROW(q.reject_unknown(), InputError);
  // Without describe-only, a clean set of keys passes.
  RunParameters r;
  (void)r.integer("K", 100, 1, 1000);
  EXPECT_NO_THROW(r.reject_unknown());
}

}  // namespace
}  // namespace dpl::algorithms
