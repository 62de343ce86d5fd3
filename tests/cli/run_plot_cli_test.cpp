// SPDX-License-Identifier: Apache-2.0
// `dpledger run ALGORITHM --plot FILE.svg`: a well-formed SVG with the utility panel and the running epsilon panel
// (accounted on the ledger prefix, claimed by the paper's formula where it has one), the running accounted epsilon
// non-decreasing and ending at the run's accounted epsilon; legends say when a figure is final-only or missing.
#include "tests/cli/run_binary.h"
#include "tests/cli/xml_well_formed.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace dpl::testing {
namespace {

struct PlotRun {
  RunResult run;
  nlohmann::json json;
  std::string svg;
};

PlotRun plot_run(const std::string& args, const std::string& file) {
  std::remove(file.c_str());
  PlotRun p{run_dpledger_with_limit("--json run " + args + " --plot " + file, 120), {}, {}};
  if (p.run.exit_code == 0) p.json = nlohmann::json::parse(p.run.out);
  p.svg = read_all(file);
  return p;
}

bool has_series(const nlohmann::json& j, const std::string& prefix) {
  for (const auto& s : j["plot"]["series"])
    if (s.get<std::string>().rfind(prefix, 0) == 0) return true;
  return false;
}

}  // namespace

TEST(RunPlotCli, WellFormednessCheckCatchesBrokenDocuments) {
  EXPECT_EQ(xml_well_formed_error("<svg a='1'><g><text>x &amp; y</text></g></svg>\n"), "");
  EXPECT_NE(xml_well_formed_error("<svg><g></svg>"), "");
  EXPECT_NE(xml_well_formed_error("<svg><text>a <= b</text></svg>"), "");
  EXPECT_NE(xml_well_formed_error("<svg a=1></svg>"), "");
  EXPECT_NE(xml_well_formed_error("<svg></svg><svg></svg>"), "");
}

TEST(RunPlotCli, CentralizedAdmmHasUtilityAccountedAndClaimedSeries) {
  const PlotRun p = plot_run("admm-centralized --seed 7 --set K=100", "/tmp/dpledger_run_plot_admm.svg");
  ASSERT_EQ(p.run.exit_code, 0) << p.run.err;
  EXPECT_EQ(xml_well_formed_error(p.svg), "");
  EXPECT_EQ(p.json["plot"]["panels"], nlohmann::json::array({"utility", "epsilon"}));
  for (const std::string name : {"F(x_t) - F*", "accounted: ", "claimed: paper at t"}) {
    EXPECT_TRUE(has_series(p.json, name)) << name;
    EXPECT_NE(p.svg.find(name), std::string::npos) << name;
  }
  const auto& running = p.json["plot"]["running_epsilon"];
  const auto& acc = running["accounted"];
  ASSERT_GE(acc.size(), 50u);
  EXPECT_EQ(acc[0].get<double>(), 0.0);  // nothing released yet
  for (std::size_t i = 1; i < acc.size(); ++i) EXPECT_LE(acc[i - 1].get<double>(), acc[i].get<double>()) << i;
  const double final_eps = p.json["privacy"]["accounted"]["epsilon"].get<double>();
  EXPECT_NEAR(acc.back().get<double>(), final_eps, 1e-6 * final_eps);
  // Claimed: Theorem 2 grows like the conversion of a linear RDP curve in t; ends at the run's claimed figure.
  const auto& claimed = running["claimed"];
  ASSERT_FALSE(claimed.empty());
  EXPECT_NEAR(claimed.back().get<double>(), p.json["privacy"]["claimed"]["epsilon"].get<double>(), 1e-12);
  EXPECT_LT(claimed.front().get<double>(), claimed.back().get<double>());
}

TEST(RunPlotCli, DecentralizedAdmmRunningEpsilonFollowsTheMostActiveUser) {
  const PlotRun p = plot_run("admm-decentralized --seed 7", "/tmp/dpledger_run_plot_dec.svg");
  ASSERT_EQ(p.run.exit_code, 0) << p.run.err;
  EXPECT_EQ(xml_well_formed_error(p.svg), "");
  const auto& acc = p.json["plot"]["running_epsilon"]["accounted"];
  ASSERT_FALSE(acc.empty());
  const double final_eps = p.json["privacy"]["accounted"]["epsilon"].get<double>();
  EXPECT_NEAR(acc.back().get<double>(), final_eps, 1e-6 * final_eps);
  // Halfway through, the busiest user has contributed about half as often: clearly below the final budget.
  EXPECT_LT(acc[acc.size() / 2].get<double>(), 0.9 * final_eps);
}

// Xiao's random aggregations (each release a Laplace coordinate) and the recycled ADMMs (a pure round per
// perturbed iteration) plot the accounted agent's running epsilon from its ledger prefix, ending at the headline
// (the worst agent's); Xiao's claim (sum of beta s) at every iteration, ending at the claimed total.
TEST(RunPlotCli, WorstAgentRunsPlotTheirLedgerPrefix) {
  for (const std::string args : {"admm-random-aggregation --seed 1 --set K=30", "dsgd-random-aggregation --seed 1",
                                 "dvp-admm --seed 7"}) {
    const PlotRun p = plot_run(args, "/tmp/dpledger_run_plot_worst.svg");
    ASSERT_EQ(p.run.exit_code, 0) << args << p.run.err;
    const auto& running = p.json["plot"]["running_epsilon"];
    const auto& acc = running["accounted"];
    ASSERT_GE(acc.size(), 3u) << args;
    EXPECT_EQ(acc[0].get<double>(), 0.0) << args;
    for (std::size_t i = 1; i < acc.size(); ++i) EXPECT_LE(acc[i - 1].get<double>(), acc[i].get<double>()) << args;
    const double final_eps = p.json["privacy"]["accounted"]["epsilon"].get<double>();
    EXPECT_NEAR(acc.back().get<double>(), final_eps, 1e-9 * final_eps) << args;
    // Releases every iteration: halfway, clearly below the total (DSGD's agents release once, at the first step).
    if (args.rfind("dsgd", 0) != 0) EXPECT_LT(acc[acc.size() / 2].get<double>(), 0.9 * final_eps) << args;
    const std::string agent = std::to_string(p.json["privacy"]["accounted"]["agent"].get<int>());
    EXPECT_NE(p.svg.find("ledger prefix of agent " + agent), std::string::npos) << args;
    if (args.rfind("dvp-admm", 0) == 0) continue;
    const auto& claimed = running["claimed"];
    ASSERT_FALSE(claimed.empty()) << args;
    EXPECT_NEAR(claimed.back().get<double>(), p.json["privacy"]["claimed"]["epsilon"].get<double>(),
                1e-9 * final_eps) << args;
  }
}

TEST(RunPlotCli, LegendsSayWhatIsMissing) {
  struct Case {
    std::string args;
    std::vector<std::string> series;
    std::vector<std::string> panels;
  };
  const std::vector<Case> cases{
      // DP-SGD: a ledger per step, no theorem of the paper.
      {"dp-sgd --seed 7 --set K=200", {"F(x_t) - F*", "accounted: rdp", "claimed: none"}, {"utility", "epsilon"}},
      // Seed 000's secret-sharing DGD: one Gaussian per round, composed by `auto` (the best of the accountants).
      {"dgd-secret-sharing --seed 7", {"F(x_t)", "accounted: best", "claimed: paper at t"}, {"utility", "epsilon"}},
      // A run accounted without a mechanism ledger: its final value marked, the paper's formula at t.
      {"dp-dda-node-sampling --seed 7 --set T=200", {"F(x_t)", "accounted (final)", "claimed: paper at t"},
       {"utility", "epsilon"}},
      // A pure formula claimed as a final value only, the worst agent's rounds accounted on their prefix.
      {"private-radmm --seed 7", {"F(x_t)", "accounted: best", "claimed (final)"}, {"utility", "epsilon"}},
      // No noise: the utility panel alone, saying epsilon is infinite.
      {"admm-centralized --seed 7 --set sigma=0", {"F(x_t) - F*", "epsilon: infinite"}, {"utility"}},
  };
  for (const auto& c : cases) {
    const PlotRun p = plot_run(c.args, "/tmp/dpledger_run_plot_case.svg");
    ASSERT_EQ(p.run.exit_code, 0) << c.args << p.run.err;
    EXPECT_EQ(xml_well_formed_error(p.svg), "") << c.args;
    EXPECT_EQ(p.json["plot"]["panels"], nlohmann::json(c.panels)) << c.args;
    for (const auto& name : c.series) {
      EXPECT_TRUE(has_series(p.json, name)) << c.args << ": " << name;
      // A series with nothing to draw has no legend entry (a legend names only what is drawn): the panel's title
      // says what is missing.
      const std::string said = name == "claimed: none"       ? "the paper claims none"
                               : name == "epsilon: infinite" ? "epsilon infinite: no noise"
                                                             : name;
      EXPECT_NE(p.svg.find(said), std::string::npos) << c.args << ": " << said;
      if (said != name) {
        EXPECT_EQ(p.svg.find(">" + name + "<"), std::string::npos) << c.args << ": " << name;
      }
    }
  }
}

TEST(RunPlotCli, BadPlotPathExitsTwoAndWritesNothing) {
  std::remove("/tmp/dpledger_run_plot_bad.png");
  const auto r = run_dpledger("run admm-centralized --plot /tmp/dpledger_run_plot_bad.png");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--plot"), std::string::npos);
  EXPECT_TRUE(read_all("/tmp/dpledger_run_plot_bad.png").empty());
  EXPECT_EQ(run_dpledger("run admm-centralized --parameters --plot /tmp/x.svg").exit_code, 2);
}

}  // namespace dpl::testing
