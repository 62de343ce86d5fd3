// SPDX-License-Identifier: Apache-2.0
// The default text output is for people: aligned columns whatever the width of a value, echoed inputs as the
// decimals meant (0.3, 1e-5), one accountant line with the method under --verbose, and a note where a typed
// decimal that is not a double moves a printed bound's last digit. Each check has a twin it must tell apart.
#include "tests/cli/run_binary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
#include <vector>

namespace dpl::testing {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream s(text);
  for (std::string l; std::getline(s, l);) out.push_back(l);
  return out;
}

// Offsets where the columns of a line start (a column: text after two or more blanks, or the line's start).
std::vector<std::size_t> column_starts(const std::string& line) {
  std::vector<std::size_t> starts{0};
  for (std::size_t i = 2; i < line.size(); ++i)
    if (line[i] != ' ' && line[i - 1] == ' ' && line[i - 2] == ' ') starts.push_back(i);
  return starts;
}

// Every row from `first` to `last` (exclusive) starts its columns where the header line does.
void expect_aligned(const std::vector<std::string>& lines, std::size_t header, std::size_t end) {
  const auto want = column_starts(lines[header]);
  for (std::size_t i = header + 1; i < end; ++i) EXPECT_EQ(column_starts(lines[i]), want) << lines[i];
}

TEST(TextOutputCli, GammaGridEchoesTheGridPointsAndAlignsColumns) {
  const auto r = run_dpledger("gamma --omega 0.1:1:10 --beta 2:10:2 --shift 0.001");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("0.30000000000000004"), std::string::npos) << r.out;
  const auto lines = lines_of(r.out);
  ASSERT_GE(lines.size(), 22u);
  EXPECT_EQ(lines[0].rfind("omega", 0), 0u);
  EXPECT_EQ(lines[5].rfind("0.3 ", 0), 0u) << lines[5];
  expect_aligned(lines, 0, 21);
  const auto j = nlohmann::json::parse(run_dpledger("--json gamma --omega 0.1:1:10 --beta 2:10:2 --shift 0.001").out);
  EXPECT_EQ(j["points"][4]["omega"].get<double>(), 0.3);
  // The twin: the binary64 grid point the alignment and the echo must not show.
  EXPECT_NE(0.1 + (1.0 - 0.1) * 2 / 9, 0.3);
  EXPECT_NE(column_starts("0.30000000000000004 2  0.8"), column_starts("omega  beta  gamma"));
}

TEST(TextOutputCli, RunningBudgetTableIsAligned) {
  const auto r = run_dpledger("compose -m gaussian:sigma=1.1,q=0.01,steps=3000 -m laplace:b=100,steps=20 --delta 1e-5 "
                              "--running --every 1000");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = lines_of(r.out);
  std::size_t header = 0;
  while (header < lines.size() && lines[header].rfind("checkpoint", 0) != 0) ++header;
  ASSERT_LT(header, lines.size()) << r.out;
  std::size_t end = header + 1;
  while (end < lines.size() && !lines[end].empty() && std::isdigit(static_cast<unsigned char>(lines[end][0])) &&
         lines[end].find("not applicable") == std::string::npos)
    ++end;
  EXPECT_GE(end - header, 4u) << r.out;
  expect_aligned(lines, header, end);
  EXPECT_EQ(r.out.find("not applicable:"), std::string::npos) << r.out;  // the reasons only with --verbose
  const auto v = run_dpledger("--verbose compose -m gaussian:sigma=1.1,q=0.01,steps=3000 -m laplace:b=100,steps=20 "
                              "--delta 1e-5 --running --every 1000");
  EXPECT_NE(v.out.find("not applicable:"), std::string::npos) << v.out;
}

TEST(TextOutputCli, OneAccountantLineAndTheMethodUnderVerbose) {
  const std::string args = "compose -m pure:eps=0.1,steps=100 --delta 1e-5";
  const auto plain = run_dpledger(args), verbose = run_dpledger("--verbose " + args), after = run_dpledger(args + " -v");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(plain.out.find("\naccountant  optimal\n"), std::string::npos) << plain.out;
  EXPECT_EQ(plain.out.find("method"), std::string::npos) << plain.out;
  EXPECT_EQ(plain.out.find("Kairouz"), std::string::npos) << plain.out;
  EXPECT_NE(verbose.out.find("\nmethod      exact optimal homogeneous composition"), std::string::npos) << verbose.out;
  EXPECT_EQ(after.out, verbose.out);
  EXPECT_NE(plain.out.find("\ndelta       1e-5\n"), std::string::npos) << plain.out;  // the exponent as typed
}

// run: the accounted method (a long citation) only under --verbose; decimals as the JSON has them (1e-6, not 1e-06).
TEST(TextOutputCli, RunPrintsTheMethodUnderVerboseAndShortDecimals) {
  const std::string args = "run dp-sgd --set K=20";
  const auto plain = run_dpledger(args), verbose = run_dpledger("--verbose " + args);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(plain.out.find("\n  delta                        1e-6\n"), std::string::npos) << plain.out;
  EXPECT_EQ(plain.out.find("e-06"), std::string::npos) << plain.out;
  EXPECT_EQ(plain.out.find("  method  "), std::string::npos) << plain.out;
  EXPECT_NE(verbose.out.find("\n  method                       Renyi DP composed additively"), std::string::npos) << verbose.out;
}

TEST(TextOutputCli, TypedDecimalNoteOnlyWhereItMovesThePrintedBound) {
  // 0.1 is not a double: 100 of them sum to 10 exactly, but the bound is computed at the double above 0.1.
  const auto r = run_dpledger("compose -m pure:eps=0.1,steps=100 --delta 1e-5 --accountant basic");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("epsilon     10.0000000000001"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[9.99999999999999, 10.0000000000001]"), std::string::npos) << r.out;
  // The twin: 0.5 is a double, nothing to say.
  const auto exact = run_dpledger("compose -m pure:eps=0.5,steps=100 --delta 1e-5 --accountant basic");
  ASSERT_EQ(exact.exit_code, 0) << exact.err;
  EXPECT_NE(exact.out.find("epsilon     50 "), std::string::npos) << exact.out;
  EXPECT_EQ(exact.out.find("note"), std::string::npos) << exact.out;
}

}  // namespace
}  // namespace dpl::testing
