// One published claim of a seed paper as an executable check: its id, source, one-line statement, the status we
// expect after verifying it ourselves, and the computation that recomputes both sides. Checks read their claimed
// constants through CheckContext, so a test can perturb a constant (e.g. 32 -> 160) and see the status change.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace dpl::proofs {

enum class Status { holds, fails, inconclusive };
std::string to_string(Status s);

// What a check may be told: quick mode (smaller grids and fewer random draws, for CI), the seed of its random
// search or simulation, and overrides of the claimed constants by name (unknown names are refused by the check).
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
  std::string region;          // the parameter region searched (grid + random draws) or the instance
  std::string counterexample;  // fails: the smallest counterexample found
  std::string reproduce;       // the command that reproduces it (fails), or that shows the computation
  std::string note;            // where the paper or the check's method needs a word
  // The worst violation found, in the units of the claimed side (how much the claimed side must move to hold at
  // every point searched); <= 0 when it holds everywhere searched. NaN when the check has no such scalar.
  double deficit = 0.0 / 0.0;
};

struct Claim {
  std::string id;         // "000/eq-2.6": paper number / kind-number
  std::string location;   // "Theorem 2.2.2, eq. (2.6)"
  std::string statement;  // one line
  Status expected = Status::holds;
  std::vector<std::string> constants;  // the claimed constants a test may override, "name=printed value"
  std::function<ClaimResult(const CheckContext&)> check;
};

// The paper a claim id belongs to ("000".."004") and its citation (authors, title).
std::string paper_of(const std::string& id);
std::string paper_citation(const std::string& paper);
// "Authors, Title, location" for the JSON "source".
std::string source_of(const Claim& c);

// Shortest decimal with `digits` significant digits (for human-readable claimed/computed strings).
std::string num(double x, int digits = 6);

}  // namespace dpl::proofs
