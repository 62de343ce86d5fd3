// SPDX-License-Identifier: Apache-2.0
// Canary-score audits of one run: the file formats, every method at a fixed threshold against independent values
// (mpmath for the one-run bound; jax_privacy's auditing.py, run side by side, for Clopper-Pearson, AUROC and TPR at
// FPR), the Bonferroni and split choices, the verdicts, and the command line.
#include "audit/canary_score_audit.h"

#include "accounting/errors.h"
#include "tests/algorithms/temp_file.h"
#include "tests/cli/run_binary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

namespace {

using namespace dpl::audit;

// 400 deterministic canaries: included iff (37 i mod 11) < 5, score (53 i mod 29) / 7 + 1.5 included.
std::vector<CanaryScore> deterministic() {
  std::vector<CanaryScore> v;
  for (int i = 0; i < 400; ++i) {
    const bool inc = (i * 37) % 11 < 5;
    v.push_back({((i * 53) % 29) / 7.0 + 1.5 * inc, inc});
  }
  return v;
}

std::string as_csv(const std::vector<CanaryScore>& v, bool header) {
  std::ostringstream s;
  s.precision(17);
  if (header) s << "score,included\n";
  for (const auto& c : v) s << c.score << "," << (c.included ? 1 : 0) << "\n";
  return s.str();
}

TEST(CanaryScores, CsvWithAndWithoutHeaderAndJsonLines) {
  const auto a = parse_canary_scores("score,included\n1.5,1\n-2,0\n", "f");
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].score, 1.5);
  EXPECT_TRUE(a[0].included);
  EXPECT_EQ(parse_canary_scores("1.5,1\n-2,0\n", "f").size(), 2u);
  const auto j = parse_canary_scores("{\"score\": 3, \"included\": true}\n{\"score\": -1e-3, \"included\": 0}\n", "f");
  ASSERT_EQ(j.size(), 2u);
  EXPECT_FALSE(j[1].included);
  EXPECT_THROW(parse_canary_scores("1,2\n2,0\n3,1\n", "f"), dpl::InputError);      // included = 2 (not the header)
  EXPECT_THROW(parse_canary_scores("1,1\nnan,0\n", "f"), dpl::InputError);         // non-finite
  EXPECT_THROW(parse_canary_scores("1,1\n2,1\n", "f"), dpl::InputError);           // nothing excluded
  EXPECT_THROW(parse_canary_scores("{\"score\": 1}\n", "f"), dpl::InputError);     // no included
  EXPECT_THROW(parse_canary_scores("1,1\n2,0\n3,0\n", "f", 2), dpl::InputError);   // over the limit
}

TEST(CanaryScoreAudit, FixedThresholdMatchesIndependentValues) {
  CanaryAuditOptions o;
  o.threshold = 3.0;
  o.choice = ThresholdChoice::fixed;
  const auto r = audit_canary_scores(deterministic(), o);
  EXPECT_EQ(r.guesses, 175u);
  EXPECT_EQ(r.correct, 113u);
  // mpmath, 50 digits: 0.3297947544748378629 (jax_privacy prints 0.32979474385, within its xtol 1e-6 below)
  EXPECT_LE(r.epsilon_lower, 0.3297947544748378629);
  EXPECT_GE(r.epsilon_lower, 0.3297947544748378629 - 1e-8);
  // jax_privacy's attack_auroc and tpr_at_given_fpr on the same scores
  EXPECT_NEAR(r.auroc, 0.8049281055626905, 1e-13);
  ASSERT_EQ(r.tpr_at_fpr.size(), 3u);
  EXPECT_NEAR(r.tpr_at_fpr[0].second, 0.36730601092896176, 1e-13);
  EXPECT_NEAR(r.tpr_at_fpr[1].second, 0.37797814207650277, 1e-13);
  EXPECT_NEAR(r.tpr_at_fpr[2].second, 0.47445949156569256, 1e-13);
  o.method = CanaryMethod::clopper_pearson;
  const auto cp = audit_canary_scores(deterministic(), o);
  // jax_privacy's epsilon_clopper_pearson with Explicit(3.0): 0.43673967551598036
  EXPECT_NEAR(cp.epsilon_lower, 0.43673967551598036, 1e-9);
  EXPECT_LE(cp.epsilon_lower, 0.43673967551598036);
}

TEST(CanaryScoreAudit, BonferroniSharesTheConfidenceOverTheGuessCountGridAndSplitIsSeeded) {
  CanaryAuditOptions o;
  o.method = CanaryMethod::clopper_pearson;
  const auto b = audit_canary_scores(deterministic(), o);
  EXPECT_EQ(b.family, 8u);  // k = 1, 2, 5, 10, 20, 50, 100, 200 <= 400
  EXPECT_NEAR(b.significance_each, 0.05 / 8, 1e-15);
  EXPECT_GT(b.epsilon_lower, 0.4);
  o.choice = ThresholdChoice::split;
  const auto s1 = audit_canary_scores(deterministic(), o), s2 = audit_canary_scores(deterministic(), o);
  EXPECT_EQ(s1.epsilon_lower, s2.epsilon_lower);
  EXPECT_EQ(s1.audited, 200u);
}

TEST(CanaryScoreAudit, VerdictsAgainstAClaim) {
  CanaryAuditOptions o;
  o.claimed_epsilon = 0.1;
  EXPECT_EQ(*audit_canary_scores(deterministic(), o).verdict, Verdict::violation);
  o.claimed_epsilon = 3.0;  // epsilon_lower 2.30, a perfect attack on these canaries would show 3.54
  EXPECT_EQ(*audit_canary_scores(deterministic(), o).verdict, Verdict::pass);
  o.claimed_epsilon = 50.0;  // no outcome of 400 canaries could show that much
  EXPECT_EQ(*audit_canary_scores(deterministic(), o).verdict, Verdict::inconclusive);
}

TEST(CanaryScoreAudit, ScoresIndependentOfInclusionGiveNoEvidence) {
  // Included canaries drawn independently of the scores: no method may certify epsilon > 0 (at 0.95, per method).
  std::vector<CanaryScore> v;
  for (int i = 0; i < 1000; ++i) v.push_back({static_cast<double>((i * 7919) % 1000), ((i * 104729) % 13) < 6});
  for (auto m : {CanaryMethod::one_run, CanaryMethod::clopper_pearson}) {
    CanaryAuditOptions o;
    o.method = m;
    EXPECT_LT(audit_canary_scores(v, o).epsilon_lower, 0.2) << to_string(m);
  }
}

TEST(CanaryScoreAuditCli, JsonAndVerdictExitCodes) {
  dpl::testing::TempFile f("canaries.csv", as_csv(deterministic(), true));
  auto r = dpl::testing::run_dpledger("--json audit --canary-scores " + f.path() + " --threshold 3");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["method"], "one-run");
  EXPECT_EQ(j["canaries"], 400);
  EXPECT_EQ(j["guesses"], 175);
  EXPECT_EQ(j["correct"], 113);
  EXPECT_TRUE(j.contains("auroc"));
  EXPECT_TRUE(j.contains("delta"));
  EXPECT_EQ(dpl::testing::run_dpledger("audit --canary-scores " + f.path() + " --epsilon 0.1").exit_code, 3);
  EXPECT_EQ(dpl::testing::run_dpledger("audit --canary-scores " + f.path() + " --epsilon 3").exit_code, 0);
  EXPECT_EQ(dpl::testing::run_dpledger("audit --canary-scores " + f.path() + " --epsilon 50").exit_code, 4);
  const auto bad = dpl::testing::run_dpledger("audit --canary-scores " + f.path() + " --method nope");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err.rfind("error:", 0), 0u);
  EXPECT_EQ(dpl::testing::run_dpledger("audit --canary-scores /nonexistent.csv").exit_code, 2);
  EXPECT_EQ(dpl::testing::run_dpledger("audit laplace:b=1 --method gdp").exit_code, 2);
}

}  // namespace
