// SPDX-License-Identifier: Apache-2.0
#include "accounting/pld/pld_accountant.h"

#include "accounting/numeric/portable_math.h"
#include "accounting/errors.h"
#include "accounting/numeric/decimal.h"
#include "accounting/pld/discrete_pld.h"
#include "accounting/pld/loss_pair_extended.h"
#include "accounting/pld/pld_composition_memo.h"
#include "accounting/pld/pld_entry_groups.h"
#include "accounting/pld/pld_parallel.h"
#include "accounting/pld/pld_work_budget.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>

namespace dpl {

namespace {

// The finest grid the range may ask for, unless a step is narrower (narrow_step_grid).
constexpr double kFinestGrid = 1e-5;
constexpr double kTargetBins = 170000;
// No step asks for a grid finer than this (narrow_step_grid).
constexpr double kNarrowestGrid = 1e-8;
// The work one step's measurement in narrow_step_grid may take (about 0.1 s), apart from the run's.
constexpr double kNarrowStepWork = 1e8;
// How many times the probe may be repeated on a finer grid (choose_grids).
constexpr int kMaxProbeRefinements = 8;
// Below this target delta every PLD is exponentially tilted (docs/pld_accountant.md, 5): the round-off budget
// (~1e-11 of the total mass) would otherwise exceed delta.
constexpr double kTiltBelowDelta = 1e-9;

// Each entry's one-step PLD on o's grid (discretised and tilted). Per-step tails are replicated `steps` times: the
// step's budget is divided accordingly.
std::vector<DiscretePld> discretize_steps(const Ledger& ledger, PairDirection dir, const PldOptions& o, bool pessimistic) {
  std::vector<DiscretePld> steps;
  for (const auto& e : ledger) {
    steps.push_back(discretize(loss_pair(e, dir, pessimistic), o.grid, o.tail / static_cast<double>(e.steps), pessimistic,
                               o.tilt));
    apply_tilt(steps.back(), o.tilt, o.tail / static_cast<double>(e.steps));
  }
  return steps;
}

// The composition of the entries' composed PLDs pairwise (a balanced tree: every convolution is about as short as
// its operands, instead of each entry being convolved with the whole running total).
DiscretePld compose_parts(std::vector<DiscretePld> parts, const PldOptions& o) {
  while (parts.size() > 1) {
    std::vector<DiscretePld> next;
    for (std::size_t i = 0; i + 1 < parts.size(); i += 2) next.push_back(compose(parts[i], parts[i + 1], o.tail));
    if (parts.size() % 2 == 1) next.push_back(std::move(parts.back()));
    parts = std::move(next);
  }
  return std::move(parts.front());
}

// The composition of the entries' one-step PLDs: each entry's `steps` by repeated squaring, then compose_parts.
DiscretePld compose_steps(const Ledger& ledger, const std::vector<DiscretePld>& steps, const PldOptions& o) {
  std::vector<DiscretePld> parts;
  for (std::size_t i = 0; i < ledger.size(); ++i) parts.push_back(self_compose(steps[i], ledger[i].steps, o.tail));
  return compose_parts(std::move(parts), o);
}

// The P-quantile of a loss pair's finite part (S_P(l) = 1 - p_inf - quantile mass), by bisection over [lo, hi].
double loss_quantile(const LossPair& pair, double survival, double lo, double hi) {
  for (int it = 0; it < 200 && hi - lo > 1e-300; ++it) {
    const double mid = lo + (hi - lo) / 2;
    if (pair.survival_p(mid) > survival) lo = mid;
    else hi = mid;
  }
  return hi;
}

// The spread of P's bulk for a loss pair whose finite part has mass `finite`: its interquartile range / 1.349 (a
// normal's standard deviation), the quartiles by bisection over [lo, hi].
double loss_bulk_spread(const LossPair& pair, double finite, double lo, double hi) {
  return (loss_quantile(pair, 0.25 * finite, lo, hi) - loss_quantile(pair, 0.75 * finite, lo, hi)) / 1.349;
}

// How many times (a power of two) finer than the grid h the optimistic one-step PLD of a many-step entry should be
// discretised so that P's bulk (interquartile range / 1.349) spans at least 64 cells, with the step's points times
// that factor at most kMaxGridPoints / 32 (a larger one outgrows the lower pass's work budget once tilted: sigma
// 0.5, q 1e-5 at delta 1e-10 lost its lower bound); 1 when the bulk is already wide or nothing is gained.
double optimistic_refinement(const LossPair& pair, const DiscretePld& step, double h) {
  const double finite = 1 - pair.p_inf;
  if (!(finite > 0.5) || !std::isfinite(pair.support_lo) || step.p.size() < 2) return 1;
  const double lo = pair.support_lo, hi = static_cast<double>(step.offset + static_cast<std::int64_t>(step.p.size())) * h;
  const double bulk = loss_bulk_spread(pair, finite, lo, hi);
  if (!(bulk > 0) || bulk >= 32 * h) return 1;
  double factor = 1;
  while (factor < 4096 && bulk * factor < 64 * h &&
         static_cast<double>(step.p.size()) * factor * 2 <= static_cast<double>(kMaxGridPoints) / 16)
    factor *= 2;
  return factor;
}

// The finest grid a ledger's narrowest step asks for: a quarter of the smallest standard deviation of a step's loss
// under P over its entries and directions, or kFinestGrid when every step is wider than 4 kFinestGrid. The
// connect-the-dots discretisation adds about h^2 / 4 to each step's variance, so on a grid as wide as the step (a
// rarely sampled Gaussian's standard deviation is about q sqrt(e^{1/sigma^2} - 1), 5.3e-6 for sigma 2, q 1e-5) the
// upper bound of 10^6 steps was 43% above its limit (0.0192 for 0.0135); at a quarter, 0.3%. Only steps whose
// bulk (P's interquartile range / 1.349, found by bisection) is narrower than 4 kFinestGrid are measured: their
// standard deviation from the connect-the-dots step on the grid kFinestGrid, less the h^2 / 4 it adds.
double narrow_step_grid(const Ledger& ledger, const std::vector<PairDirection>& dirs, double tail) {
  double finest = kFinestGrid;
  for (const auto& e : ledger)
    for (const auto dir : dirs) {
      const LossPair pair = loss_pair(e, dir);
      const double finite = 1 - pair.p_inf;
      if (!(finite > 0.5) || !std::isfinite(pair.support_lo)) continue;
      // An upper end for the bisection: above P's upper quartile (doubled away from the support's start).
      double hi = pair.support_lo + 1e-12;
      for (int it = 0; it < 64 && pair.survival_p(hi) > 0.25 * finite; ++it) hi = pair.support_lo + 2 * (hi - pair.support_lo);
      if (!(pair.survival_p(hi) <= 0.25 * finite)) continue;
      if (!(loss_bulk_spread(pair, finite, pair.support_lo, hi) < 4 * kFinestGrid)) continue;
      const double h = dyadic_grid(kFinestGrid);
      try {
        // A measurement that only chooses the grid: its work is bounded apart and not charged to the run (whose
        // lower bound, charged after the upper passes, could otherwise be dropped for it).
        PldWorkScope measurement(kNarrowStepWork, "measuring a step's spread", PldWorkScope::Isolated{});
        const DiscretePld d = discretize(pair, h, tail / static_cast<double>(std::max<std::int64_t>(1, e.steps)), true);
        const double cells = standard_deviation_in_cells(d);
        const double variance = (cells * cells - 0.25) * h * h;
        if (variance > 0) finest = std::min(finest, std::sqrt(variance) / 4);
      } catch (const NotApplicable&) {  // GridTooLarge, PldWorkLimit: a step this wide is not narrow
      }
    }
  return std::max(finest, kNarrowestGrid);
}

DiscretePld compose_direction(const Ledger& ledger, PairDirection dir, const PldOptions& o, bool pessimistic) {
  std::vector<DiscretePld> steps = discretize_steps(ledger, dir, o, pessimistic);
  if (pessimistic) return compose_steps(ledger, steps, o);
  // The lower bound: an entry of many steps whose one step is narrower than the grid resolves (a rarely sampled
  // Gaussian: one step's bulk within a cell or two) is discretised on a finer grid and composed there, contracted
  // onto coarser grids as the composition widens (self_compose_widening): each contraction is a post-processing, and
  // its bias is paid per contraction, not per step (docs/pld_accountant.md, 1, "Widening").
  std::vector<DiscretePld> parts;
  for (std::size_t i = 0; i < ledger.size(); ++i) {
    const LedgerEntry& e = ledger[i];
    if (e.steps > 1) {
      const LossPair pair = loss_pair(e, dir, false);
      const double factor = optimistic_refinement(pair, steps[i], o.grid);
      if (factor > 1) {
        try {
          const double tail = o.tail / static_cast<double>(e.steps);
          DiscretePld fine = discretize(pair, o.grid / factor, tail, false, o.tilt);
          apply_tilt(fine, o.tilt, tail);
          parts.push_back(self_compose_widening(fine, e.steps, o.grid, o.tail));
          continue;
        } catch (const GridTooLarge&) {  // the finer grid does not fit: the entry on the common grid
        }
      }
    }
    parts.push_back(self_compose(steps[i], e.steps, o.tail));
  }
  return compose_parts(std::move(parts), o);
}

// compose_direction, and the one-step PLDs of discretize_steps, through the options' memo when there is one.
DiscretePld memo_compose_direction(const Ledger& ledger, PairDirection dir, const PldOptions& o, bool pessimistic) {
  if (!o.memo) return compose_direction(ledger, dir, o, pessimistic);
  return o.memo->get(ledger, dir, pessimistic, o.grid, o.tail, o.tilt, 0, [&] {
    return std::vector<DiscretePld>{compose_direction(ledger, dir, o, pessimistic)};
  }).front();
}
DiscretePld memo_compose_steps(const Ledger& ledger, PairDirection dir, const std::vector<DiscretePld>& steps, const PldOptions& o) {
  if (!o.memo) return compose_steps(ledger, steps, o);
  return o.memo->get(ledger, dir, true, o.grid, o.tail, o.tilt, 0, [&] {
    return std::vector<DiscretePld>{compose_steps(ledger, steps, o)};
  }).front();
}
std::vector<DiscretePld> memo_discretize_steps(const Ledger& ledger, PairDirection dir, const PldOptions& o, bool pessimistic) {
  if (!o.memo) return discretize_steps(ledger, dir, o, pessimistic);
  return o.memo->get(ledger, dir, pessimistic, o.grid, o.tail, o.tilt, 1, [&] { return discretize_steps(ledger, dir, o, pessimistic); });
}

constexpr int kMaxCoarsenings = 8;

// The tilt for a tiny target delta: the lambda minimising the Chernoff bound (sum_e k_e log M_e(lambda) +
// log(1/delta)) / lambda on the probe grid, M_e(lambda) = E_P[e^{lambda L}] of one step's discretised PLD
// (the RDP conversion at order lambda + 1). The tilted composed PLD then has its mass near the epsilon sought.
// Any lambda >= 0 is sound (docs/pld_accountant.md, 5); this one only makes the round-off relative.
double choose_tilt(const Ledger& ledger, PairDirection dir, const PldOptions& probe, double delta) {
  // Per step: the losses and log-masses of its positive points (the logs once, not once per lambda).
  std::vector<std::vector<std::pair<long double, long double>>> points;
  double total_points = 0;
  for (const auto& e : ledger) {
    const LossPair pair = loss_pair(e, dir);
    const DiscretePld d = discretize(pair, probe.grid, probe.tail / static_cast<double>(e.steps), true);
    points.emplace_back();
    for (std::size_t k = 0; k < d.p.size(); ++k)
      if (d.p[k] > 0)
        points.back().emplace_back((d.offset + static_cast<long double>(k)) * d.h, portable::log(static_cast<long double>(d.p[k])));
    // An unbounded loss's mass above the grid (the tail budget, at +inf) still weighs in E[e^{lambda L}]: without it
    // the bound keeps falling with lambda towards the grid's top, and a lambda of 1000 was chosen for a single step
    // of a Poisson-subsampled Gaussian with q = 1e-3 (its grid ends at loss 0.011), which left the tilted PLD one
    // point wide and its bound at 5.2 where rdp gives 0.18 (and refused delta 1e-16). The tail's points, from a grid
    // 64x coarser that reaches survival 1e-300, are added above the grid's top.
    if (!std::isfinite(pair.support_hi) && !d.p.empty()) {
      const long double top = (d.offset + static_cast<long double>(d.p.size()) - 1) * d.h;
      try {
        const DiscretePld deep = discretize(pair, dyadic_grid(64 * probe.grid), 1e-300, true);
        for (std::size_t k = 0; k < deep.p.size(); ++k) {
          const long double loss = (deep.offset + static_cast<long double>(k)) * deep.h;
          if (loss > top && deep.p[k] > 0) points.back().emplace_back(loss, portable::log(static_cast<long double>(deep.p[k])));
        }
      } catch (const GridTooLarge&) {  // a tail too long for any grid: the bound without it (any lambda is sound)
      }
    }
    total_points += static_cast<double>(points.back().size());
  }
  auto bound = [&](double lambda) {
    charge_pld_work(100.0 * total_points);  // one long double exp per point (measured ~100 ns with the loop)
    long double total = portable::log(1 / static_cast<long double>(delta));
    for (std::size_t i = 0; i < points.size(); ++i) {
      long double top = -std::numeric_limits<long double>::infinity();
      for (const auto& [loss, log_p] : points[i]) top = std::max(top, log_p + lambda * loss);
      long double m = 0;
      for (const auto& [loss, log_p] : points[i]) m += portable::exp(log_p + lambda * loss - top);
      total += static_cast<long double>(ledger[i].steps) * (top + portable::log(m));
    }
    return static_cast<double>(total / lambda);
  };
  // Golden-section search on log(lambda) in [1e-3, 1e3] (the bound is quasi-convex in lambda), 30 steps: the
  // bracket shrinks to 13.8 * 0.618^30 = 7e-6 in log(lambda), far below what matters (any lambda is sound).
  double a = portable::log(1e-3), b = portable::log(1e3);
  const double g = 0.6180339887498949;
  double c = b - g * (b - a), d = a + g * (b - a), fc = bound(portable::exp(c)), fd = bound(portable::exp(d));
  for (int it = 0; it < 30; ++it) {
    if (fc < fd) { b = d; d = c; fd = fc; c = b - g * (b - a); fc = bound(portable::exp(c)); }
    else { a = c; c = d; fc = fd; d = a + g * (b - a); fd = bound(portable::exp(d)); }
  }
  return portable::exp(0.5 * (a + b));
}

Interval upper_point(double x) { return std::isfinite(x) ? exact(x) : positive_infinity(); }

// An upper bound on the composed privacy loss in one direction when every step's loss is bounded and never +inf
// (Laplace: sens/b; randomized response and pure: eps; the Poisson-subsampled Gaussian's add direction: -log(1 - q)):
// sum_e steps_e sup L_e, rounded up; +inf otherwise. At any eps at or above it the direction's delta(eps) is exactly 0
// (delta(eps) = E_P[(1 - e^{eps - L})_+]), so its epsilon is at most this whatever delta is: the PLD's bound is capped
// by it, and a delta too small for the PLD's round-off is still answered in such a direction.
double support_bound(const Ledger& ledger, PairDirection dir) {
  Interval sum = exact(0.0);
  for (const auto& e : ledger) {
    const Mechanism& m = e.mechanism;
    const bool sampled = e.subsampled() && e.q < 1;
    Interval top;
    if (sampled && m.kind == MechanismKind::gaussian && e.sampling == Sampling::poisson && dir == PairDirection::add)
      top = -log1p(-exact(e.q));
    else if (sampled) return std::numeric_limits<double>::infinity();
    else if (m.kind == MechanismKind::laplace) top = exact(m.sens) / exact(m.b);
    else if (m.kind == MechanismKind::rr || m.kind == MechanismKind::pure || (m.kind == MechanismKind::approx && m.delta == 0))
      top = exact(m.eps);
    else return std::numeric_limits<double>::infinity();
    sum += exact_int(e.steps) * top;
  }
  return hi_up(sum);
}

// The lower bound's grids relative to the fine one, in the order tried: 4x coarser while every step's loss
// spreads over at least 16 of the coarser cells, else 2x or the fine grid itself. The optimistic discretisation loses
// in second order of h over the step's scale (docs/pld_accountant.md, 1), and long ledgers sit on fine grids that are
// coarse for one step (sigma 0.8, q 0.01, 62500 steps: 16 fine cells per standard deviation; on the 4x coarser grid
// the lower bound was 0 for the upper 31.5). The first grid measures a step's spread by the smaller of its standard
// deviation under P and the spread of P's bulk (the distance between its quartiles over
// 1.349, a normal's standard deviation): a rarely sampled step's standard deviation is its rare large loss, while
// its bulk (the unsampled outcomes) sits in a few cells (sigma 0.8, q 0.001, 10^5 steps at delta 1e-10: standard
// deviation 77 fine cells, bulk 9.6; lower bound 0.87 on the 4x coarser grid, 4.022 on the fine one, upper 4.0697);
// the second, tried where the first does not fit, by the standard deviation alone.
std::vector<double> lower_grid_factors(const std::vector<DiscretePld>& steps) {
  double sd_cells = std::numeric_limits<double>::infinity(), bulk_cells = sd_cells;  // the smallest, in fine cells
  for (const auto& d : steps) {
    const double sd = standard_deviation_in_cells(d);
    if (std::isnan(sd)) continue;
    sd_cells = std::min(sd_cells, sd);
    bulk_cells = std::min(bulk_cells, bulk_spread_in_cells(d));
  }
  auto factor = [](double cells) { return cells >= 64 ? 4.0 : cells >= 32 ? 2.0 : 1.0; };
  std::vector<double> factors{factor(std::min(sd_cells, bulk_cells))};
  if (factor(sd_cells) != factors.back()) factors.push_back(factor(sd_cells));
  return factors;
}

}  // namespace

namespace {

// f(i) for each direction i = 0 .. count - 1: two directions at once (pld_parallel.h), bit-identical results.
void for_each_direction(std::size_t count, const std::function<void(std::size_t)>& f) {
  if (count == 2)
    run_pair([&] { f(0); }, [&] { f(1); });
  else
    for (std::size_t i = 0; i < count; ++i) f(i);
}

// The neighbouring directions to compose: remove only when every entry's pair is symmetric.
std::vector<PairDirection> directions(const Ledger& ledger) {
  bool symmetric = true;
  for (const auto& e : ledger) {
    (void)loss_pair(e, PairDirection::remove);  // NotApplicable early, before any work
    symmetric = symmetric && symmetric_pair(e);
  }
  std::vector<PairDirection> dirs{PairDirection::remove};
  if (!symmetric) dirs.push_back(PairDirection::add);
  return dirs;
}

// The options actually used (`o`: dyadic grid, tail), the fine grid's options (`fine`) and each direction's tilt
// (`tilts`, 0 unless the target delta is tiny): a direction's tilt is chosen for its own PLD, since the two
// directions' losses can lie far apart (a Poisson-subsampled Gaussian's add direction never exceeds
// steps x -log(1 - q), so the remove direction's tilt can leave its round-off above a tiny delta).
void choose_grids(const Ledger& ledger, const std::vector<PairDirection>& dirs, const Target& target,
                  const PldOptions& options, PldOptions& o, PldOptions& fine, std::vector<double>& tilts) {
  const bool given_delta = target.given == Target::Given::delta;
  // The tails moved to +inf count in delta: keep them far below a small target delta.
  o = options;
  o.grid = dyadic_grid(o.grid);
  if (given_delta) o.tail = std::min(o.tail, target.value * 1e-4);
  // The fine grid: as fine as ~170,000 bins over the composed loss range allow (the connect-the-dots error is
  // O(h^2)), at least kFinestGrid or a quarter of the narrowest step's spread (narrow_step_grid); coarser than
  // requested when the range is wide (so the work stays bounded).
  // The range is measured on a 64x coarser probe grid (few points, still a valid PLD), again on finer ones where
  // that grid was far too coarse for the range it measured.
  fine = o;
  tilts.assign(dirs.size(), o.tilt);
  const bool tiny = given_delta && target.value < kTiltBelowDelta;
  if (o.refine || tiny) {
    PldOptions probe = o;
    probe.grid = dyadic_grid(64 * o.grid);
    probe.lower = false;
    probe.tilt = 0;
    // The widest composed loss range of the directions on the probe's grid.
    auto probe_range = [&] {
      std::vector<double> ranges(dirs.size(), 0.0);
      for_each_direction(dirs.size(), [&](std::size_t i) {
        const DiscretePld c = memo_compose_direction(ledger, dirs[i], probe, true);
        ranges[i] = static_cast<double>(c.p.size()) * c.h;
      });
      return *std::max_element(ranges.begin(), ranges.end());
    };
    double range = probe_range();
    // A probe much coarser than the grid its range asks for overstates that range: each step's connect-the-dots
    // spread (about a probe cell) widens the composition by ~sqrt(steps) cells. Steps far narrower than the probe's
    // cells (a rarely sampled Gaussian: sigma 2, q 1e-5, 10^6 steps measured 1.94 on the probe grid 6.3e-3 and 0.065
    // in the limit) are probed again, on the grid 16x coarser than the one asked for, while that is 2x finer. (Only
    // ledgers with a step narrower than 4 kFinestGrid: the others keep the grid of the first probe.)
    const double finest = o.refine ? narrow_step_grid(ledger, dirs, o.tail) : kFinestGrid;
    for (int again = 0; again < kMaxProbeRefinements && finest < kFinestGrid; ++again) {
      const double next = dyadic_grid(16 * std::max(finest, range / kTargetBins));
      if (!(next < probe.grid / 2)) break;
      probe.grid = next;
      range = probe_range();
    }
    if (tiny) {
      for (std::size_t i = 0; i < dirs.size(); ++i) tilts[i] = choose_tilt(ledger, dirs[i], o, target.value);
      o.tilt = tilts[0];
    }
    if (!o.refine) range = 0;
    // Long heterogeneous ledgers pay one discretisation and one convolution per entry: their bin budget shrinks
    // in proportion to the entry count beyond 64.
    const double entries = static_cast<double>(ledger.size());
    const double bins = kTargetBins / std::max(1.0, entries / 128);
    fine = o;
    if (o.refine) fine.grid = dyadic_grid(std::max(finest, range / bins));
  }
}

// The accountant on the grid options.grid (rounded down to a dyadic spacing); GridTooLarge when a grid would
// exceed kMaxGridPoints.
AccountingResult compose_pld_on_grid(const Ledger& ledger, const Ledger& lower_ledger, const Target& target,
                                     const PldOptions& options) {
  const std::vector<PairDirection> dirs = directions(ledger);
  const bool symmetric = dirs.size() == 1;
  AccountingResult r;
  r.accountant = "pld";
  const bool given_delta = target.given == Target::Given::delta;
  // A direction's certified bound: the PLD's, capped by the direction's support bound.
  std::vector<double> caps;
  for (const auto d : dirs) caps.push_back(support_bound(ledger, d));
  auto value = [&](const DiscretePld& pld, std::size_t i) {
    if (given_delta) return std::min(pld_epsilon(pld, target.value), caps[i]);
    return target.value >= caps[i] ? 0.0 : pld_delta(pld, target.value);
  };
  auto report = [&](double fraction, const char* what) {
    if (options.progress) options.progress(fraction, std::string("pld: ") + what);
  };
  report(0, "measuring the loss range");
  PldOptions o, fine;
  std::vector<double> tilts;
  choose_grids(ledger, dirs, target, options, o, fine, tilts);
  report(0.05, "composing");
  // The 4x coarser grid of the screening (still a valid upper bound) and of the optimistic lower bound.
  PldOptions coarse = fine;
  coarse.grid = dyadic_grid(4 * fine.grid);
  double up = 0;
  // The lower bound: the optimistic PLD on the coarse grid of the direction composed first on the fine grid (the
  // hint, else remove), read at o.lower_target. The true value is the larger of the two directions' values, so a
  // lower bound on one direction's is one on it; remove's was the larger of the two in every ledger measured
  // (docs/pld_accountant.md, 6), and the other direction's would double the pass's work. It runs on the helper
  // thread while this thread composes the fine grid, in an isolated work scope (pld_work_budget.h) limited to what
  // is left now; its work is charged to the open scopes only afterwards, so the upper passes see the same charges,
  // and stop at the same point, as if it ran after them. It is dropped (not reported) when it does not fit, or
  // when the upper passes fail.
  const std::size_t first = dirs.size() == 1 || o.fine_first.value_or(PairDirection::remove) == dirs[0] ? 0 : 1;
  // Options x with direction i's tilt.
  auto tilted = [&](PldOptions x, std::size_t i) {
    x.tilt = tilts[i];
    return x;
  };
  const double lower_target = std::isnan(o.lower_target) ? target.value : o.lower_target;
  const double lower_budget = pld_work_remaining();
  std::atomic<bool> upper_failed{false};
  std::optional<double> low;
  double low_work = 0;
  std::vector<double> lower_grids;  // set from the fine grid's one-step PLDs below, before the lower pass starts
  auto lower_pass = [&] {
    if (!o.lower) return;
    // The first grid within half the budget; where it does not fit (work, size), the second within what is left.
    // The work of the attempt that gives the bound is charged (a failed one's, at most half the budget, is not).
    double spent = 0;
    for (std::size_t g = 0; g < lower_grids.size(); ++g) {
      const bool last = g + 1 == lower_grids.size();
      PldOptions grid = coarse;
      grid.grid = lower_grids[g];
      PldWorkScope isolated(last ? lower_budget - spent : lower_budget / 2, "the lower bound",
                            PldWorkScope::Isolated{&upper_failed});
      try {
        const DiscretePld pld = memo_compose_direction(lower_ledger, dirs[first], tilted(grid, first), false);
        low = given_delta ? pld_epsilon(pld, lower_target) : pld_delta(pld, lower_target);
        low_work = isolated.used();
        return;
      } catch (const NotApplicable&) {  // PldWorkLimit, GridTooLarge: the next grid, else no lower bound
        spent += isolated.used();
      }
    }
  };
  // The upper passes on this thread; a failure stops the lower pass at its next charge.
  auto upper_pass = [&](const std::function<void()>& f) {
    try {
      f();
    } catch (...) {
      upper_failed = true;
      throw;
    }
  };
  std::size_t worst = 0;
  // The fine grid's one-step PLDs first, their survival functions on both threads (discretize), so the pass that
  // takes longest starts with them done.
  std::vector<DiscretePld> fine_steps;
  const PldOptions fine_first = tilted(fine, first);
  upper_pass([&] { fine_steps = memo_discretize_steps(ledger, dirs[first], fine_first, true); });
  for (const double f : lower_grid_factors(fine_steps)) lower_grids.push_back(dyadic_grid(f * fine.grid));
  if (dirs.size() == 1) {
    auto fine_pass = [&] { upper_pass([&] { up = value(memo_compose_steps(ledger, dirs[first], fine_steps, fine_first), first); }); };
    if (o.lower)
      run_pair(fine_pass, lower_pass);
    else
      fine_pass();
  } else {
    // One direction on the fine grid (the hint, else remove: the worse one for every Poisson-subsampled Gaussian
    // we measured) while the other is screened on the coarse grid at the same time (then the lower pass, on the
    // helper thread); the other is recomputed on the fine grid only when its coarse bound exceeds that value.
    // Sound whichever is first: the reported value is at least every direction's certified bound (a coarse bound
    // is one too).
    const std::size_t other = 1 - first;
    double screened = 0;
    run_pair([&] { upper_pass([&] { up = value(memo_compose_steps(ledger, dirs[first], fine_steps, fine_first), first); }); },
             [&] {
               upper_pass([&] { screened = value(memo_compose_direction(ledger, dirs[other], tilted(coarse, other), true), other); });
               lower_pass();
             });
    worst = first;
    report(0.55, "composing the other direction");
    if (screened > up) {
      const double v = value(memo_compose_direction(ledger, dirs[other], tilted(fine, other), true), other);
      if (v > up) up = v, worst = other;
    }
  }
  // The lower pass's work, charged now: a lower bound that would not have fit after the upper passes is dropped.
  if (low) try {
      charge_pld_work(low_work);
    } catch (const PldWorkLimit&) {
      low.reset();
    }
  if (options.worse) *options.worse = dirs[worst];
  report(1, "done");
  char grid_text[32];
  std::snprintf(grid_text, sizeof grid_text, "%.3g", fine.grid);
  r.note = std::string("privacy loss distribution, connect-the-dots pessimistic discretisation (Doroshenko et al. "
                       "2022) on a loss grid of ") + grid_text + ", FFT composition with bounded round-off, " +
           (symmetric ? "symmetric pair" : "worse of the add and remove directions") +
           (low ? std::string("; ") + kPldLowerBoundNote : std::string());
  // The true value is the max over directions; each direction's bracket contains its own.
  if (given_delta) {
    if (!std::isfinite(up))
      throw NotApplicable("accountant 'pld': --delta " + format_target(target.value) +
                          " is below the PLD's floating-point error budget (mass at infinite loss and round-off); "
                          "use rdp or auto");
    r.epsilon = upper_point(up);
    r.delta = exact(target.value);
  } else {
    r.epsilon = exact(target.value);
    r.delta = exact(up);
  }
  if (low) r.lower = exact(*low);
  return r;
}

// The up-front refusals (before any work): ledgers whose PLD would take minutes or cannot be held on any grid.
void refuse_unsupported(const Ledger& ledger, const Target& target) {
  if (ledger.empty()) throw InputError("-m: at least one mechanism is required");
  // delta = 0 is below any PLD's floating-point error budget: refuse before any work (it took seconds).
  if (target.given == Target::Given::delta && target.value == 0)
    throw NotApplicable("accountant 'pld' needs --delta > 0 (use pure for delta = 0)");
  // Work bound: each entry costs log2(steps) convolutions, and a loss range that grows with the steps forces
  // repeated coarsening; beyond 10^7 composed steps that took minutes. Refuse up front (auto then answers with
  // rdp, optimal or advanced, which are closed forms in the number of steps).
  constexpr double kMaxComposedSteps = 1e7;
  double total_steps = 0;
  for (const auto& e : ledger) total_steps += static_cast<double>(e.steps);
  // A Gaussian with sens/sigma beyond 1e4 has a loss range no grid can hold (mu^2/2 > 5e7): refuse at once.
  for (const auto& e : ledger)
    if (e.mechanism.kind == MechanismKind::gaussian && e.mechanism.sens / e.mechanism.sigma > 1e4)
      throw NotApplicable("accountant 'pld': not supported yet for a Gaussian with sens/sigma above 1e4 (here " +
                          format_input(e.mechanism.sens / e.mechanism.sigma) + "); use optimal, rdp or auto");
  // A per-step pure epsilon beyond 1e300 (laplace:b=1e-306, pure:eps=1e307, or sens/b overflowing to inf) leaves
  // no representable grid spacing for its loss range: refuse (it was an internal error, or a hang at inf).
  for (const auto& e : ledger) {
    const Mechanism& m = e.mechanism;
    const double eps = m.kind == MechanismKind::laplace ? m.sens / m.b
                       : m.kind == MechanismKind::rr || m.kind == MechanismKind::pure || m.kind == MechanismKind::approx
                           ? m.eps
                           : 0;
    if (!(eps <= 1e300))
      throw NotApplicable("accountant 'pld': not supported for a per-step epsilon above 1e300 (here " +
                          format_input(eps) + "); use pure, optimal or auto");
  }
  if (total_steps > kMaxComposedSteps)
    throw NotApplicable("accountant 'pld': not supported yet for more than 1e7 composed steps (this ledger has " +
                        format_input(total_steps) + "); use rdp, optimal, advanced or auto");
}

}  // namespace

double pld_fine_grid(const Ledger& ledger, const Target& target, const PldOptions& options) {
  refuse_unsupported(ledger, target);
  PldOptions o, fine;
  std::vector<double> tilts;
  const Ledger grouped = group_pld_entries(ledger).upper;
  choose_grids(grouped, directions(grouped), target, options, o, fine, tilts);
  return fine.grid;
}

AccountingResult compose_pld(const Ledger& ledger, const Target& target, const PldOptions& options) {
  refuse_unsupported(ledger, target);
  // Every discretisation and convolution is charged against this run's work limit (and any enclosing one, e.g.
  // a calibration's): beyond it the run stops with PldWorkLimit, a NotApplicable, instead of running for minutes.
  PldWorkScope work(kPldWorkPerRun, "this PLD run");
  // A loss range too wide for the grid (huge eps, tiny Laplace scale, many steps): the same accountant on a
  // coarser grid is still a certified bound (looser), so coarsen until every grid fits, a bounded number of times.
  PldOptions o = options;
  // Thousands of distinct Gaussian entries: composed as groups at their least private parameters for the upper bound,
  // most private for the lower (pld_entry_groups.h); the grouped ledger has at most kMaxPldDistinctEntries entries.
  const GroupedLedger groups = group_pld_entries(ledger);
  // The lower bound holds at the typed decimals: from the optimistic ends of the entries when they are given.
  const Ledger lower = options.lower_ledger ? group_pld_entries(*options.lower_ledger).lower : groups.lower;
  // A lower bound only from pairs some neighbouring datasets attain: an entry whose pair only covers its mechanism
  // leaves the ledger without one (the optimistic PLD would bound the cover, which may exceed the true value).
  std::optional<std::string> unattained;
  for (const auto& e : ledger)
    if (!unattained) unattained = unattained_lower_pair(e);
  if (unattained) o.lower = false;
  for (int attempt = 0;; ++attempt) {
    try {
      AccountingResult r = compose_pld_on_grid(groups.upper, lower, target, o);
      if (unattained && options.lower) r.note += "; no certified lower bound: " + *unattained;
      if (groups.resolution > 0) {
        char text[320];
        std::snprintf(text, sizeof text,
                      "; %zu distinct entries composed as %zu groups whose noise multipliers and sampling rates lie "
                      "within %.2g relative (each at its least private member for the upper bound, its most private "
                      "for the lower)",
                      groups.distinct, groups.upper.size(), groups.resolution);
        r.note += text;
      }
      return r;
    } catch (const GridTooLarge& e) {
      if (attempt == kMaxCoarsenings)
        throw NotApplicable(std::string(e.what()) + "; use optimal, rdp or auto");
      // Coarser than the grid that did not fit, where that was finer than the one requested (the fine grid the
      // range chose: sigma 1, q 1e-4, 10^4 steps at delta 1e-10 failed on 9.5e-6, and the requested 1e-4 times the
      // factor gave 6.1e-4 and the upper bound 0.1246, where 6.1e-5 gives 0.0843).
      const double factor = std::max(2.0, 4 * e.points / static_cast<double>(kMaxGridPoints));
      o.grid = std::min(o.grid, e.grid) * factor;
      o.refine = false;
    }
  }
}

}  // namespace dpl
