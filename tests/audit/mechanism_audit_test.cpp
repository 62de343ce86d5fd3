// SPDX-License-Identifier: Apache-2.0
// Built-in black-box audits: Laplace and Gaussian pass when calibrated and are caught with half the noise; the
// counts do not depend on the thread count; four shards add up to the unsharded counts exactly; the grid puts a
// threshold at 0 where the Laplace ratio is exactly e^eps; bad targets are refused.
#include "audit/mechanism_target.h"
#include "audit/shard_file.h"

#include "accounting/errors.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace dpl::audit {
namespace {

AuditResult audit(const std::string& spec, std::map<std::string, std::string> sets, std::uint64_t runs,
                  std::uint64_t seed, unsigned threads = 2) {
  const MechanismTarget t = make_mechanism_target(spec, sets, std::nullopt);
  SamplingPlan p;
  p.runs = runs;
  p.seed = seed;
  p.threads = threads;
  return threshold_test(sample_mechanism(t, p), t.claim, 0.95, 0.1);
}

TEST(MechanismAudit, LaplacePassesNearTheTruth) {
  const AuditResult r = audit("laplace:b=1", {}, 1000000, 1);
  EXPECT_EQ(r.verdict, Verdict::pass);
  EXPECT_GT(r.epsilon_lower, 0.97);
  EXPECT_LE(r.epsilon_lower, 1.0);
  EXPECT_DOUBLE_EQ(r.epsilon_claimed, 1.0);
  EXPECT_LT(r.detectable, 1.05);
}

TEST(MechanismAudit, LaplaceTwinIsCaught) {
  // Half the noise: true epsilon 2 against the claimed 1.
  const AuditResult r = audit("laplace:b=1", {{"actual_noise_factor", "0.5"}}, 1000000, 1);
  EXPECT_EQ(r.verdict, Verdict::violation);
  EXPECT_GT(r.epsilon_lower, 1.9);
  // A milder twin (10% less noise, true eps 1.111) is caught too.
  EXPECT_EQ(audit("laplace:b=1", {{"actual_noise_factor", "0.9"}}, 1000000, 2).verdict, Verdict::violation);
}

TEST(MechanismAudit, GaussianPassesAndTwinIsCaught) {
  const AuditResult r = audit("gaussian:sigma=1", {}, 1000000, 3);
  EXPECT_EQ(r.verdict, Verdict::pass);
  ASSERT_TRUE(r.mu_lower.has_value());
  EXPECT_GT(*r.mu_lower, 0.97);
  EXPECT_LE(*r.mu_lower, 1.0);
  const AuditResult v = audit("gaussian:sigma=1", {{"actual_noise_factor", "0.5"}}, 1000000, 3);
  EXPECT_EQ(v.verdict, Verdict::violation);
  EXPECT_GT(*v.mu_lower, 1.9);
}

TEST(MechanismAudit, SameCountsWhateverTheThreadCount) {
  const MechanismTarget t = make_mechanism_target("laplace:b=0.7,sens=2", {}, std::nullopt);
  SamplingPlan p;
  p.runs = 300001;  // not a multiple of the block size: the last block is partial
  p.seed = 42;
  p.threads = 1;
  const ThresholdCounts one = sample_mechanism(t, p);
  for (unsigned threads : {2u, 3u, 8u}) {
    p.threads = threads;
    EXPECT_EQ(sample_mechanism(t, p), one) << threads;
  }
  EXPECT_EQ(one.total(kSelection, kD), 150000u);
  EXPECT_EQ(one.total(kEstimation, kDPrime), 150001u);
}

TEST(MechanismAudit, FourShardsMergeToTheUnshardedCounts) {
  const MechanismTarget t = make_mechanism_target("gaussian:sigma=2", {}, std::nullopt);
  SamplingPlan p;
  p.runs = 5 * kBlockRuns + 17;
  p.seed = 7;
  p.threads = 2;
  const ThresholdCounts whole = sample_mechanism(t, p);
  std::vector<Shard> shards;
  std::vector<std::string> names;
  for (std::uint64_t i = 0; i < 4; ++i) {
    SamplingPlan s = p;
    s.shard_index = i;
    s.shard_count = 4;
    Shard sh;
    sh.version = "0.1.0 (commit 0123456789ab)";
    sh.target = t.spec;
    sh.runs = p.runs;
    sh.seed = p.seed;
    sh.shard_index = i;
    sh.shard_count = 4;
    sh.counts = sample_mechanism(t, s);
    // through JSON, as the files would go
    shards.push_back(shard_from_json(to_json(sh), "shard" + std::to_string(i)));
    names.push_back("shard" + std::to_string(i));
  }
  std::reverse(shards.begin(), shards.end());  // order does not matter
  EXPECT_EQ(merge_shards(shards, names).counts, whole);
  // A repeated or missing shard, or one from another seed, is refused.
  auto bad = shards;
  bad[1] = bad[0];
  EXPECT_THROW(merge_shards(bad, names), InputError);
  bad = shards;
  bad.pop_back();
  EXPECT_THROW(merge_shards(bad, {names.begin(), names.end() - 1}), InputError);
  bad = shards;
  bad[2].seed = 8;
  EXPECT_THROW(merge_shards(bad, names), InputError);
  // One written by another version of dpledger, or (through JSON) by one that recorded none.
  bad = shards;
  bad[3].version = "0.1.0 (commit 0123456789ac)";
  EXPECT_THROW(merge_shards(bad, names), InputError);
  auto unversioned = to_json(shards[0]);
  unversioned.erase("version");
  EXPECT_THROW(shard_from_json(unversioned, "old"), InputError);
}

TEST(MechanismAudit, GridHasThresholdsAtZeroAndSens) {
  const MechanismTarget t = make_mechanism_target("laplace:b=0.3,sens=2", {}, std::nullopt);
  const auto th = t.thresholds();
  EXPECT_TRUE(std::find(th.begin(), th.end(), 0.0) != th.end());
  EXPECT_TRUE(std::any_of(th.begin(), th.end(), [](double x) { return std::fabs(x - 2) < 1e-12; }));
  EXPECT_LE(th.front(), -8 * 0.3);
  EXPECT_GE(th.back(), 2 + 8 * 0.3 - 1e-12);
}

TEST(MechanismAudit, RefusesWhatItCannotAudit) {
  EXPECT_THROW(make_mechanism_target("rr:eps=1", {}, std::nullopt), InputError);
  EXPECT_THROW(make_mechanism_target("laplace:b=1,steps=3", {}, std::nullopt), InputError);
  EXPECT_THROW(make_mechanism_target("gaussian:sigma=1,q=0.1", {}, std::nullopt), InputError);
  EXPECT_THROW(make_mechanism_target("bogus:x=1", {}, std::nullopt), InputError);
  EXPECT_THROW(make_mechanism_target("laplace:b=1", {{"actual_noise_factor", "0"}}, std::nullopt), InputError);
  EXPECT_THROW(make_mechanism_target("laplace:b=1", {{"actual_noise_factor", "nan"}}, std::nullopt), InputError);
  EXPECT_THROW(make_mechanism_target("laplace:b=1", {{"colour", "red"}}, std::nullopt), InputError);
  EXPECT_THROW(make_mechanism_target("gaussian:sigma=1", {}, 0.0), InputError);
  EXPECT_THROW(make_mechanism_target("laplace:b=1e-6", {}, std::nullopt), InputError);
  SamplingPlan p;
  p.runs = 1;
  EXPECT_THROW(validate_plan(p), InputError);
}

}  // namespace
}  // namespace dpl::audit
