// SPDX-License-Identifier: Apache-2.0
#include "proofs-check/counterexample_search.h"

#include "accounting/errors.h"
#include "accounting/numeric/portable_math.h"
#include "algorithms/rng/portable_rng.h"
#include "proofs-check/claim.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace dpl::proofs {
namespace {

double size_of(const std::vector<Axis>& axes, const Point& p) {
  double s = 0;
  for (std::size_t i = 0; i < axes.size(); ++i) s += std::abs(p[i]) / std::max(std::abs(axes[i].hi), 1e-300);
  return s;
}

double snap(const Axis& a, double x) {
  x = std::clamp(x, a.lo, a.hi);
  return a.integer ? std::clamp(std::round(x), std::ceil(a.lo), std::floor(a.hi)) : x;
}

// Candidate simpler values for one coordinate: the lower end, the value rounded to 1 and 2 significant digits,
// the value halved, the midpoint toward the lower end.
std::vector<double> simpler(const Axis& a, double x) {
  std::vector<double> c{a.lo};
  for (int digits : {1, 2}) {
    if (x == 0) break;
    const double scale = portable::pow(10.0, std::floor(portable::log10(std::abs(x))) - digits + 1);
    c.push_back(std::floor(x / scale) * scale);
    c.push_back(std::round(x / scale) * scale);
  }
  c.push_back(x / 2);
  c.push_back((x + a.lo) / 2);
  for (double& v : c) v = snap(a, v);
  return c;
}

}  // namespace

std::string describe(const std::vector<Axis>& axes, const Point& p) {
  std::ostringstream s;
  for (std::size_t i = 0; i < axes.size(); ++i) s << (i ? ", " : "") << axes[i].name << "=" << num(p[i], 8);
  return s.str();
}

void record_search_verdict(ClaimResult& r, const SearchOutcome& s, const std::vector<Axis>& axes) {
  r.deficit = -s.worst_margin;
  r.status = s.smallest_failure ? Status::fails : Status::holds;
  if (s.smallest_failure) r.counterexample = describe(axes, *s.smallest_failure);
}

SearchOutcome search_counterexample(const std::vector<Axis>& axes, int random_draws, std::uint64_t seed,
                                    const Margin& margin) {
  SearchOutcome out;
  out.worst_margin = kInfinity;
  std::vector<Point> failing;
  auto visit = [&](const Point& p) {
    const double m = margin(p);
    ++out.evaluated;
    if (std::isnan(m)) throw NotApplicable("the check's margin is undefined (NaN) at " + describe(axes, p));
    if (m < out.worst_margin || out.worst_point.empty()) {
      out.worst_margin = m;
      out.worst_point = p;
    }
    if (m < 0) {
      ++out.failures;
      failing.push_back(p);
    }
  };
  // Grid: the cartesian product of the axes' grid values (axes without grid values use their lower end).
  std::size_t total = 1;
  for (const auto& a : axes) total *= std::max<std::size_t>(1, a.grid.size());
  for (std::size_t idx = 0; idx < total; ++idx) {
    Point p(axes.size());
    std::size_t rest = idx;
    for (std::size_t i = 0; i < axes.size(); ++i) {
      const std::size_t n = std::max<std::size_t>(1, axes[i].grid.size());
      p[i] = axes[i].grid.empty() ? axes[i].lo : snap(axes[i], axes[i].grid[rest % n]);
      rest /= n;
    }
    visit(p);
  }
  algorithms::Rng rng(seed);
  for (int r = 0; r < random_draws; ++r) {
    Point p(axes.size());
    for (std::size_t i = 0; i < axes.size(); ++i) {
      const Axis& a = axes[i];
      const double u = rng.uniform01();
      p[i] = snap(a, a.log_scale ? portable::binary64::exp(portable::binary64::log(a.lo) + u * (portable::binary64::log(a.hi) - portable::binary64::log(a.lo)))
                                 : a.lo + u * (a.hi - a.lo));
    }
    visit(p);
  }
  std::ostringstream region;
  for (std::size_t i = 0; i < axes.size(); ++i)
    region << (i ? " x " : "") << axes[i].name << " in [" << num(axes[i].lo) << ", " << num(axes[i].hi) << "]"
           << (axes[i].integer ? " (integers)" : "");
  region << " (grid " << total << " points + " << random_draws << " seeded random draws, seed " << seed << ")";
  out.region = region.str();
  if (failing.empty()) return out;
  Point best = *std::min_element(failing.begin(), failing.end(), [&](const Point& a, const Point& b) {
    return size_of(axes, a) < size_of(axes, b);
  });
  double best_margin = margin(best);
  // Shrink: coordinate by coordinate, accept any simpler value that still fails; bounded number of passes.
  int steps = 0;
  for (bool changed = true; changed && steps < 200;) {
    changed = false;
    for (std::size_t i = 0; i < axes.size() && steps < 200; ++i) {
      for (double v : simpler(axes[i], best[i])) {
        if (v == best[i] || std::abs(v) > std::abs(best[i]) + 1e-300) continue;
        Point q = best;
        q[i] = v;
        ++steps;
        const double m = margin(q);
        ++out.evaluated;
        if (m < 0) {
          best = q;
          best_margin = m;
          changed = true;
          break;
        }
      }
    }
  }
  out.smallest_failure = best;
  out.smallest_failure_margin = best_margin;
  return out;
}

}  // namespace dpl::proofs
