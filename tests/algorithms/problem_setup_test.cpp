// SPDX-License-Identifier: Apache-2.0
// Problem set-up: the defaults (shipped data, 10 agents, random graph with 20 edges, logistic + l2), every
// declared key recorded in resolved(), the synthetic and user-file paths, and each validation error.
#include "algorithms/run/problem_setup.h"

#include "tests/algorithms/expect_input_error.h"
#include "tests/algorithms/temp_file.h"

#include <gtest/gtest.h>

#include <sstream>

namespace dpl::algorithms {
namespace {

using dpl::testing::expect_input_error;
using dpl::testing::TempFile;

TEST(ProblemSetup, DefaultsGiveTheShippedProblem) {
  RunParameters params;
  Rng rng(1);
  const DistributedProblem p = setup_problem(params, ProblemDefaults{}, rng);
  EXPECT_EQ(p.agents(), 10);
  EXPECT_EQ(p.dim(), 30);
  int rows = 0;
  for (const auto& f : p.locals) {
    rows += f.rows();
    EXPECT_TRUE(f.rows() == 56 || f.rows() == 57);
    EXPECT_EQ(f.loss(), LossKind::logistic);
    EXPECT_EQ(f.regularizer().l2, 1.0);
    EXPECT_GE(f.data().features.minCoeff(), 0.0);
    EXPECT_LE(f.data().features.maxCoeff(), 1.0);
    EXPECT_TRUE(((f.data().labels.array() == 1.0) || (f.data().labels.array() == -1.0)).all());
  }
  EXPECT_EQ(rows, 569);
  EXPECT_EQ(p.graph.nodes, 10);
  EXPECT_EQ(p.graph.edges.size(), 20u);
  EXPECT_TRUE(p.graph.connected());
  EXPECT_LT(p.optimum.optimality_gap, 1e-10);
  EXPECT_NEAR(p.optimum.value, total_objective(p.locals, p.optimum.x), 1e-12);
  const Json& j = params.resolved();
  for (const char* key : {"data", "agents", "per_agent", "graph", "edges", "loss", "l2", "l1", "huber_delta",
                          "synthetic_rows", "synthetic_dim"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["data"], "breast_cancer");
  EXPECT_EQ(j["agents"], 10);
  EXPECT_EQ(j["l2"], 1.0);
  params.reject_unknown();
}

TEST(ProblemSetup, SameSeedSameProblem) {
  RunParameters a, b;
  Rng ra(7), rb(7);
  const auto pa = setup_problem(a, ProblemDefaults{}, ra);
  const auto pb = setup_problem(b, ProblemDefaults{}, rb);
  EXPECT_EQ(pa.graph.edges, pb.graph.edges);
  EXPECT_EQ(pa.locals[3].data().features, pb.locals[3].data().features);
  EXPECT_EQ(pa.optimum.x, pb.optimum.x);
}

TEST(ProblemSetup, SyntheticRegressionKeepsRawData) {
  RunParameters params = RunParameters::from_assignments(
      {"data=synthetic", "loss=squared", "agents=5", "synthetic_rows=15", "synthetic_dim=2", "graph=ring",
       "l2=0.1"});
  ProblemDefaults defaults;
  Rng rng(3);
  const auto p = setup_problem(params, defaults, rng);
  EXPECT_EQ(p.agents(), 5);
  EXPECT_EQ(p.dim(), 2);
  EXPECT_EQ(p.graph.edges.size(), 5u);
  EXPECT_EQ(p.locals[0].data().name, "synthetic-regression[agent 0]");
  EXPECT_LT(p.locals[0].data().features.minCoeff() + p.locals[1].data().features.minCoeff(), 0.0);  // Gaussian
}

TEST(ProblemSetup, SyntheticLogisticPerAgentAndCompleteGraph) {
  ProblemDefaults defaults;
  defaults.data = "synthetic";
  defaults.per_agent = 100;
  defaults.synthetic_rows = 1000;
  defaults.graph = "complete";
  RunParameters params = RunParameters::from_assignments({"edges=1", "loss=hinge"});  // complete ignores edges
  Rng rng(4);
  const auto p = setup_problem(params, defaults, rng);
  EXPECT_EQ(p.agents(), 10);
  EXPECT_EQ(p.dim(), 14);
  for (const auto& f : p.locals) EXPECT_EQ(f.rows(), 100);
  EXPECT_EQ(p.graph.edges.size(), 45u);
  EXPECT_EQ(p.locals[0].data().name, "synthetic-logistic[agent 0]");
  EXPECT_LT(p.optimum.optimality_gap, 1e-10);
}

TEST(ProblemSetup, UserCsvFileWithHuberAndL1) {
  std::ostringstream csv;
  csv << "a,b,y\n";
  for (int i = 0; i < 40; ++i) csv << i % 7 << "," << (i * 13) % 11 << "," << (i % 3 == 0 ? 5 : 9) << "\n";
  const TempFile file("problem_setup.csv", csv.str());
  RunParameters params = RunParameters::from_assignments(
      {"data=" + file.path(), "loss=huber", "agents=4", "edges=3", "l1=0.01", "huber_delta=0.5"});
  Rng rng(5);
  const auto p = setup_problem(params, ProblemDefaults{}, rng);
  EXPECT_EQ(p.agents(), 4);
  EXPECT_EQ(p.graph.edges.size(), 3u);
  EXPECT_EQ(p.locals[0].huber_delta(), 0.5);
  EXPECT_TRUE(((p.locals[0].data().labels.array() == 1.0) || (p.locals[0].data().labels.array() == -1.0)).all());
  EXPECT_LT(p.optimum.optimality_gap, 1e-10);
}

TEST(ProblemSetup, ValidationErrorsNameKeyValueAndRange) {
  auto run = [](std::vector<std::string> sets) {
    RunParameters params = RunParameters::from_assignments(sets);
    Rng rng(1);
    setup_problem(params, ProblemDefaults{}, rng);
  };
  expect_input_error([&] { run({"agents=1"}); }, {"agents=1 is out of range", "[2, 100000]"});
  expect_input_error([&] { run({"agents=600"}); }, {"agents=600", "569 rows", "[2, 569]"});
  expect_input_error([&] { run({"agents=10", "per_agent=57"}); }, {"per_agent=57", "[0, 56]"});
  expect_input_error([&] { run({"edges=8"}); }, {"edges=8", "[9, 45]"});
  expect_input_error([&] { run({"edges=46"}); }, {"edges=46", "[9, 45]"});
  expect_input_error([&] { run({"graph=erdos-renyi", "edges=46"}); }, {"edges=46", "[1, 45]"});
  expect_input_error([&] { run({"graph=star"}); }, {"graph=star", "complete, ring, random, erdos-renyi"});
  expect_input_error([&] { run({"loss=cauchy"}); }, {"loss=cauchy", "logistic, hinge, squared, huber"});
  expect_input_error([&] { run({"loss=hinge", "l2=0"}); }, {"l2=0", "loss=hinge"});
  expect_input_error([&] { run({"l2=-1"}); }, {"l2=-1 is out of range"});
  expect_input_error([&] { run({"huber_delta=0"}); }, {"huber_delta=0", "(0, 1e+06]"});
  expect_input_error([&] { run({"data=iris"}); }, {"data=iris", "breast_cancer"});
  expect_input_error([&] { run({"data=/nonexistent/file.csv"}); }, {"/nonexistent/file.csv", "cannot open"});
  expect_input_error([&] { run({"data=synthetic", "synthetic_rows=1"}); }, {"synthetic_rows=1", "out of range"});
  expect_input_error([&] { run({"data=synthetic", "synthetic_rows=5", "agents=6"}); }, {"agents=6", "[2, 5]"});
  expect_input_error([&] { run({"data=synthetic", "synthetic_dim=0"}); }, {"synthetic_dim=0"});
}

}  // namespace
}  // namespace dpl::algorithms
