// SPDX-License-Identifier: Apache-2.0
#include "accounting/composition/running_budget.h"

#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/pld/pld_running.h"
#include "accounting/pld/pld_work_budget.h"
#include "accounting/rdp/rdp_running.h"

#include <algorithm>
#include <optional>

namespace dpl {

namespace {

// The PLD work of one running budget (the whole ledger and the checkpoints; about 5 s of CPU, pld_work_budget.h):
// a per-step log of 10^5 lines with a checkpoint every 1000 steps takes 3.1e9 (one running composition, 100 checkpoints).
constexpr double kPldWorkPerRunningColumn = 5e9;
// The PLD's running composition evaluates at most this many checkpoints (evenly spread; each costs a convolution of
// the composed PLD so far).
constexpr std::size_t kPldRunningEvaluations = 100;
// The work of the checkpoints of any other accountant's column, in units of about a microsecond of CPU on the
// reference machine (0.5 s), counted, not timed, so that the same ledger gets the same checkpoints on every machine.
constexpr double kWorkPerRunningColumn = 5e5;

// The counted work of one evaluation of `kind` on a prefix of `entries` entries (measured on the reference machine:
// basic, pure and advanced about 60-100 us per entry; rdp 250 us per entry; optimal about 100 ms for a Gaussian
// ledger whatever its size).
double running_evaluation_work(AccountantKind kind, std::size_t entries) {
  const double n = static_cast<double>(entries);
  switch (kind) {
    case AccountantKind::optimal: return 1e5 + 100 * n;
    case AccountantKind::rdp: return 1e3 + 300 * n;
    case AccountantKind::advanced: return 100 + 100 * n;
    default: return 100 + 60 * n;
  }
}

// Suffix minimum: a bound at a later checkpoint bounds every earlier one (the prefix is post-processing).
void finish_running_series(RunningSeries& s) {
  std::optional<Interval> best;
  for (std::size_t i = s.bound.size(); i-- > 0;) {
    if (!s.bound[i]) continue;
    if (!best || hi(*s.bound[i]) < hi(*best)) best = s.bound[i];
    else s.bound[i] = best;
  }
}

}  // namespace

std::vector<RunningCheckpoint> running_checkpoints(const Ledger& ledger, std::int64_t every,
                                                   std::size_t max_checkpoints) {
  if (every < 0) throw InputError("--every: must be a whole number >= 0 (0: one checkpoint per entry)");
  std::int64_t total = 0;
  for (const auto& e : ledger)
    if (__builtin_add_overflow(total, e.steps, &total))
      throw InputError("--running: the ledger has more than 9.2e18 steps");
  // Counted before any is made (a per-step log of 10^6 lines with --every 0 is refused at once).
  const std::uint64_t count = every == 0 ? ledger.size()
                                         : static_cast<std::uint64_t>(total / every + (total % every != 0 ? 1 : 0));
  if (count > max_checkpoints) {
    if (every == 0)
      throw InputError("--running: " + std::to_string(count) + " entries, more than " +
                       std::to_string(max_checkpoints) + " checkpoints (one after each entry); give --every K");
    throw InputError("--every " + std::to_string(every) + ": " + std::to_string(count) + " checkpoints, more than " +
                     std::to_string(max_checkpoints) + "; use a larger --every");
  }
  std::vector<RunningCheckpoint> out;
  out.reserve(count);
  std::int64_t start = 0, next = every;  // steps before entry i; the next multiple of `every`
  for (std::size_t i = 0; i < ledger.size(); ++i) {
    const std::int64_t end = start + ledger[i].steps;
    if (every == 0) {
      out.push_back({i, ledger[i].steps, end});
    } else {
      // Every `every` steps of the whole ledger, whatever the entries' sizes (one line per step included).
      for (; next <= end; next = next > total - every ? total + 1 : next + every) out.push_back({i, next - start, next});
      if (end == total && (out.empty() || out.back().total_steps != total)) out.push_back({i, ledger[i].steps, total});
    }
    start = end;
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
    // The PLD's work here (the whole ledger when the caller has not computed it, and the checkpoints) shares one
    // limit (kPldWorkPerRunningColumn, about 5 s of CPU) on top of each run's own: a ledger whose checkpoints do
    // not fit loses its pld column, with a note, not the answer.
    std::optional<PldWorkScope> pld_work;
    if (kind == AccountantKind::pld) pld_work.emplace(kPldWorkPerRunningColumn, "the running budget's pld column");
    try {
      const auto reuse = std::find_if(known.begin(), known.end(),
                                      [&](const AccountingResult& k) { return k.accountant == to_string(kind); });
      const AccountingResult whole = reuse != known.end() ? *reuse : compose(ledger, target, kind);
      s.bound[n - 1] = given_delta ? whole.epsilon : whole.delta;
    } catch (const NotApplicable& e) {
      rb.not_applicable.push_back(to_string(kind) + ": " + e.what());
      continue;
    }
    if (kind == AccountantKind::pld && given_delta) {
      // One running composition on one grid (pld_running.h); where it does not apply (a delta below 1e-9, more
      // groups of entries than the PLD composes), the checkpoints' own compositions below.
      bool done = false;
      try {
        const auto eps = pld_running_epsilon(ledger, rb.checkpoints, target.value,
                                             std::min(max_evaluations, kPldRunningEvaluations));
        for (std::size_t i = 0; i + 1 < n; ++i)
          if (eps[i]) s.bound[i] = exact(*eps[i]);
        done = true;
      } catch (const PldWorkLimit& e) {
        rb.not_applicable.push_back(to_string(kind) + ": left out of the running budget (it answers for the whole "
                                    "ledger): " + e.what());
        continue;
      } catch (const NotApplicable&) {
      }
      if (done) {
        if (progress) progress(static_cast<double>(a + 1) / static_cast<double>(kinds.size()), "pld checkpoints");
        finish_running_series(s);
        rb.series.push_back(std::move(s));
        continue;
      }
    }
    if (kind == AccountantKind::rdp && given_delta) {
      // Cumulative: every checkpoint for about the cost of the final budget (rdp_running.h).
      const auto all = rdp_running_epsilon(ledger, rb.checkpoints, target.value);
      // The last checkpoint keeps compose()'s value (the column ends at the final budget).
      for (std::size_t i = 0; i + 1 < n; ++i) s.bound[i] = all[i];
    }
    // Evenly spread evaluations (the last one is done above), coarse to fine: every other one, then the ones
    // between, and so on, so that the column is evenly covered wherever its counted work (kWorkPerRunningColumn)
    // runs out; an accountant whose one evaluation takes 55 ms (optimal on a composed Gaussian at mu = 25) or
    // grows with the ledger (advanced over thousands of entries) gets fewer checkpoints, with a note.
    const std::size_t budget = std::max<std::size_t>(2, kind == AccountantKind::pld ? max_evaluations / 20 : max_evaluations);
    const std::size_t m = std::min(n, budget);
    std::vector<std::size_t> order;  // indices j < m - 1, coarse to fine
    std::vector<bool> queued(m, false);
    std::size_t stride = 1;
    while (stride * 2 < m) stride *= 2;
    for (; stride >= 1; stride /= 2)
      for (std::size_t j = stride - 1; j + 1 < m; j += stride)
        if (!queued[j]) queued[j] = true, order.push_back(j);
    double work = 0;
    std::size_t evaluated = 0;
    try {
      for (std::size_t j : order) {
        const std::size_t i = m == n ? j : (j + 1) * (n - 1) / m;  // strictly below n - 1
        if (i >= n - 1 || s.bound[i]) continue;
        work += running_evaluation_work(kind, rb.checkpoints[i].entry + 1);
        if (kind != AccountantKind::pld && work > kWorkPerRunningColumn) {
          rb.notes.push_back(to_string(kind) + ": evaluated at " + std::to_string(evaluated + 1) + " of the " +
                             std::to_string(m) + " planned checkpoints (its work for the column, about 0.5 s of CPU, "
                             "ran out; the others carry the next evaluated bound)");
          break;
        }
        const AccountingResult r = compose(prefix_ledger(ledger, rb.checkpoints[i]), target, kind);
        s.bound[i] = given_delta ? r.epsilon : r.delta;
        ++evaluated;
        if (progress)
          progress((static_cast<double>(a) + static_cast<double>(evaluated) / static_cast<double>(m)) /
                       static_cast<double>(kinds.size()),
                   to_string(kind) + " checkpoint " + std::to_string(evaluated) + " of " + std::to_string(m));
      }
    } catch (const NotApplicable& e) {
      rb.not_applicable.push_back(to_string(kind) + ": left out of the running budget (it answers for the whole "
                                  "ledger): " + e.what());
      continue;
    }
    finish_running_series(s);
    rb.series.push_back(std::move(s));
  }
  return rb;
}

}  // namespace dpl
