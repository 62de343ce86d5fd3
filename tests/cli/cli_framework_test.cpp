// SPDX-License-Identifier: Apache-2.0
// The command-line contract common to every command: --version, --help, --json placement, exit codes and the
// one-line `error:` message for bad input with nothing on stdout.
#include "tests/cli/run_binary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace dpl::testing {
namespace {

TEST(CliFramework, VersionAndHelp) {
  const auto v = run_dpledger("--version");
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_NE(v.out.find("dpledger 0.1.0"), std::string::npos);
  const auto h = run_dpledger("--help");
  EXPECT_EQ(h.exit_code, 0);
  EXPECT_NE(h.out.find("compose"), std::string::npos);
  const auto ch = run_dpledger("compose --help");
  EXPECT_EQ(ch.exit_code, 0);
  EXPECT_NE(ch.out.find("--accountant"), std::string::npos);
  EXPECT_NE(ch.out.find("--delta"), std::string::npos);
}

TEST(CliFramework, JsonBeforeOrAfterCommand) {
  for (const char* args : {"--json compose -m pure:eps=0.5,steps=4 --delta 0",
                           "compose -m pure:eps=0.5,steps=4 --delta 0 --json"}) {
    const auto r = run_dpledger(args);
    ASSERT_EQ(r.exit_code, 0) << args << r.err;
    EXPECT_EQ(count_lines(r.out), 1);
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["command"], "compose");
    EXPECT_DOUBLE_EQ(j["epsilon"].get<double>(), 2.0);
    EXPECT_EQ(j["mechanisms"][0]["steps"], 4);
  }
}

TEST(CliFramework, BadInputExitsTwoWithOneErrorLine) {
  for (const char* args :
       {"", "frobnicate", "compose", "compose -m pure:eps=1", "compose -m pure:eps=1 --delta 1e-5 --epsilon 1",
        "compose -m pure:eps=1 --delta -0.1", "compose -m pure:eps=1 --delta 1", "compose -m pure:eps=1 --delta nan",
        "compose -m pure:eps=1 --epsilon inf", "compose -m pure:eps=1 --delta abc",
        "compose -m pure:eps=1 --delta 1e-5 --accountant bogus", "compose -m pure:eps=0 --delta 1e-5",
        "compose -m 'gaussian:sigma=1,q=2' --delta 1e-5", "compose -m gaussian:sigma=1 --delta 1e-5 --accountant pure",
        "compose -m pure:eps=1 --delta 1e-5 --bogus"}) {
    const auto r = run_dpledger(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_TRUE(r.out.empty()) << args << ": " << r.out;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << args << ": " << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << args << ": " << r.err;
  }
}

TEST(CliFramework, PureCompositionIsRoundedUp) {
  // 100 x binary64(0.1) = 10.000000000000000555...: an upper bound prints rounded up.
  const auto r = run_dpledger("compose -m pure:eps=0.1,steps=100 --delta 0 --accountant pure");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("10.0000000000001"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace dpl::testing
