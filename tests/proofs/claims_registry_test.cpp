// The proofs-check registry: at least 40 claims over the five papers, the acceptance statuses (quick mode), and
// perturbation tests: moving a claimed constant across the measured boundary must flip the status, which shows
// every such check is a real computation (a hard-coded status could not move).
#include "accounting/errors.h"
#include "proofs-check/registry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

namespace dpl::proofs {
namespace {

ClaimResult run(const std::string& id, std::map<std::string, double> overrides = {}) {
  CheckContext ctx;
  ctx.quick = true;
  ctx.overrides = std::move(overrides);
  const auto results = run_claims({find_claim(id)}, ctx);
  return results.at(0).result;
}

TEST(ClaimsRegistry, AtLeastFortyClaimsFromEveryPaper) {
  const auto& claims = all_claims();
  EXPECT_GE(claims.size(), 40u);
  std::map<std::string, int> per_paper;
  std::set<std::string> ids;
  for (const auto& c : claims) {
    ++per_paper[paper_of(c.id)];
    EXPECT_TRUE(ids.insert(c.id).second) << "duplicate id " << c.id;
    EXPECT_FALSE(c.location.empty()) << c.id;
    EXPECT_FALSE(c.statement.empty()) << c.id;
    EXPECT_TRUE(static_cast<bool>(c.check)) << c.id;
    EXPECT_NE(paper_citation(paper_of(c.id)).find('"'), std::string::npos) << c.id;
  }
  for (const std::string p : {"000", "001", "002", "003", "004"}) EXPECT_GE(per_paper[p], 5) << p;
  EXPECT_EQ(per_paper.size(), 5u);
}

TEST(ClaimsRegistry, SelectionByIdAndPaper) {
  for (const auto& c : select_claims({"004"})) EXPECT_EQ(paper_of(c.id), "004");
  EXPECT_EQ(select_claims({"000/eq-2.6"}).size(), 1u);
  EXPECT_EQ(select_claims({"000/eq-2.6", "000"}).size(), select_claims({"000"}).size());
  EXPECT_THROW(select_claims({"005"}), InputError);
  EXPECT_THROW(select_claims({"000/eq-9.9"}), InputError);
  EXPECT_THROW(run("004/thm-1", {{"no_such_constant", 1}}), InputError);
}

// Acceptance: 000 eq. (2.6) fails with a counterexample reproducible by `dpledger gamma`.
TEST(ClaimsRegistry, Eq26FailsAndRaisingItByItsDeficitMakesItHold) {
  const ClaimResult r = run("000/eq-2.6");
  ASSERT_EQ(r.status, Status::fails) << r.computed;
  EXPECT_FALSE(r.counterexample.empty());
  EXPECT_EQ(r.reproduce.rfind("dpledger gamma --omega ", 0), 0u) << r.reproduce;
  ASSERT_GT(r.deficit, 0);
  // Raised by its measured deficit (plus a hair for the quadrature error), the bound holds on the same region.
  const ClaimResult raised = run("000/eq-2.6", {{"bound_raise", r.deficit * 1.001 + 1e-15}});
  EXPECT_EQ(raised.status, Status::holds) << raised.computed;
  // Raised by half of it, it still fails.
  EXPECT_EQ(run("000/eq-2.6", {{"bound_raise", r.deficit / 2}}).status, Status::fails);
}

TEST(ClaimsRegistry, Seed002LemmaIV1Holds) {
  const ClaimResult r = run("002/lemma-IV.1");
  EXPECT_EQ(r.status, Status::holds) << r.computed;
}

// Acceptance: 004 Theorem 1 fails with the printed 32 and holds with 160 (the constant its last line needs).
TEST(ClaimsRegistry, Seed004Theorem1FailsWith32HoldsWith160) {
  const ClaimResult r = run("004/thm-1");
  EXPECT_EQ(r.status, Status::fails) << r.computed;
  EXPECT_FALSE(r.counterexample.empty());
  EXPECT_EQ(run("004/thm-1", {{"constant", 160}}).status, Status::holds);
  EXPECT_EQ(run("004/eq-7").status, Status::fails);
  EXPECT_EQ(run("004/eq-7", {{"constant", 160}}).status, Status::holds);
}

// Acceptance: 001 Theorem 2 fails; with a sensitivity constant 10^4 times larger it holds on the region searched.
TEST(ClaimsRegistry, Seed001Theorem2FailsAndItsSensitivityStepToo) {
  const ClaimResult r = run("001/thm-2");
  EXPECT_EQ(r.status, Status::fails) << r.computed;
  EXPECT_FALSE(r.counterexample.empty());
  EXPECT_EQ(run("001/thm-2", {{"sensitivity_factor", 2e4}}).status, Status::holds);
  const ClaimResult step = run("001/eq-8");
  EXPECT_EQ(step.status, Status::fails) << step.computed;
  EXPECT_EQ(run("001/eq-8", {{"sensitivity_factor", 2 * (step.deficit + 1) * 1.001}}).status, Status::holds);
}

// Holding claims turn into failures when their constant is made too optimistic.
TEST(ClaimsRegistry, HoldingClaimsFailWhenTheirConstantIsTightened) {
  EXPECT_EQ(run("002/eq-57").status, Status::holds);
  EXPECT_EQ(run("002/eq-57", {{"constant", 1.38}}).status, Status::fails);  // 0.69 < ln 2
  EXPECT_EQ(run("000/lemma-3.3.1").status, Status::holds);
  EXPECT_EQ(run("000/lemma-3.3.1", {{"factor", 0.05}}).status, Status::fails);  // measured ratio ~0.07-0.12
  EXPECT_EQ(run("000/thm-2.2.1").status, Status::holds);
  EXPECT_EQ(run("000/thm-2.2.1", {{"worst_case_factor", 0.9}}).status, Status::fails);
  EXPECT_EQ(run("003/lemma-C.1").status, Status::holds);
  EXPECT_EQ(run("003/lemma-C.1", {{"constant", 0.4}}).status, Status::fails);  // closed form ~4x the exact RDP
  EXPECT_EQ(run("004/lemma-1").status, Status::holds);
  EXPECT_EQ(run("004/lemma-1", {{"sqrt_factor", 0.3}}).status, Status::fails);
  EXPECT_EQ(run("002/eq-53", {{"sensitivity_factor", 1}}).status, Status::fails);
  EXPECT_EQ(run("001/thm-2.3-phi", {{"phi", 3.95}}).status, Status::fails);
}

// Failing claims turn into holding ones when their constant is corrected.
TEST(ClaimsRegistry, FailingClaimsHoldWhenCorrected) {
  EXPECT_EQ(run("003/thm-4-sigma").status, Status::fails);
  EXPECT_EQ(run("003/thm-4-sigma", {{"sigma_factor", 2 * std::sqrt(2.0)}}).status, Status::holds);
  const ClaimResult central = run("003/thm-3-central");
  EXPECT_EQ(central.status, Status::fails);
  EXPECT_EQ(run("003/thm-3-central", {{"constant", 16 * (central.deficit + 1) * 1.01}}).status, Status::holds);
}

}  // namespace
}  // namespace dpl::proofs
