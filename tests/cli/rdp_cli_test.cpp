// SPDX-License-Identifier: Apache-2.0
// `dpledger rdp` and `compose --accountant rdp` from the command line.
#include "tests/cli/run_binary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace dpl::testing {
namespace {

TEST(RdpCli, AcceptanceValues) {
  auto r = run_dpledger("--json rdp -m gaussian:sigma=1.1,q=0.01 --orders 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["command"], "rdp");
  EXPECT_EQ(j["orders"][0].get<double>(), 2.0);
  const double v = j["rdp"][0].get<double>();
  EXPECT_GE(v, 1.285100816051610e-4);
  EXPECT_LE(v, 1.28510081605162e-4);

  r = run_dpledger("--json rdp -m iteration:sigma=1,sens=1,steps=10,index=1 --orders 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LE(nlohmann::json::parse(r.out)["rdp"][0].get<double>(), 0.1);

  r = run_dpledger("--json compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5 --accountant rdp");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["accountant"], "rdp");
  EXPECT_LE(j["epsilon"].get<double>(), 5.63199236868181);
  EXPECT_GT(j["order"].get<double>(), 1.0);
}

TEST(RdpCli, ExtremeInputsAnswerWithNumbers) {
  // sigma = 1e-160 once hung (the exact-rational printer took log10 of inf); sigma = 1e-300 gave
  // "epsilon":null. The JSON carries "inf" (a valid, weaker upper bound) where a double cannot hold the value.
  auto r = run_dpledger("--json rdp -m gaussian:sigma=1e-160 --orders 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["rdp"][0], "inf");
  r = run_dpledger("rdp -m gaussian:sigma=1e-160 --orders 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("1.00000000000001e+320"), std::string::npos) << r.out;  // 2/(2e-320) rounded up
  r = run_dpledger("--json compose -m gaussian:sigma=1e-300 --delta 1e-5 --accountant rdp");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["epsilon"], "inf");
  EXPECT_EQ(r.out.find("null"), std::string::npos) << r.out;
  // Orders up to 1e7 answer (above 2e4 the unsampled Gaussian bound alpha/(2 z^2)).
  r = run_dpledger("--json rdp -m gaussian:sigma=1.1,q=0.01 --orders 10000000,5000000,1.0000001");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_GE(j["rdp"][0].get<double>(), 1e7 / (2 * 1.1 * 1.1) * (1 - 1e-15));
  EXPECT_GT(j["rdp"][2].get<double>(), 0.0);
  // Two-sided DP-SGD: exact optimum over orders 5.63180966702 (converted at order 4.67).
  r = run_dpledger("--json compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5 --accountant rdp");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const double eps = nlohmann::json::parse(r.out)["epsilon"].get<double>();
  EXPECT_GE(eps, 5.63180966702);
  EXPECT_LE(eps, 5.63180966702 * (1 + 1e-10));
}

TEST(RdpCli, DefaultOrdersAndInfinity) {
  const auto r = run_dpledger("--json rdp -m laplace:b=2,steps=3");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["orders"].size(), j["rdp"].size());
  EXPECT_EQ(j["orders"].back(), "inf");
  EXPECT_DOUBLE_EQ(j["rdp"].back().get<double>(), 1.5);  // 3 steps of 1/b
  const auto g = nlohmann::json::parse(run_dpledger("--json rdp -m gaussian:sigma=1 --orders inf").out);
  EXPECT_EQ(g["rdp"][0], "inf");
}

TEST(RdpCli, BadOrdersExitTwo) {
  for (const char* args : {"rdp -m gaussian:sigma=1 --orders 1", "rdp -m gaussian:sigma=1 --orders 0.5",
                           "rdp -m gaussian:sigma=1 --orders nan", "rdp -m gaussian:sigma=1 --orders 2,,3",
                           "rdp -m approx:eps=1,delta=0.1 --orders 2",
                           "compose -m approx:eps=1,delta=0.1 --delta 0.2 --accountant rdp"}) {
    const auto r = run_dpledger(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_TRUE(r.out.empty()) << args;
    EXPECT_EQ(count_lines(r.err), 1) << args << r.err;
    EXPECT_EQ(r.err.rfind("error:", 0), 0u) << args << r.err;
  }
}

// --orders is capped (1000 orders, about 3 s of work): refused up front, in well under a second, exit 2 naming
// --orders; just inside both limits it answers. Before, 500 distinct entries at the default orders took 27 s.
TEST(RdpCli, OrdersAreCappedAndManyDistinctEntriesAreFast) {
  std::string many = "rdp -m gaussian:sigma=1.1,q=0.01 --orders 2";
  for (int i = 3; i <= 1002; ++i) many.append(",").append(std::to_string(i));
  std::string heavy = "rdp";
  for (int i = 0; i < 300; ++i) heavy.append(" -m gaussian:sigma=").append(std::to_string(1 + i * 0.01)).append(",q=0.01");
  std::string heavy_orders = heavy + " --orders 9000";
  for (int i = 1; i < 20; ++i) heavy_orders.append(",").append(std::to_string(9000 + i)).append(".5");
  for (const std::string& args : {many, heavy_orders}) {
    const auto r = run_dpledger(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("--orders"), std::string::npos) << r.err;
  }
  // 300 distinct subsampled Gaussians at the default orders (1.25 .. 1024, inf): answered, every value finite or inf.
  const auto r = run_dpledger("--json " + heavy);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["rdp"].size(), 28u);
}

}  // namespace
}  // namespace dpl::testing

namespace dpl::testing {
namespace {

TEST(PldCli, DpSgdAndBracket) {
  const auto r = run_dpledger("--json compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5 --accountant pld");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["accountant"], "pld");
  EXPECT_GE(j["epsilon"].get<double>(), 5.19258 - 5e-6);
  EXPECT_LE(j["epsilon"].get<double>(), 5.19258 + 1e-4);
  EXPECT_LE(j["epsilon_lower"].get<double>(), j["epsilon"].get<double>());
  // auto picks the tightest: PLD here.
  const auto a = nlohmann::json::parse(run_dpledger("--json compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5").out);
  EXPECT_EQ(a["accountant"], "pld");
}

TEST(PldCli, NotApplicableExitsTwo) {
  for (const char* args : {"compose -m iteration:sigma=1,steps=3 --delta 1e-5 --accountant pld",
                           "compose -m laplace:b=1,q=0.5 --delta 1e-5 --accountant pld"}) {
    const auto r = run_dpledger(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_TRUE(r.out.empty());
    EXPECT_EQ(r.err.rfind("error:", 0), 0u) << r.err;
  }
}

}  // namespace
}  // namespace dpl::testing
