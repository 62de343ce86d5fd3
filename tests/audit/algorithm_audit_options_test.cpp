// SPDX-License-Identifier: Apache-2.0
// `dpledger audit ALGORITHM`'s options for the end-to-end audits: --list-faults, --inject (what applies where, one
// `error:` line and exit 2 for a bad fault), --test (which test carries the verdict, said in the verdict line, no
// dangling ';'), --claim paper (the paper's printed figure, a violation naming the theorem), the audit line saying
// that the audit is end to end.
#include "audit/algorithm_audit.h"
#include "tests/cli/run_binary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace dpl::testing {
namespace {

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

TEST(AlgorithmAuditOptions, ListFaultsNamesWhatTheCodeTakes) {
  const auto e2e = run_dpledger("audit --list-faults dp-sgd");
  ASSERT_EQ(e2e.exit_code, 0) << e2e.err;
  EXPECT_EQ(e2e.out, "noise=F\nclip=F\nsensitivity=F\nunsampled\nreuse-noise\n");
}

TEST(AlgorithmAuditOptions, BadFaultsExitTwoOrNotApplicable) {
  for (const char* bad : {"--inject clip=0", "--inject clip=x", "--inject bogus=2", "--inject unsampled=1", "--test white",
                          "--claim printed"}) {
    const auto r = run_dpledger(std::string("audit admm-centralized --runs 8 ") + bad);
    EXPECT_EQ(r.exit_code, 2) << bad << "\n" << r.out << r.err;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << bad << ": " << r.err;
  }
  // A fault the algorithm's code cannot take: refused, naming those that apply.
  const auto na = run_dpledger("audit admm-centralized --runs 8 --inject unsampled");
  EXPECT_NE(na.exit_code, 0);
  EXPECT_NE(na.err.find("noise, clip, sensitivity"), std::string::npos) << na.err;
}

TEST(AlgorithmAuditOptions, PaperClaimIsRefutedNamingTheTheorem) {
  const auto r = run_dpledger("audit admm-centralized --claim paper --test distinguishing --threads 2");
  ASSERT_EQ(r.exit_code, 3) << r.out << r.err;
  const std::string verdict = first_line(r.out);
  EXPECT_NE(verdict.find("distinguishing test"), std::string::npos) << verdict;
  EXPECT_NE(verdict.find("Theorem 2"), std::string::npos) << verdict;
  EXPECT_NE(verdict.back(), ';') << verdict;
  EXPECT_NE(r.out.find("audit            end to end"), std::string::npos) << r.out;
}

TEST(AlgorithmAuditOptions, VerdictNamesTheTestThatFired) {
  const auto r = run_dpledger("audit admm-centralized --runs 400 --threads 2 --test noise --inject noise=0.5");
  ASSERT_EQ(r.exit_code, 3) << r.out << r.err;
  const std::string verdict = first_line(r.out);
  EXPECT_NE(verdict.find("white-box noise check"), std::string::npos) << verdict;
  EXPECT_EQ(verdict.find("distinguishing"), std::string::npos) << verdict;
  EXPECT_EQ(verdict.back(), ')') << verdict;
}

}  // namespace
}  // namespace dpl::testing
