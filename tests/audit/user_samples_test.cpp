// SPDX-License-Identifier: Apache-2.0
// Users' own outputs: the file reader refuses ragged and malformed files; projections; and the audit of Laplace
// outputs written to files agrees with the built-in audit of the very same draws.
#include "audit/user_samples.h"

#include "accounting/errors.h"
#include "audit/block_sampler.h"
#include "audit/mechanism_target.h"
#include "tests/algorithms/temp_file.h"

#include <gtest/gtest.h>

#include <cmath>
#include <iomanip>
#include <sstream>

namespace dpl::audit {
namespace {

using dpl::testing::TempFile;

TEST(UserSamples, ReadsNumbersAndVectors) {
  TempFile f("v.csv", "1, 2,3\n\n4 5 6\r\n-7e-1,8,9\n");
  const auto rows = read_sample_rows(f.path());
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1], (std::vector<double>{4, 5, 6}));
  EXPECT_EQ(project(rows, parse_projection("coord:2"), f.path()), (std::vector<double>{2, 5, 8}));
  EXPECT_EQ(project(rows, parse_projection("weights:1,0,-1"), f.path()), (std::vector<double>{-2, -2, -9.7}));
  EXPECT_THROW(project(rows, parse_projection(""), f.path()), InputError);
  EXPECT_THROW(project(rows, parse_projection("coord:4"), f.path()), InputError);
  EXPECT_THROW(project(rows, parse_projection("weights:1,2"), f.path()), InputError);
}

TEST(UserSamples, RefusesBadFilesAndProjections) {
  TempFile ragged("r.csv", "1,2\n3\n");
  EXPECT_THROW(read_sample_rows(ragged.path()), InputError);
  TempFile text("t.csv", "1\nabc\n");
  EXPECT_THROW(read_sample_rows(text.path()), InputError);
  TempFile nan("n.csv", "1\nnan\n");
  EXPECT_THROW(read_sample_rows(nan.path()), InputError);
  TempFile glued("g.csv", "1\n2x\n");
  EXPECT_THROW(read_sample_rows(glued.path()), InputError);
  TempFile one("o.csv", "1\n");
  EXPECT_THROW(read_sample_rows(one.path()), InputError);
  EXPECT_THROW(read_sample_rows("/nonexistent/dpl_audit_samples.csv"), InputError);
  for (const char* p : {"coord:0", "coord:-1", "coord:x", "weights:", "weights:1,,2", "weights:0,0", "index:1"})
    EXPECT_THROW(parse_projection(p), InputError) << p;
}

TEST(UserSamples, LaplaceFilesMatchTheBuiltInAudit) {
  // Write exactly the draws the built-in audit makes (block streams, D then D' in each run), then audit the files.
  const MechanismTarget t = make_mechanism_target("laplace:b=1", {}, std::nullopt);
  SamplingPlan p;
  p.runs = 200000;
  p.seed = 5;
  p.threads = 2;
  const AuditResult builtin = threshold_test(sample_mechanism(t, p), t.claim, 0.95, 0.1);
  std::ostringstream d, dp;
  d << std::setprecision(17);
  dp << std::setprecision(17);
  for (std::uint64_t k = 0; k * kBlockRuns < p.runs; ++k) {
    algorithms::Rng rng(block_seed(p.seed, k));
    for (std::uint64_t r = k * kBlockRuns; r < std::min(p.runs, (k + 1) * kBlockRuns); ++r) {
      d << rng.laplace_scale(1.0) << "\n";
      dp << 1.0 + rng.laplace_scale(1.0) << "\n";
    }
  }
  TempFile fd("d.csv", d.str()), fdp("dp.csv", dp.str());
  const auto x = project(read_sample_rows(fd.path()), {}, fd.path());
  const auto y = project(read_sample_rows(fdp.path()), {}, fdp.path());
  const AuditResult user = threshold_test(user_sample_counts(x, y), AuditClaim{1.0, 0, {}}, 0.95, 0.1);
  EXPECT_EQ(user.verdict, builtin.verdict);
  EXPECT_NEAR(user.epsilon_lower, builtin.epsilon_lower, 0.02);
  EXPECT_GT(user.epsilon_lower, 0.9);
  EXPECT_LE(user.epsilon_lower, 1.0);
}

}  // namespace
}  // namespace dpl::audit
