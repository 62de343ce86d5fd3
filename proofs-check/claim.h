// SPDX-License-Identifier: Apache-2.0
// One published claim of a seed paper as an executable check: its id, source, one-line statement, the status we
// expect after verifying it ourselves, the computation that recomputes both sides, and the mutation that shows the
// check can fail. Checks read their claimed constants through CheckContext, so a test (or a user, with --set) can
// move a constant, exponent or direction and see the status change.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace dpl::proofs {

// holds: no violation on the claim's stated domain (certified, or none found in the region searched);
// fails: a violation inside the stated domain, and none of the readings the check knows repairs it;
// fails_as_printed: a violation inside the stated domain, but the claim holds on a named sub-domain or in a named
//   reading (ClaimResult::holds_where says which, e.g. "for eps <= 1, where the paper uses it");
// inconclusive: the check cannot decide (ClaimResult::why says why).
enum class Status { holds, fails, fails_as_printed, inconclusive };
std::string to_string(Status s);

// What kind of claim it is (the report groups and the registry test counts them).
enum class ClaimKind {
  privacy,      // a privacy guarantee (epsilon, delta, RDP, gamma)
  utility,      // a utility / privacy-utility bound or rate
  convergence,  // convergence of an algorithm, or a rate of convergence
  lemma,        // a lemma or inequality used by the proofs
  proof_step,   // one step of a proof
  experiment    // a statement about the paper's experiments
};
std::string to_string(ClaimKind k);

// How the check decides.
enum class Method {
  certified,    // interval / exact arithmetic, or an identity evaluated exactly
  search,       // a parameter sweep (grid + seeded draws + shrinking) of a margin
  simulation,   // the algorithm is run (seeded), or its exact moments propagated
  enumeration,  // every case of a finite set
  derivation    // a rate or constant recomputed from the paper's own bound (minimised numerically)
};
std::string to_string(Method m);

// What a check may be told: quick mode (smaller grids and fewer random draws, for CI), the seed of its random
// search or simulation, and overrides of the claimed constants by name (unknown names are refused).
struct CheckContext {
  bool quick = false;
  std::uint64_t seed = 20261123;
  std::map<std::string, double> overrides;
  // The value of the claimed constant `key` (its printed value `printed` unless overridden).
  double constant(const std::string& key, double printed) const;
};

struct ClaimResult {
  Status status = Status::inconclusive;
  std::string claimed;         // the claim's side, with numbers
  std::string computed;        // our recomputation, with numbers
  std::string region;          // the parameters: the region searched (grid + draws) or the instance run
  std::string counterexample;  // fails: the smallest counterexample found
  std::string reproduce;       // the command that reproduces it (fails), or that shows the computation
  std::string note;            // where the paper or the check's method needs a word
  std::string holds_where;     // fails_as_printed: the sub-domain or reading where the claim holds
  std::string why;             // inconclusive: why the check cannot decide
  // The worst violation found, in the units of the claimed side (how much the claimed side must move to hold at
  // every point searched); <= 0 when it holds everywhere searched. NaN when the check has no such scalar.
  double deficit = 0.0 / 0.0;
};

// The change that must flip a claim's status: override `constant` (one of the claim's constants) with `value`.
// `description` says in words what moves and by how much ("the printed 32 -> 160", "exponent 1/2 -> 1").
struct Mutation {
  std::string constant;
  double value = 0;
  std::string description;
};

struct Claim {
  std::string id;         // "000/eq-2.6": paper number / kind-number
  std::string location;   // "Theorem 2.2.2, eq. (2.6)"
  std::string statement;  // one line, with the claim's own words where they matter
  Status expected = Status::holds;
  std::vector<std::string> constants;  // the claimed constants a test may override, "name=printed value"
  std::function<ClaimResult(const CheckContext&)> check;
  ClaimKind kind = ClaimKind::lemma;
  Method method = Method::search;
  Mutation mutation;
};

// The paper a claim id belongs to ("000".."004"), its full citation (authors, title) and a short one.
std::string paper_of(const std::string& id);
std::string paper_citation(const std::string& paper);
std::string paper_short(const std::string& paper);
// "Authors, Title, location" for the JSON "source".
std::string source_of(const Claim& c);

// Shortest decimal with `digits` significant digits (for human-readable claimed/computed strings).
std::string num(double x, int digits = 6);

}  // namespace dpl::proofs
