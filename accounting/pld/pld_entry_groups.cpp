// SPDX-License-Identifier: Apache-2.0
#include "accounting/pld/pld_entry_groups.h"

#include "accounting/numeric/portable_math.h"
#include "accounting/errors.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <tuple>

namespace dpl {

namespace {

constexpr double kMaxGroupWidth = 0x1p-6;  // in log2 of sigma/sens and of q

bool groupable(const LedgerEntry& e) {
  return e.mechanism.kind == MechanismKind::gaussian && (e.sampling == Sampling::none || e.sampling == Sampling::poisson);
}

// sigma_a / sens_a < sigma_b / sens_b, exactly: sigma_a sens_b < sigma_b sens_a with each product as the unevaluated
// sum p + e of two doubles (TwoProduct by fma: exact).
bool less_noise(const Mechanism& a, const Mechanism& b) {
  const double p1 = a.sigma * b.sens, e1 = std::fma(a.sigma, b.sens, -p1);
  const double p2 = b.sigma * a.sens, e2 = std::fma(b.sigma, a.sens, -p2);
  return p1 < p2 || (p1 == p2 && e1 < e2);
}

using Key = std::tuple<int, std::int64_t, std::int64_t>;  // sampling, noise bin, rate bin

std::map<Key, std::vector<std::size_t>> bins(const Ledger& ledger, double width) {
  std::map<Key, std::vector<std::size_t>> out;
  for (std::size_t i = 0; i < ledger.size(); ++i) {
    const LedgerEntry& e = ledger[i];
    if (!groupable(e)) continue;
    const double z = portable::log2(e.mechanism.sigma / e.mechanism.sens), lq = portable::log2(e.q);
    out[{static_cast<int>(e.sampling), static_cast<std::int64_t>(std::floor(z / width)),
         static_cast<std::int64_t>(std::floor(lq / width))}].push_back(i);
  }
  return out;
}

}  // namespace

GroupedLedger group_pld_entries(const Ledger& ledger) {
  GroupedLedger g;
  g.distinct = ledger.size();
  g.group_of.resize(ledger.size());
  if (ledger.size() <= kMaxPldDistinctEntries) {
    g.upper = g.lower = ledger;
    for (std::size_t i = 0; i < ledger.size(); ++i) g.group_of[i] = i;
    return g;
  }
  std::size_t others = 0;
  for (const auto& e : ledger) others += groupable(e) ? 0 : 1;
  // The width doubles while the groups do not fit, up to kMaxGroupWidth (1.1% relative): wider groups would cost more
  // tightness than the composition of the distinct entries on a coarser grid (1,000 entries whose sigma and q vary
  // independently needed 9%: 43.23 against 41.18 ungrouped).
  double width = 0x1p-10;
  auto b = bins(ledger, width);
  while (b.size() + others > kMaxPldDistinctEntries && width < kMaxGroupWidth) b = bins(ledger, width *= 2);
  for (std::size_t i = 0; i < ledger.size(); ++i)
    if (!groupable(ledger[i])) {
      g.group_of[i] = g.upper.size();
      g.upper.push_back(ledger[i]), g.lower.push_back(ledger[i]);
    }
  for (const auto& [key, members] : b) {
    std::size_t least = members.front(), most = members.front();
    double q_max = 0, q_min = std::numeric_limits<double>::infinity();
    std::int64_t steps = 0;
    for (const std::size_t i : members) {
      const LedgerEntry& e = ledger[i];
      if (less_noise(e.mechanism, ledger[least].mechanism)) least = i;
      if (less_noise(ledger[most].mechanism, e.mechanism)) most = i;
      q_max = std::max(q_max, e.q), q_min = std::min(q_min, e.q);
      if (__builtin_add_overflow(steps, e.steps, &steps))
        throw InputError("-m: the grouped entries add up to more than 9.2e18 steps");
    }
    for (const std::size_t i : members) g.group_of[i] = g.upper.size();
    LedgerEntry up = ledger[least], down = ledger[most];
    up.q = q_max, down.q = q_min, up.steps = down.steps = steps;
    g.upper.push_back(up);
    g.lower.push_back(down);
  }
  // log2 of a ratio below 2^width apart: the relative resolution 2^width - 1 (a bin may also join two values just
  // across the rounding of log2, which adds nothing measurable).
  g.resolution = portable::exp2(width) - 1;
  if (g.upper.size() == ledger.size()) {  // nothing merged: the ledger as it is
    g.upper = g.lower = ledger;
    g.resolution = 0;
    for (std::size_t i = 0; i < ledger.size(); ++i) g.group_of[i] = i;
  }
  return g;
}

}  // namespace dpl
