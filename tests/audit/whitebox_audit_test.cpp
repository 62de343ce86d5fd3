// SPDX-License-Identifier: Apache-2.0
// White-box audits: seed 000's Algorithm 1 runs have exact per-run losses within their own worst-case claims,
// a realised gamma in (0, 1), a Monte Carlo delta(eps) that falls to 0 at the largest claim; the figures do not
// depend on the thread count; algorithms without a known density and bad runs are refused.
#include "audit/whitebox_audit.h"

#include "accounting/errors.h"
#include "algorithms/run/algorithm_registry.h"
#include "audit/block_sampler.h"

#include <gtest/gtest.h>

#include <cmath>

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

// Seed 000: the losses are binary64 estimates, the reported maximum is recomputed at 200 bits; every estimate is
// within a relative 1e-9 of the run's 200-bit loss, and the maximum is the 200-bit value.
TEST(WhiteBoxAudit, Seed000EstimatesAgreeWithTheCertifiedLosses) {
  const WhiteBoxResult w = whitebox_audit(plan("admm-random-aggregation", 6, 2));
  EXPECT_GE(w.certified_runs, 1u);
  EXPECT_FALSE(w.note.empty());
  bool max_seen = false;
  for (std::uint64_t i = 0; i < 6; ++i) {
    auto params = algorithms::RunParameters::from_assignments({"K=20", "average_case=off", "loss_precision=certified", "target=0"});
    const auto r = algorithms::find_algorithm("admm-random-aggregation").run(params, block_seed(3, i));
    const double exact = r.accounted["realised_epsilon"].get<double>();
    EXPECT_NEAR(w.losses[i], exact, 1e-9 * w.claimed[i]);
    max_seen = max_seen || (w.max_loss == exact);
  }
  EXPECT_TRUE(max_seen);
}

// Seed 003's DP-SGD (Poisson batches): each run's exact loss of the add/remove pair; the Monte Carlo delta(eps)
// stays under the PLD accountant's curve (error probability <= 1 - C = 0.05 for this fixed seed, and the seed
// is fixed); with half the claimed noise the lower ends exceed it (the twin must be caught).
TEST(WhiteBoxAudit, DpSgdMonteCarloCurveWithinTheAccountant) {
  WhiteBoxPlan p;
  p.algorithm = "dp-sgd";
  p.sets = {"K=20", "q=0.2", "sigma=1"};
  p.runs = 400;
  p.seed = 5;
  p.threads = 2;
  const WhiteBoxResult w = whitebox_audit(p);
  EXPECT_EQ(w.verdict, Verdict::pass);
  ASSERT_EQ(w.eps_grid.size(), w.accountant_delta.size());
  for (std::size_t k = 0; k < w.eps_grid.size(); ++k) {
    EXPECT_LE(w.delta_mc_lower[k], w.accountant_delta[k]);
    EXPECT_LE(w.delta_mc_lower[k], w.delta_mc[k]);
    if (k > 0) {
      EXPECT_LE(w.accountant_delta[k], w.accountant_delta[k - 1]);
    }
  }
  EXPECT_GT(w.delta_mc.front(), 0.0);
  EXPECT_TRUE(std::isfinite(w.epsilon_accountant));
  EXPECT_TRUE(w.mean_interval_normal);
  p.sets.push_back("actual_noise_factor=0.25");
  const WhiteBoxResult twin = whitebox_audit(p);
  EXPECT_EQ(twin.verdict, Verdict::violation);
  EXPECT_EQ(twin.epsilon_accountant, w.epsilon_accountant);  // the claim is the claimed sigma's
}

TEST(WhiteBoxAudit, Refusals) {
  EXPECT_THROW(whitebox_audit(plan("no-such-algorithm", 2, 1)), InputError);
  EXPECT_THROW(whitebox_audit(plan("dgd-secret-sharing", 2, 1)), NotApplicable);
  EXPECT_THROW(whitebox_audit(plan("private-radmm", 2, 1)), NotApplicable);
  EXPECT_THROW(whitebox_audit(plan("dp-dda-node-sampling", 2, 1)), NotApplicable);
  auto f = plan("admm-random-aggregation", 2, 1);
  f.sets.push_back("actual_noise_factor=0.5");  // only dp-sgd and the mechanisms have it
  EXPECT_THROW(whitebox_audit(f), InputError);
  f = plan("dp-sgd", 2, 1);
  f.sets = {"K=5", "sampling=cyclic"};  // the exact loss needs Poisson batches
  EXPECT_THROW(whitebox_audit(f), NotApplicable);
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
