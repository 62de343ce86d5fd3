// SPDX-License-Identifier: Apache-2.0
// The registry of the seed papers' claims: every claim of the five papers, selection by id or paper prefix,
// and running a selection.
#pragma once

#include "proofs-check/claim.h"

#include <functional>
#include <string>
#include <vector>

namespace dpl::proofs {

// One file per paper (paper_00N_claims.cpp).
std::vector<Claim> paper_000_claims();
std::vector<Claim> paper_001_claims();
std::vector<Claim> paper_002_claims();
std::vector<Claim> paper_003_claims();
std::vector<Claim> paper_004_claims();

// Every claim, in paper then document order.
const std::vector<Claim>& all_claims();

// A numbered claim with numeric content that has no check, and why (listed by `dpledger check --list` and in
// docs/proofs-check.md).
struct LeftOutClaim {
  std::string paper;      // "000".."004"
  std::string location;   // "Section V, Fig. 2"
  std::string statement;  // one line
  std::string reason;     // why it is not checked
};
const std::vector<LeftOutClaim>& left_out_claims();
// The claim with this id; throws InputError naming the id if unknown.
const Claim& find_claim(const std::string& id);
// The claims whose id equals one of `selectors` or whose paper is one of them ("004", "004/"); all claims when
// `selectors` is empty. Throws InputError for a selector that matches nothing.
std::vector<Claim> select_claims(const std::vector<std::string>& selectors);

struct CheckedClaim {
  Claim claim;
  ClaimResult result;
  double seconds = 0;
};
// Runs the claims in order; a check that throws is reported as inconclusive with the reason (never a crash).
// `progress(i, n, id)` is called before each claim.
std::vector<CheckedClaim> run_claims(const std::vector<Claim>& claims, const CheckContext& context,
                                     const std::function<void(std::size_t, std::size_t, const std::string&)>& progress = {});

}  // namespace dpl::proofs
