// SPDX-License-Identifier: Apache-2.0
#include "accounting/pld/pld_running.h"

#include "accounting/errors.h"
#include "accounting/mechanisms/ledger_file.h"
#include "accounting/mechanisms/same_step.h"
#include "accounting/pld/discrete_pld.h"
#include "accounting/pld/loss_pair.h"
#include "accounting/pld/pld_accountant.h"
#include "accounting/pld/pld_entry_groups.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

namespace dpl {

namespace {

// compose_pld tilts every PLD below this target delta (pld_accountant.cpp, kTiltBelowDelta); the running
// composition is untilted.
constexpr double kRunningUntiltedDelta = 1e-9;
// Segment PLDs kept for reuse (a per-step log of one mechanism has one or two distinct segments).
constexpr std::size_t kMaxKeptSegments = 16;

// The PLD of the steps of one segment (count steps of each unit), in one direction: each unit's steps by repeated
// squaring, the units pairwise (as compose_pld's compose_steps).
DiscretePld segment_pld(const std::vector<std::pair<std::size_t, std::int64_t>>& counts,
                        const std::vector<DiscretePld>& one_step, double tail) {
  std::vector<DiscretePld> parts;
  for (const auto& [unit, count] : counts) parts.push_back(self_compose(one_step[unit], count, tail));
  while (parts.size() > 1) {
    std::vector<DiscretePld> next;
    for (std::size_t i = 0; i + 1 < parts.size(); i += 2) next.push_back(compose(parts[i], parts[i + 1], tail));
    if (parts.size() % 2 == 1) next.push_back(std::move(parts.back()));
    parts = std::move(next);
  }
  return std::move(parts.front());
}

}  // namespace

std::vector<std::optional<double>> pld_running_epsilon(const Ledger& ledger,
                                                       const std::vector<RunningCheckpoint>& checkpoints,
                                                       double delta, std::size_t max_evaluations) {
  const std::size_t n = checkpoints.size();
  std::vector<std::optional<double>> out(n);
  if (!(delta >= kRunningUntiltedDelta))
    throw NotApplicable("accountant 'pld': the running composition needs --delta >= 1e-9");
  if (n < 2 || max_evaluations == 0) return out;
  // The ledger's distinct steps (identical entries merged, as compose() does), then grouped as compose_pld groups
  // them: every entry is one step of its group's least private member (a dominating pair), so every running value
  // bounds the prefix's epsilon from above.
  Ledger distinct;
  std::vector<std::size_t> distinct_of(ledger.size());
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < ledger.size(); ++i) {
    const LedgerEntry& e = ledger[i];
    if (i > 0 && same_step(e, ledger[i - 1])) {
      distinct_of[i] = distinct_of[i - 1];
    } else {
      LedgerEntry one = e;
      one.steps = 1;
      const auto [it, fresh] = index.try_emplace(to_spec(one), distinct.size());
      if (fresh) distinct.push_back(one), distinct.back().steps = 0;
      distinct_of[i] = it->second;
    }
    std::int64_t& total = distinct[distinct_of[i]].steps;
    if (__builtin_add_overflow(total, e.steps, &total))
      throw InputError("-m: the identical entries add up to more than 9.2e18 steps");
  }
  const GroupedLedger groups = group_pld_entries(distinct);
  const Ledger& units = groups.upper;
  if (units.size() > kMaxPldDistinctEntries)
    throw NotApplicable("accountant 'pld': more than " + std::to_string(kMaxPldDistinctEntries) +
                        " groups of entries for the running composition");
  // One grid for every checkpoint: the whole ledger's fine grid (the prefixes' loss ranges are narrower).
  const Target target = Target::for_delta(delta);
  PldOptions options;
  const double grid = dyadic_grid(pld_fine_grid(distinct, target, options));
  const double tail = std::min(options.tail, delta * 1e-4);
  std::vector<PairDirection> dirs{PairDirection::remove};
  if (!std::all_of(units.begin(), units.end(), [](const LedgerEntry& e) { return symmetric_pair(e); }))
    dirs.push_back(PairDirection::add);
  // One step of each unit in each direction; the per-step tail is the unit's share, as in compose_pld.
  std::vector<std::vector<DiscretePld>> one_step(dirs.size());
  for (std::size_t d = 0; d < dirs.size(); ++d)
    for (const auto& u : units) {
      const double step_tail = tail / static_cast<double>(u.steps);
      one_step[d].push_back(discretize(loss_pair(u, dirs[d], true), grid, step_tail, true));
    }
  // The evaluated checkpoints: all but the last, or max_evaluations of them evenly spread (ending just before it).
  const std::size_t m = std::min(n - 1, max_evaluations);
  std::vector<std::size_t> evaluated;
  for (std::size_t j = 0; j < m; ++j) evaluated.push_back(m == n - 1 ? j : (j + 1) * (n - 1) / m - 1);
  std::vector<DiscretePld> running(dirs.size());
  std::map<std::vector<std::pair<std::size_t, std::int64_t>>, std::vector<DiscretePld>> kept;
  std::size_t entry = 0;
  std::int64_t used_in_entry = 0, done = 0;
  for (std::size_t k = 0; k < evaluated.size(); ++k) {
    // The steps between the previous evaluated checkpoint and this one, per unit.
    std::map<std::size_t, std::int64_t> count;
    const std::int64_t until = checkpoints[evaluated[k]].total_steps;
    while (done < until) {
      const std::int64_t take = std::min(ledger[entry].steps - used_in_entry, until - done);
      count[groups.group_of[distinct_of[entry]]] += take;
      done += take, used_in_entry += take;
      if (used_in_entry == ledger[entry].steps) ++entry, used_in_entry = 0;
    }
    const std::vector<std::pair<std::size_t, std::int64_t>> key(count.begin(), count.end());
    auto it = kept.find(key);
    if (it == kept.end()) {
      if (kept.size() >= kMaxKeptSegments) kept.clear();
      std::vector<DiscretePld> segment;
      for (std::size_t d = 0; d < dirs.size(); ++d) segment.push_back(segment_pld(key, one_step[d], tail));
      it = kept.emplace(key, std::move(segment)).first;
    }
    double eps = 0;
    for (std::size_t d = 0; d < dirs.size(); ++d) {
      running[d] = k == 0 ? it->second[d] : compose(running[d], it->second[d], tail);
      eps = std::max(eps, pld_epsilon(running[d], delta));
    }
    if (std::isfinite(eps)) out[evaluated[k]] = eps;
  }
  return out;
}

}  // namespace dpl
