// SPDX-License-Identifier: Apache-2.0
// The proofs-check registry: every claim is complete (location, statement, kind, method, a declared mutation), each
// paper has a utility or convergence theorem checked by simulation, the left-out claims carry reasons, and, for
// every claim (parametrised over the whole registry, so a new claim cannot skip it): its quick-mode status is the
// expected one with the qualifier its vocabulary needs, and moving the constant its mutation names by the stated
// amount changes the status. A check whose status cannot change is a defect this test catches.
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

TEST(ClaimsRegistry, EveryClaimIsComplete) {
  const auto& claims = all_claims();
  EXPECT_GE(claims.size(), 90u);
  std::map<std::string, int> per_paper;
  std::set<std::string> ids;
  for (const auto& c : claims) {
    ++per_paper[paper_of(c.id)];
    EXPECT_TRUE(ids.insert(c.id).second) << "duplicate id " << c.id;
    EXPECT_FALSE(c.location.empty()) << c.id;
    EXPECT_FALSE(c.statement.empty()) << c.id;
    EXPECT_TRUE(static_cast<bool>(c.check)) << c.id;
    EXPECT_NE(paper_citation(paper_of(c.id)).find('"'), std::string::npos) << c.id;
    // The mutation names a declared constant, moves it, and says how.
    bool declared = false;
    std::string printed;
    for (const auto& k : c.constants)
      if (k.substr(0, k.find('=')) == c.mutation.constant) declared = true, printed = k.substr(k.find('=') + 1);
    EXPECT_TRUE(declared) << c.id << ": mutation constant '" << c.mutation.constant << "' is not declared";
    EXPECT_FALSE(c.mutation.description.empty()) << c.id;
    if (declared) {
      EXPECT_NE(std::stod(printed), c.mutation.value) << c.id << ": the mutation does not move anything";
    }
  }
  for (const std::string p : {"000", "001", "002", "003", "004"}) EXPECT_GE(per_paper[p], 10) << p;
  EXPECT_EQ(per_paper.size(), 5u);
}

// Acceptance: each paper has at least one utility or convergence theorem checked by simulation.
TEST(ClaimsRegistry, EveryPaperHasAUtilityOrConvergenceTheoremBySimulation) {
  std::map<std::string, int> simulated;
  for (const auto& c : all_claims())
    if ((c.kind == ClaimKind::utility || c.kind == ClaimKind::convergence) && c.method == Method::simulation)
      ++simulated[paper_of(c.id)];
  for (const std::string p : {"000", "001", "002", "003", "004"}) EXPECT_GE(simulated[p], 1) << p;
}

TEST(ClaimsRegistry, LeftOutClaimsCarryReasons) {
  std::set<std::string> ids;
  for (const auto& c : all_claims()) ids.insert(c.id);
  for (const auto& l : left_out_claims()) {
    EXPECT_FALSE(l.location.empty());
    EXPECT_FALSE(l.reason.empty()) << l.location;
    EXPECT_TRUE(l.paper.size() == 3) << l.location;
  }
}

TEST(ClaimsRegistry, SelectionByIdAndPaper) {
  for (const auto& c : select_claims({"004"})) EXPECT_EQ(paper_of(c.id), "004");
  EXPECT_EQ(select_claims({"000/eq-2.6"}).size(), 1u);
  EXPECT_EQ(select_claims({"000/eq-2.6", "000"}).size(), select_claims({"000"}).size());
  EXPECT_THROW(select_claims({"005"}), InputError);
  EXPECT_THROW(select_claims({"000/eq-9.9"}), InputError);
  EXPECT_THROW(run("004/thm-1-chain", {{"no_such_constant", 1}}), InputError);
}

// Per claim: the expected status in quick mode, the vocabulary's qualifiers, and the mutation flips the status.
class EveryClaim : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryClaim, HasItsExpectedStatusAndItsMutationChangesIt) {
  const Claim& c = find_claim(GetParam());
  const ClaimResult r = run(c.id);
  EXPECT_EQ(r.status, c.expected) << c.id << ": " << r.computed << " | " << r.why;
  if (r.status == Status::fails_as_printed) {
    EXPECT_FALSE(r.holds_where.empty()) << c.id << ": where does it hold?";
  }
  if (r.status == Status::inconclusive) {
    EXPECT_FALSE(r.why.empty()) << c.id << ": why inconclusive?";
  }
  if (r.status == Status::fails || r.status == Status::fails_as_printed) {
    EXPECT_FALSE(r.counterexample.empty()) << c.id << ": a failure names its counterexample";
  }
  EXPECT_FALSE(r.claimed.empty()) << c.id;
  EXPECT_FALSE(r.computed.empty()) << c.id;
  EXPECT_FALSE(r.region.empty()) << c.id;
  const ClaimResult m = run(c.id, {{c.mutation.constant, c.mutation.value}});
  EXPECT_NE(m.status, r.status) << c.id << ": moving " << c.mutation.constant << " to " << c.mutation.value << " ("
                                << c.mutation.description << ") leaves the status " << to_string(r.status) << "; "
                                << m.computed;
}

std::vector<std::string> all_ids() {
  std::vector<std::string> ids;
  for (const auto& c : all_claims()) ids.push_back(c.id);
  return ids;
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s;
  for (char ch : info.param) s += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(Registry, EveryClaim, ::testing::ValuesIn(all_ids()), test_name);

// Acceptance: 000 eq. (2.6) fails with a counterexample reproducible by `dpledger gamma`, and raising it by its
// measured deficit makes it hold on the same region.
TEST(ClaimsRegistry, Eq26FailsAndRaisingItByItsDeficitMakesItHold) {
  const ClaimResult r = run("000/eq-2.6");
  ASSERT_EQ(r.status, Status::fails) << r.computed;
  EXPECT_EQ(r.reproduce.rfind("dpledger gamma --omega ", 0), 0u) << r.reproduce;
  ASSERT_GT(r.deficit, 0);
  EXPECT_EQ(run("000/eq-2.6", {{"bound_raise", r.deficit * 1.001 + 1e-15}}).status, Status::holds);
  EXPECT_EQ(run("000/eq-2.6", {{"bound_raise", r.deficit / 2}}).status, Status::fails);
}

// 004 Theorem 1's proof chain fails with the printed 32 and holds with 160 (the constant its last line needs).
TEST(ClaimsRegistry, Seed004ChainFailsWith32HoldsWith160) {
  EXPECT_EQ(run("004/thm-1-chain").status, Status::fails);
  EXPECT_EQ(run("004/thm-1-chain", {{"constant", 160}}).status, Status::holds);
  EXPECT_EQ(run("004/eq-7", {{"constant", 160}}).status, Status::holds);
}

}  // namespace
}  // namespace dpl::proofs
