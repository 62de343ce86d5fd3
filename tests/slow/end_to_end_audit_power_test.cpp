// SPDX-License-Identifier: Apache-2.0
// Power of the end-to-end algorithm audits (dpledger audit ALGORITHM on the algorithms whose audit executes the
// run on D and D'), as a user runs them, with the black-box distinguishing test ALONE carrying the verdict:
//  - at the audit configuration a correct run passes and every fault that applies (`--list-faults`), injected
//    into the run's own code, exits 3, each within 2 minutes of CPU;
//  - a clipping fault moves what the audit sees (the event counts) although the claim is unchanged;
//  - the false-violation rate of correct runs stays within 1 - C over 40 seeds for three algorithms (a binomial
//    bound, error stated), and its twin at half the noise is caught nearly every time.
#include "audit/algorithm_audit.h"
#include "tests/cli/run_binary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdio>
#include <thread>

namespace {

using dpl::testing::run_dpledger_with_limit;

// The faults --inject takes for `a` at a strength the default runs must catch.
std::vector<std::string> injected_faults(const std::string& a) {
  std::vector<std::string> v;
  for (const auto& f : dpl::audit::applicable_faults(a))
    v.push_back(f == "noise" ? "noise=0.5" : f == "clip" ? "clip=4" : f == "sensitivity" ? "sensitivity=3" : f);
  return v;
}

class EndToEndAudit : public ::testing::TestWithParam<std::string> {};

TEST_P(EndToEndAudit, DistinguishingAlonePassesCorrectAndCatchesEveryFault) {
  const std::string a = GetParam();
  const auto ok = run_dpledger_with_limit("--json audit " + a + " --test distinguishing --threads 1", 0, 120);
  ASSERT_EQ(ok.exit_code, 0) << a << "\n" << ok.out << ok.err;
  const auto j = nlohmann::json::parse(ok.out);
  EXPECT_LE(j["epsilon_claimed"].get<double>(), 2.5) << "the audit configuration's claim must be resolvable";
  for (const auto& f : injected_faults(a)) {
    const auto bad = run_dpledger_with_limit("--json audit " + a + " --test distinguishing --threads 1 --inject " + f, 0, 120);
    ASSERT_EQ(bad.exit_code, 3) << a << " --inject " << f << "\n" << bad.out << bad.err;
    const auto b = nlohmann::json::parse(bad.out);
    EXPECT_EQ(b["distinguishing"]["verdict"], "violation") << f;
    EXPECT_EQ(b["epsilon_claimed"], j["epsilon_claimed"]) << f << ": the claim must not move";
  }
}

INSTANTIATE_TEST_SUITE_P(Audits, EndToEndAudit, ::testing::ValuesIn(dpl::audit::auditable_algorithms()), [](const auto& test_param) {
  std::string s = test_param.param;
  for (char& c : s) c = c == '-' ? '_' : c;
  return s;
});

// The clipping fault changes the releases, so the counts of the same event move; the claim does not.
TEST(EndToEndAuditSees, ClipFaultMovesTheEventCounts) {
  dpl::audit::AlgorithmAuditPlan p;
  p.algorithm = "admm-centralized";
  p.runs = 1000;
  p.threads = 2;
  const auto correct = dpl::audit::algorithm_audit(p);
  p.faults.clip = 4;
  const auto faulty = dpl::audit::algorithm_audit(p);
  EXPECT_EQ(correct.claim_epsilon, faulty.claim_epsilon);
  EXPECT_NE(correct.records.stat_d, faulty.records.stat_d);
  // The statistic's mean separation between D and D' grows (the canary's releases move 4 times as far).
  auto separation = [](const dpl::audit::AlgorithmAuditResult& w) {
    double s = 0;
    const auto& r = w.records;
    for (std::size_t i = 0; i < r.stat_d.size(); ++i) s += r.stat_d[i] - r.stat_dprime[i];
    return s / static_cast<double>(r.stat_d.size());
  };
  EXPECT_GT(separation(faulty), 4 * separation(correct));
  EXPECT_NE(correct.k_p, faulty.k_p);
}

// The audits of `algorithm` at its default runs over 40 seeds (one thread each, two seeds at a time), the
// distinguishing test alone: how many are violations. Three of the cheapest audits (about 0.15 to 0.3 s of CPU
// each): the whole test runs 240 audits in about 50 s of CPU.
int violations_over_seeds(const std::string& algorithm, double noise) {
  std::atomic<int> violations{0};
  std::atomic<std::uint64_t> next{1};
  auto work = [&] {
    for (std::uint64_t seed; (seed = next.fetch_add(1)) <= 40;) {
      dpl::audit::AlgorithmAuditPlan p;
      p.algorithm = algorithm;
      p.seed = seed * 7919;
      p.threads = 1;
      p.noise_factor = noise;
      p.tests = dpl::audit::AuditTests::distinguishing;
      violations += dpl::audit::algorithm_audit(p).verdict == dpl::audit::Verdict::violation;
    }
  };
  std::thread other(work);
  work();
  other.join();
  std::printf("%s at noise x%g: %d violations of 40\n", algorithm.c_str(), noise, violations.load());
  return violations;
}

const char* const kFalseViolationAlgorithms[] = {"admm-random-aggregation", "dsgd-random-aggregation-minmax",
                                                 "wang-nedic"};

// Correct runs: each audit's chance of a false violation is at most 1 - C = 0.05 and the seeds' audits are
// independent, so each algorithm's count is at most Binomial(40, 0.05) in law; P[>= 7] = 0.0034, so this test
// fails on a correct implementation with probability below 0.011 (three algorithms, union bound).
TEST(EndToEndAuditSize, FalseViolationsOverFortySeedsStayWithinOneMinusC) {
  for (const char* a : kFalseViolationAlgorithms) EXPECT_LE(violations_over_seeds(a, 1), 6) << a;
}

// The twin: the same 40 seeds at half the noise are caught by the distinguishing test alone in at least 36 (an
// audit that caught half the noise with probability only 0.8 would pass this with probability
// P[Binomial(40, 0.8) >= 36] = 0.076).
TEST(EndToEndAuditSize, UnderNoisedTwinIsCaughtOverFortySeeds) {
  for (const char* a : kFalseViolationAlgorithms) EXPECT_GE(violations_over_seeds(a, 0.5), 36) << a;
}

}  // namespace
