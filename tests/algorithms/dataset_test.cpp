// SPDX-License-Identifier: Apache-2.0
// Data sets: CSV / LibSVM readers on small temporary files (every malformed case names the file and line), the
// shipped breast-cancer set, preprocessing, the split across agents (RapidCheck), the synthetic generators.
#include "algorithms/data/dataset.h"

#include "accounting/errors.h"
#include "tests/algorithms/expect_input_error.h"
#include "tests/algorithms/temp_file.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <set>

namespace dpl::algorithms {
namespace {

using dpl::testing::expect_input_error;
using dpl::testing::TempFile;

TEST(ReadCsv, ReadsHeaderAndLabelColumn) {
  TempFile f("ok.csv", "a,b,label\n1,2,0\n3.5,-4e1,1\n\n5,6,1\n");
  const Dataset d = read_csv(f.path());
  ASSERT_EQ(d.rows(), 3);
  ASSERT_EQ(d.dim(), 2);
  EXPECT_EQ(d.features(1, 0), 3.5);
  EXPECT_EQ(d.features(1, 1), -40.0);
  EXPECT_EQ(d.labels(0), 0.0);
  EXPECT_EQ(d.labels(2), 1.0);
  const Dataset first = read_csv(f.path(), 0);
  EXPECT_EQ(first.labels(1), 3.5);
  EXPECT_EQ(first.features(1, 0), -40.0);
  EXPECT_EQ(first.features(1, 1), 1.0);
}

TEST(ReadCsv, NoHeaderIsData) {
  TempFile f("nohdr.csv", " 1 , 2\n3,4\r\n");
  const Dataset d = read_csv(f.path());
  ASSERT_EQ(d.rows(), 2);
  EXPECT_EQ(d.features(0, 0), 1.0);
  EXPECT_EQ(d.labels(1), 4.0);
}

TEST(ReadCsv, MalformedFilesNameFileLineAndProblem) {
  expect_input_error([] { read_csv("/nonexistent/dir/x.csv"); }, {"/nonexistent/dir/x.csv", "cannot open"});
  {
    TempFile f("bad_cell.csv", "a,b\n1,2\n3,x\n");
    expect_input_error([&] { read_csv(f.path()); }, {f.path(), "line 3", "'x'", "not a finite number"});
  }
  {
    TempFile f("nan.csv", "1,2\nnan,2\n");
    expect_input_error([&] { read_csv(f.path()); }, {"line 2", "'nan'"});
  }
  {
    TempFile f("empty_cell.csv", "1,2\n1,\n");
    expect_input_error([&] { read_csv(f.path()); }, {"line 2", "cell 2"});
  }
  {
    TempFile f("ragged.csv", "a,b,c\n1,2,3\n4,5\n");
    expect_input_error([&] { read_csv(f.path()); }, {f.path(), "line 3", "ragged", "2 cells, expected 3"});
  }
  {
    TempFile f("empty.csv", "");
    expect_input_error([&] { read_csv(f.path()); }, {f.path(), "no data rows"});
  }
  {
    TempFile f("header_only.csv", "a,b\n\n");
    expect_input_error([&] { read_csv(f.path()); }, {"no data rows"});
  }
  {
    TempFile f("one_col.csv", "1\n2\n");
    expect_input_error([&] { read_csv(f.path()); }, {"at least 2 columns"});
  }
  {
    TempFile f("label.csv", "1,2\n3,4\n");
    expect_input_error([&] { read_csv(f.path(), 2); }, {"label column 2", "[0, 1]"});
    expect_input_error([&] { read_csv(f.path(), -2); }, {"label column -2"});
  }
}

TEST(ReadLibsvm, ReadsSparseRowsWithMinDim) {
  TempFile f("ok.svm", "# comment\n+1 1:0.5 3:2\n-1 2:1e-1  # trailing\n\n0\n");
  const Dataset d = read_libsvm(f.path());
  ASSERT_EQ(d.rows(), 3);
  ASSERT_EQ(d.dim(), 3);
  EXPECT_EQ(d.features(0, 0), 0.5);
  EXPECT_EQ(d.features(0, 1), 0.0);
  EXPECT_EQ(d.features(0, 2), 2.0);
  EXPECT_EQ(d.features(1, 1), 0.1);
  EXPECT_EQ(d.labels(1), -1.0);
  EXPECT_EQ(d.features.row(2).norm(), 0.0);
  EXPECT_EQ(read_libsvm(f.path(), 7).dim(), 7);
}

TEST(ReadLibsvm, MalformedLinesNameFileLineAndProblem) {
  expect_input_error([] { read_libsvm("/nonexistent/y.svm"); }, {"/nonexistent/y.svm", "cannot open"});
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"1 1:1\nabc 1:2\n", {"line 2", "label 'abc'"}},
      {"1 1:1\n1 3\n", {"line 2", "'3' is not of the form index:value"}},
      {"1 2:1 2:3\n", {"line 1", "not increasing"}},
      {"1 3:1 2:3\n", {"line 1", "index 2 is not increasing"}},
      {"1 0:1\n", {"line 1", "index '0'"}},
      {"1 1.5:1\n", {"line 1", "index '1.5'"}},
      {"1 1:x\n", {"line 1", "value 'x'"}},
      {"", {"no data rows"}},
      {"1\n-1\n", {"no features"}},
  };
  int k = 0;
  for (const auto& [content, fragments] : cases) {
    TempFile f("bad" + std::to_string(k++) + ".svm", content);
    auto all = fragments;
    all.push_back(f.path());
    expect_input_error([&] { read_libsvm(f.path()); }, all);
  }
}

TEST(LoadDataset, ShippedBreastCancer) {
  const Dataset d = load_shipped("breast_cancer");
  ASSERT_EQ(d.rows(), 569);
  ASSERT_EQ(d.dim(), 30);
  EXPECT_EQ(d.name, "breast_cancer");
  EXPECT_EQ(d.features(0, 0), 17.99);  // first row, mean radius (UCI WDBC record 842302)
  EXPECT_EQ(d.features(0, 29), 0.1189);
  EXPECT_EQ((d.labels.array() == 0.0).count(), 212);  // 212 malignant (0), 357 benign (1)
  EXPECT_EQ((d.labels.array() == 1.0).count(), 357);
  EXPECT_EQ(load_dataset("breast_cancer").rows(), 569);
  EXPECT_EQ(load_dataset(std::string(DPLEDGER_DATA_DIR) + "/breast_cancer.csv").rows(), 569);
  expect_input_error([] { load_shipped("iris"); }, {"data=iris", "breast_cancer"});
  expect_input_error([] { load_dataset("x.parquet"); }, {"data=x.parquet", ".csv"});
}

// A shipped set is parsed once per process and copied out: a later load equals the file's contents even after an
// earlier copy was changed, and digits keeps its binarised labels.
TEST(LoadDataset, ShippedSetsAreCopiesOfOneParse) {
  Dataset first = load_shipped("breast_cancer");
  first.features(0, 0) = -1;
  first.labels(0) = 7;
  const Dataset again = load_shipped("breast_cancer");
  EXPECT_EQ(again.features(0, 0), 17.99);
  EXPECT_EQ(again.labels(0), 0.0);
  EXPECT_EQ(again.features, load_dataset(std::string(DPLEDGER_DATA_DIR) + "/breast_cancer.csv").features);
  for (int t = 0; t < 2; ++t) {
    const Dataset d = load_shipped("digits");
    EXPECT_EQ(d.rows(), 1797);
    EXPECT_EQ((d.labels.array() == 0.0).count() + (d.labels.array() == 1.0).count(), 1797);
  }
}

TEST(LoadDataset, LibsvmByExtension) {
  TempFile f("ext.libsvm", "1 2:3\n");
  EXPECT_EQ(load_dataset(f.path()).dim(), 2);
}

TEST(Preprocess, ScalesToUnitRowsInTheUnitCubeAndMapsLabels) {
  const Dataset p = preprocess(load_shipped("breast_cancer"));
  EXPECT_GE(p.features.minCoeff(), 0.0);
  EXPECT_LE(p.features.maxCoeff(), 1.0);
  for (int r = 0; r < p.rows(); ++r) EXPECT_NEAR(p.features.row(r).norm(), 1.0, 1e-14);
  EXPECT_EQ((p.labels.array() == 1.0).count(), 357);  // larger raw label (1, benign) -> +1
  EXPECT_EQ((p.labels.array() == -1.0).count(), 212);
}

TEST(Preprocess, ConstantColumnsZeroAndNonBinaryLabelsRejected) {
  Dataset raw;
  raw.name = "toy";
  raw.features.resize(3, 2);
  raw.features << 5, 1, 5, 3, 5, 2;
  raw.labels.resize(3);
  raw.labels << 2, 7, 2;
  const Dataset p = preprocess(raw);
  EXPECT_EQ(p.features.col(0).norm(), 0.0);
  EXPECT_EQ(p.features(0, 1), 0.0);  // the column minimum: the row is all zero, left as is
  EXPECT_EQ(p.features(1, 1), 1.0);
  EXPECT_EQ(p.features(2, 1), 1.0);  // 0.5 scaled to a unit row
  EXPECT_EQ(p.labels(0), -1.0);
  EXPECT_EQ(p.labels(1), 1.0);
  raw.labels << 1, 2, 3;
  expect_input_error([&] { preprocess(raw); }, {"toy", "3 distinct values", "exactly 2"});
  const Dataset kept = preprocess(raw, false);
  EXPECT_EQ(kept.labels(2), 3.0);
}

Dataset indexed(int n) {
  Dataset d;
  d.name = "idx";
  d.features.resize(n, 2);
  d.labels.resize(n);
  for (int i = 0; i < n; ++i) {
    d.features(i, 0) = i;
    d.features(i, 1) = -i;
    d.labels(i) = i;
  }
  return d;
}

RC_GTEST_PROP(SplitAcrossAgents, EvenSizesCoverEveryRowOnce, ()) {
  const int n = *rc::gen::inRange(1, 300);
  const int agents = *rc::gen::inRange(1, n + 1);
  Rng rng(*rc::gen::arbitrary<std::uint64_t>());
  const auto parts = split_across_agents(indexed(n), agents, rng);
  RC_ASSERT(static_cast<int>(parts.size()) == agents);
  int lo = n, hi = 0;
  std::multiset<int> seen;
  for (const auto& p : parts) {
    lo = std::min(lo, p.rows());
    hi = std::max(hi, p.rows());
    for (int r = 0; r < p.rows(); ++r) {
      RC_ASSERT(p.labels(r) == p.features(r, 0));  // rows move with their labels
      RC_ASSERT(p.features(r, 1) == -p.features(r, 0));
      seen.insert(static_cast<int>(p.labels(r)));
    }
  }
  RC_ASSERT(hi - lo <= 1);
  RC_ASSERT(static_cast<int>(seen.size()) == n);
  for (int i = 0; i < n; ++i) RC_ASSERT(seen.count(i) == 1u);
}

RC_GTEST_PROP(SplitAcrossAgents, PerAgentRowsAreDistinct, ()) {
  const int n = *rc::gen::inRange(2, 300);
  const int agents = *rc::gen::inRange(1, n + 1);
  const int per = *rc::gen::inRange(1, n / agents + 1);
  Rng rng(*rc::gen::arbitrary<std::uint64_t>());
  const auto parts = split_across_agents(indexed(n), agents, rng, per);
  std::set<int> seen;
  for (const auto& p : parts) {
    RC_ASSERT(p.rows() == per);
    for (int r = 0; r < p.rows(); ++r) seen.insert(static_cast<int>(p.labels(r)));
  }
  RC_ASSERT(static_cast<int>(seen.size()) == agents * per);
}

TEST(SplitAcrossAgents, RejectsTooManyAgentsOrRows) {
  Rng rng(1);
  expect_input_error([&] { split_across_agents(indexed(5), 6, rng); }, {"agents=6", "[1, 5]"});
  expect_input_error([&] { split_across_agents(indexed(5), 0, rng); }, {"agents=0"});
  expect_input_error([&] { split_across_agents(indexed(10), 3, rng, 4); }, {"per_agent=4", "[0, 3]"});
}

TEST(Synthetic, LogisticDataFollowTheConventions) {
  Rng rng(5);
  const Dataset d = synthetic_logistic(500, 14, rng);
  ASSERT_EQ(d.rows(), 500);
  ASSERT_EQ(d.dim(), 14);
  EXPECT_GE(d.features.minCoeff(), 0.0);
  EXPECT_LE(d.features.maxCoeff(), 1.0);
  for (int r = 0; r < d.rows(); ++r) EXPECT_NEAR(d.features.row(r).norm(), 1.0, 1e-14);
  EXPECT_TRUE(((d.labels.array() == 1.0) || (d.labels.array() == -1.0)).all());
  EXPECT_GT((d.labels.array() == 1.0).count(), 0);
  EXPECT_GT((d.labels.array() == -1.0).count(), 0);
  Rng again(5);
  EXPECT_EQ(synthetic_logistic(500, 14, again).features, d.features);
  EXPECT_THROW(synthetic_logistic(0, 3, rng), InputError);
}

TEST(Synthetic, RegressionNoiseHasUnitVariance) {
  Rng rng(6);
  const Dataset d = synthetic_regression(20000, 4, rng);
  // Least squares residual variance estimates the noise variance 1 (sd of the estimate ~ sqrt(2/n) = 0.01).
  const Eigen::VectorXd theta = d.features.colPivHouseholderQr().solve(d.labels);
  const double s2 = (d.labels - d.features * theta).squaredNorm() / (d.rows() - d.dim());
  EXPECT_NEAR(s2, 1.0, 0.05);
  EXPECT_THROW(synthetic_regression(5, 0, rng), InputError);
}

}  // namespace
}  // namespace dpl::algorithms
