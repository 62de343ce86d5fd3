// SPDX-License-Identifier: Apache-2.0
// Search a box of parameters for a counterexample to an inequality: every point of a grid, then seeded random
// draws (RapidCheck-style), then the smallest failing point found is shrunk toward the box's lower corner and
// toward short decimals while it still fails. The inequality is given as a margin (>= 0: holds at that point).
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace dpl::proofs {

// A margin of +infinity marks a point outside the claim's hypotheses (skipped).
inline constexpr double kInfinity = std::numeric_limits<double>::infinity();

struct Axis {
  std::string name;
  double lo = 0, hi = 1;        // the box (random draws and shrinking stay inside)
  std::vector<double> grid;     // grid values (may be empty: random only)
  bool log_scale = false;       // random draws log-uniform (lo > 0)
  bool integer = false;         // values are rounded to integers
};

using Point = std::vector<double>;
using Margin = std::function<double(const Point&)>;

struct SearchOutcome {
  int evaluated = 0;
  int failures = 0;             // points with margin < 0
  double worst_margin = 0;      // the smallest margin seen
  Point worst_point;
  std::optional<Point> smallest_failure;  // after shrinking
  double smallest_failure_margin = 0;
  std::string region;           // "u in [0.1, 5] x e in [..] (grid 6x4 + 200 seeded draws)"
};

// Evaluates `margin` on the grid, then on `random_draws` points from the seeded generator, then shrinks the
// failing point with the smallest sum of |x_i| / hi_i. Bounded work: grid size + random_draws + 200 shrink steps.
// Throws NotApplicable if the margin is NaN anywhere (the check cannot decide there; reported inconclusive).
SearchOutcome search_counterexample(const std::vector<Axis>& axes, int random_draws, std::uint64_t seed,
                                    const Margin& margin);

// "u=1, e=0.01"
std::string describe(const std::vector<Axis>& axes, const Point& p);

struct ClaimResult;
// The verdict of a search on a claim: deficit = -worst margin, status fails iff a failing point was found (then the
// counterexample is that point, described), holds otherwise. Region, texts and reproduce stay the caller's.
void record_search_verdict(ClaimResult& r, const SearchOutcome& s, const std::vector<Axis>& axes);

}  // namespace dpl::proofs
