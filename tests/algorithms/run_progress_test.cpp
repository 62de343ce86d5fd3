// SPDX-License-Identifier: Apache-2.0
// Progress of `dpledger run`: every algorithm reports non-decreasing fractions in [0, 1] ending at
// exactly 1, about once per percent, and its result is identical with and without a progress callback.
#include "algorithms/run/algorithm_registry.h"
#include "algorithms/run/run_progress.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dpl::algorithms {
namespace {

struct Call {
  double fraction;
  std::string detail;
};

Json matrix_json(const Eigen::MatrixXd& m) {
  Json rows = Json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    Json row = Json::array();
    for (Eigen::Index l = 0; l < m.cols(); ++l) row.push_back(m(i, l));
    rows.push_back(std::move(row));
  }
  return rows;
}

// Everything a run returns, as JSON (every double printed round-trip exactly; NaN as null on both sides).
std::string everything(const RunResult& r) {
  Json trace = Json::array();
  for (const auto& t : r.trace)
    trace.push_back(Json{{"iteration", t.iteration}, {"states", matrix_json(t.states)},
                         {"messages", matrix_json(t.messages)}, {"objective", t.objective},
                         {"consensus_error", t.consensus_error}, {"ledger_steps", t.ledger_steps},
                         {"claimed_epsilon", t.claimed_epsilon}});
  return Json{{"algorithm", r.algorithm}, {"parameters", r.parameters}, {"iterations", r.iterations},
              {"output", matrix_json(r.output)}, {"objective", r.objective}, {"optimum", r.optimum},
              {"suboptimality", r.suboptimality}, {"claimed", r.claimed}, {"accounted", r.accounted},
              {"mechanisms", r.mechanisms}, {"ledger_not_expressible", r.ledger_not_expressible},
              {"extra", r.extra}, {"trace", trace}}
      .dump();
}

RunResult run(const std::string& algorithm, const std::vector<std::string>& sets, const ProgressCallback& progress) {
  RunParameters p = RunParameters::from_assignments(sets);
  return find_algorithm(algorithm).run(p, 5, progress);
}

void expect_progress(const std::string& algorithm, const std::vector<std::string>& sets) {
  SCOPED_TRACE(algorithm + (sets.empty() ? "" : " " + sets.front()));
  std::vector<Call> calls;
  const RunResult with = run(algorithm, sets, [&](double f, const std::string& d) { calls.push_back({f, d}); });
  ASSERT_GE(calls.size(), 3u) << "a start, some progress and the end";
  for (std::size_t i = 0; i < calls.size(); ++i) {
    EXPECT_GE(calls[i].fraction, 0.0) << i << " " << calls[i].detail;
    EXPECT_LE(calls[i].fraction, 1.0) << i << " " << calls[i].detail;
    if (i > 0) {
      EXPECT_GE(calls[i].fraction, calls[i - 1].fraction) << i << " " << calls[i].detail;
    }
  }
  EXPECT_EQ(calls.back().fraction, 1.0);
  EXPECT_EQ(calls.back().detail, "done");
  std::size_t ones = 0;
  for (const auto& c : calls) ones += c.fraction == 1.0;
  EXPECT_EQ(ones, 1u) << "1 is reported once, at the end";
  // About once per percent (plus a call per phase and per 250 ms of a slow percent): these runs take < 2 s.
  EXPECT_LE(calls.size(), 130u);
  // The callback changes nothing in the result.
  EXPECT_EQ(everything(with), everything(run(algorithm, sets, {})));
}

TEST(RunProgress, EveryAlgorithmReportsMonotoneFractionsEndingAtOne) {
  // Defaults, shortened where a run takes over half a second.
  const std::map<std::string, std::vector<std::string>> sets{
      {"admm-random-aggregation", {"K=20"}},
      {"dsgd-random-aggregation-minmax", {"K=20", "gamma=bound"}},
      {"wang-nedic", {"K=500"}}};
  for (const auto& e : algorithm_entries()) {
    const auto it = sets.find(e.name);
    expect_progress(e.name, it == sets.end() ? std::vector<std::string>{} : it->second);
  }
}

TEST(RunProgress, RunsWithoutNoiseOrAccountingEndAtOneToo) {
  // The early returns of the runs (no ledger to account).
  for (const std::string a : {"admm-random-aggregation", "dsgd-random-aggregation", "dsgd-random-aggregation-minmax",
                              "dgd-secret-sharing", "private-radmm", "dvp-admm", "dp-dda-node-sampling"})
    expect_progress(a, {"noise=off"});
  expect_progress("wang-nedic", {"noise=off", "audit=off", "K=500"});
  expect_progress("dp-sgd", {"sigma=0"});
  expect_progress("dp-sgd", {"account=off"});
  expect_progress("dp-cd", {"sigma=0"});
  expect_progress("admm-centralized", {"sigma=0"});
}

TEST(RunProgress, ThrottlesToAboutOneCallPerPercent) {
  std::vector<Call> calls;
  RunProgress bar([&](double f, const std::string& d) { calls.push_back({f, d}); });
  ASSERT_TRUE(bar.enabled());
  bar.phase(0, 0.5, "iteration");
  for (int k = 1; k <= 1'000'000; ++k) bar.step(k, 1'000'000);
  bar.phase(0.5, 1, "ledger");
  const ProgressCallback library = bar.phase_callback();
  for (int k = 0; k <= 100'000; ++k) library(k / 1e5, "entry " + std::to_string(k));
  bar.finish();
  // 50 + 50 percents, two phase starts, the end; a few more if a percent took 250 ms on a loaded machine.
  EXPECT_GE(calls.size(), 100u);
  EXPECT_LE(calls.size(), 115u);
  EXPECT_EQ(calls.front().detail, "iteration");
  EXPECT_NEAR(calls[calls.size() / 4].fraction, 0.25, 0.05);
  EXPECT_EQ(calls[calls.size() / 4].detail.rfind("iteration ", 0), 0u) << calls[calls.size() / 4].detail;
  EXPECT_EQ(calls[3 * calls.size() / 4].detail.rfind("ledger: entry ", 0), 0u) << calls[3 * calls.size() / 4].detail;
  EXPECT_EQ(calls.back().fraction, 1.0);
}

TEST(RunProgress, FractionsNeverGoBack) {
  std::vector<double> seen;
  RunProgress bar([&](double f, const std::string&) { seen.push_back(f); });
  bar.phase(0, 0.6, "a");
  bar.step(5, 10);                       // 0.3
  bar.phase(0.2, 0.4, "b");              // a phase starting below what was reported
  bar.step(1, 2);                        // 0.3 at most
  const ProgressCallback lib = bar.phase_callback();
  lib(-1, "unknown");                    // calibrate's "fraction unknown"
  lib(std::nan(""), "nan");
  lib(7, "beyond the phase");            // clamped to its end
  bar.finish();
  ASSERT_GE(seen.size(), 3u);
  for (std::size_t i = 1; i < seen.size(); ++i) EXPECT_GE(seen[i], seen[i - 1]) << i;
  for (double f : seen) {
    EXPECT_GE(f, 0.0);
    EXPECT_LE(f, 1.0);
  }
  EXPECT_EQ(seen.back(), 1.0);
}

TEST(RunProgress, EmptyCallbackCostsNothing) {
  RunProgress bar{ProgressCallback()};
  EXPECT_FALSE(bar.enabled());
  EXPECT_FALSE(static_cast<bool>(bar.phase_callback()));
  bar.phase(0, 1, "iteration");
  for (int k = 0; k < 10; ++k) bar.step(k, 10);
  bar.finish();  // nothing to call, nothing thrown
}

}  // namespace
}  // namespace dpl::algorithms
