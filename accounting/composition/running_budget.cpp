#include "accounting/composition/running_budget.h"

#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/rdp/rdp_running.h"

#include <algorithm>

namespace dpl {

std::vector<RunningCheckpoint> running_checkpoints(const Ledger& ledger, std::int64_t every,
                                                   std::size_t max_checkpoints) {
  if (every < 0) throw InputError("--every: must be a whole number >= 0 (0: one checkpoint per entry)");
  std::vector<RunningCheckpoint> out;
  std::int64_t total = 0;
  for (std::size_t i = 0; i < ledger.size(); ++i) {
    const std::int64_t steps = ledger[i].steps;
    if (every > 0 && steps > every) {
      const std::int64_t inner = (steps - 1) / every;  // checkpoints strictly inside the entry
      if (out.size() + static_cast<std::size_t>(inner) + 1 > max_checkpoints)
        throw InputError("--every " + std::to_string(every) + ": more than " + std::to_string(max_checkpoints) +
                         " checkpoints; use a larger --every");
      for (std::int64_t k = every; k < steps; k += every) out.push_back({i, k, total + k});
    }
    total += steps;
    out.push_back({i, steps, total});
    if (out.size() > max_checkpoints)
      throw InputError("--running: more than " + std::to_string(max_checkpoints) + " checkpoints");
  }
  return out;
}

Ledger prefix_ledger(const Ledger& ledger, const RunningCheckpoint& c) {
  Ledger p(ledger.begin(), ledger.begin() + static_cast<std::ptrdiff_t>(c.entry) + 1);
  p.back().steps = c.steps_in_entry;
  return p;
}

RunningBudget running_budget(const Ledger& ledger, const Target& target, const std::vector<AccountantKind>& kinds,
                             std::int64_t every, std::size_t max_evaluations,
                             const std::function<void(double, const std::string&)>& progress,
                             const std::vector<AccountingResult>& known) {
  RunningBudget rb;
  rb.checkpoints = running_checkpoints(ledger, every);
  const std::size_t n = rb.checkpoints.size();
  const bool given_delta = target.given == Target::Given::delta;
  for (std::size_t a = 0; a < kinds.size(); ++a) {
    const AccountantKind kind = kinds[a];
    if (kind == AccountantKind::automatic) throw std::logic_error("running_budget: automatic is not an accountant");
    RunningSeries s{to_string(kind), std::vector<std::optional<Interval>>(n)};
    try {
      const auto reuse = std::find_if(known.begin(), known.end(),
                                      [&](const AccountingResult& k) { return k.accountant == to_string(kind); });
      const AccountingResult whole = reuse != known.end() ? *reuse : compose(ledger, target, kind);
      s.bound[n - 1] = given_delta ? whole.epsilon : whole.delta;
    } catch (const NotApplicable& e) {
      rb.not_applicable.push_back(to_string(kind) + ": " + e.what());
      continue;
    }
    if (kind == AccountantKind::rdp && given_delta) {
      // Cumulative: every checkpoint for about the cost of the final budget (rdp_running.h).
      const auto all = rdp_running_epsilon(ledger, rb.checkpoints, target.value);
      // The last checkpoint keeps compose()'s value (the column ends at the final budget).
      for (std::size_t i = 0; i + 1 < n; ++i) s.bound[i] = all[i];
    }
    // Evenly spread evaluations (the last one is done above).
    const std::size_t budget = std::max<std::size_t>(2, kind == AccountantKind::pld ? max_evaluations / 20 : max_evaluations);
    const std::size_t m = std::min(n, budget);
    for (std::size_t j = 0; j + 1 < m; ++j) {
      const std::size_t i = m == n ? j : (j + 1) * (n - 1) / m;  // strictly below n - 1
      if (i >= n - 1 || s.bound[i]) continue;
      const AccountingResult r = compose(prefix_ledger(ledger, rb.checkpoints[i]), target, kind);
      s.bound[i] = given_delta ? r.epsilon : r.delta;
      if (progress)
        progress((static_cast<double>(a) + static_cast<double>(j + 1) / static_cast<double>(m)) /
                     static_cast<double>(kinds.size()),
                 to_string(kind) + " checkpoint " + std::to_string(j + 1) + " of " + std::to_string(m));
    }
    // Suffix minimum: a bound at a later checkpoint bounds every earlier one (the prefix is post-processing).
    std::optional<Interval> best;
    for (std::size_t i = n; i-- > 0;) {
      if (!s.bound[i]) continue;
      if (!best || hi(*s.bound[i]) < hi(*best)) best = s.bound[i];
      else s.bound[i] = best;
    }
    rb.series.push_back(std::move(s));
  }
  return rb;
}

}  // namespace dpl
