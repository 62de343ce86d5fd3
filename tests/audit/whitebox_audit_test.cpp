// White-box audits: seed 000's Algorithm 1 runs have exact per-run losses within their own worst-case claims,
// a realised gamma in (0, 1), a Monte Carlo delta(eps) that falls to 0 at the largest claim; the figures do not
// depend on the thread count; algorithms without a known density and bad runs are refused.
#include "audit/whitebox_audit.h"

#include "accounting/errors.h"

#include <gtest/gtest.h>

namespace dpl::audit {
namespace {

WhiteBoxPlan plan(const std::string& algorithm, std::uint64_t runs, unsigned threads) {
  WhiteBoxPlan p;
  p.algorithm = algorithm;
  p.sets = {"K=20"};
  p.runs = runs;
  p.seed = 3;
  p.threads = threads;
  return p;
}

TEST(WhiteBoxAudit, Seed000Algorithm1WithinItsClaims) {
  const WhiteBoxResult w = whitebox_audit(plan("admm-random-aggregation", 6, 2));
  ASSERT_EQ(w.losses.size(), 6u);
  EXPECT_EQ(w.verdict, Verdict::pass);
  EXPECT_EQ(w.runs_over_claim, 0u);
  for (std::size_t i = 0; i < w.losses.size(); ++i) {
    EXPECT_GT(w.losses[i], 0);
    EXPECT_LE(w.losses[i], w.claimed[i] * (1 + 1e-9));
  }
  ASSERT_TRUE(w.realised_gamma.has_value());
  EXPECT_GT(*w.realised_gamma, 0);
  EXPECT_LT(*w.realised_gamma, 1);
  EXPECT_LE(w.mean_lower, w.mean_loss);
  EXPECT_GE(w.mean_upper, w.mean_loss);
  EXPECT_EQ(w.delta_mc.back(), 0.0);  // eps at the top of the grid: no run's loss exceeds it
  EXPECT_GT(w.delta_mc.front(), 0.0);
  std::uint64_t total = 0;
  for (auto c : w.hist_counts) total += c;
  EXPECT_EQ(total, 6u);
}

TEST(WhiteBoxAudit, SameLossesWhateverTheThreadCount) {
  EXPECT_EQ(whitebox_audit(plan("dsgd-random-aggregation", 4, 1)).losses,
            whitebox_audit(plan("dsgd-random-aggregation", 4, 3)).losses);
}

TEST(WhiteBoxAudit, Refusals) {
  EXPECT_THROW(whitebox_audit(plan("no-such-algorithm", 2, 1)), InputError);
  EXPECT_THROW(whitebox_audit(plan("dgd-secret-sharing", 2, 1)), NotApplicable);
  EXPECT_THROW(whitebox_audit(plan("admm-random-aggregation", 0, 1)), InputError);
  auto p = plan("admm-random-aggregation", 2, 1);
  p.sets.push_back("noise=off");
  EXPECT_THROW(whitebox_audit(p), NotApplicable);
  p = plan("admm-random-aggregation", 2, 1);
  p.sets.push_back("bogus_key=1");
  EXPECT_THROW(whitebox_audit(p), InputError);
}

}  // namespace
}  // namespace dpl::audit
