// SPDX-License-Identifier: Apache-2.0
// `dpledger sweep`: --list names a figure of every paper, a reduced sweep writes a CSV and a well-formed SVG with
// its bands, bad input exits 2 naming the option, and --help lists every figure with its keys.
#include "tests/cli/run_binary.h"
#include "tests/cli/xml_well_formed.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace dpl::testing {
namespace {

TEST(SweepCli, ListNamesAFigureOfEveryPaper) {
  const RunResult r = run_dpledger("sweep --list");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : {"xiao2019-fig2-1", "wang2022-fig1", "zhang2018-fig1", "zhang2018-fig2", "cyffers2023-fig1",
                        "liu2023-fig1", "liu2023-fig2", "liu2023-fig3", "liu2023-fig4", "liu2023-fig5"})
    EXPECT_NE(r.out.find(f), std::string::npos) << f;
  // Figures are named by citation: no internal short key is listed, though the former names still run.
  EXPECT_EQ(r.out.find("seed0"), std::string::npos) << r.out;
  EXPECT_EQ(run_dpledger("sweep seed004-fig3 --parameters").out, run_dpledger("sweep liu2023-fig3 --parameters").out);
  const RunResult help = run_dpledger("sweep --help");
  EXPECT_NE(help.out.find("keys: data=breast_cancer, T=1000"), std::string::npos) << help.out;
  const RunResult run_help = run_dpledger("run --help");
  EXPECT_NE(run_help.out.find("dp-dda-node-sampling"), std::string::npos);
  EXPECT_NE(run_help.out.find("admm-lasso"), std::string::npos);
  // run ALGORITHM --help: that algorithm's keys with their defaults and allowed values, as --parameters gives them.
  const RunResult one = run_dpledger("run dp-dda-node-sampling --help");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_NE(one.out.find("Keys (--set key=value"), std::string::npos) << one.out;
  EXPECT_EQ(one.out.find("admm-lasso"), std::string::npos) << one.out;  // only the algorithm asked for
  const RunResult params = run_dpledger("--json run dp-dda-node-sampling --parameters");
  ASSERT_EQ(params.exit_code, 0) << params.err;
  for (const char* key : {"\"T\"", "\"data\""}) EXPECT_NE(params.out.find(key), std::string::npos) << key;
  EXPECT_NE(one.out.find("\n  T "), std::string::npos) << one.out;
  EXPECT_NE(one.out.find("\n  data "), std::string::npos) << one.out;
  EXPECT_EQ(run_help.out.find("see the README"), std::string::npos);
}

TEST(SweepCli, ReducedSweepWritesCsvAndSvg) {
  const std::string dir = std::filesystem::temp_directory_path() / ("dpl_sweep_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const RunResult r = run_dpledger("--json sweep liu2023-fig2 --seeds 2 --set T=40 --csv " + dir + "/f.csv --svg " +
                                   dir + "/f.svg");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"figure\":\"liu2023-fig2\""), std::string::npos);
  const std::string csv = dpl::testing::without_provenance(read_all(dir + "/f.csv"));
  EXPECT_EQ(csv.rfind("panel,curve,x,mean,sd,seeds\n", 0), 0u);
  const std::string svg = read_all(dir + "/f.svg");
  EXPECT_EQ(xml_well_formed_error(svg), "");
  EXPECT_NE(svg.find("fill-opacity='0.18'"), std::string::npos);  // the bands over seeds
  std::filesystem::remove_all(dir);
}

TEST(SweepCli, BadInputExitsTwo) {
  EXPECT_EQ(run_dpledger("sweep seed009-fig1").exit_code, 2);
  EXPECT_EQ(run_dpledger("sweep liu2023-fig1 --seeds 0").exit_code, 2);
  EXPECT_EQ(run_dpledger("sweep liu2023-fig1 --set T=5").exit_code, 2);
  EXPECT_EQ(run_dpledger("sweep liu2023-fig1 --set colour=red").exit_code, 2);
  const RunResult r = run_dpledger("sweep liu2023-fig1 --svg x.png");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--svg"), std::string::npos);
}

}  // namespace
}  // namespace dpl::testing
