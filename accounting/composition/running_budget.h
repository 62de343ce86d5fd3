// SPDX-License-Identifier: Apache-2.0
// The running budget of a ledger (the privacy odometer of a training run): a certified epsilon after each entry,
// or every k-th step of the run (whatever the entries' sizes), for every accountant that applies.
// Monotone by construction: the prefix of a composition is a post-processing of the whole, so a bound for a
// later checkpoint also bounds every earlier one; each column is replaced by its suffix minimum, which keeps
// every value a certified upper bound, makes the column non-decreasing, and ends it at compose()'s value.
#pragma once

#include "accounting/composition/accounting_result.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dpl {

struct RunningCheckpoint {
  std::size_t entry = 0;            // 0-based index of the ledger entry the checkpoint is in
  std::int64_t steps_in_entry = 0;  // steps of that entry done at the checkpoint (1..steps)
  std::int64_t total_steps = 0;     // steps of the whole ledger done (sum over entries)
};

struct RunningSeries {
  std::string accountant;
  std::vector<std::optional<Interval>> bound;  // per checkpoint (epsilon for a delta target, else delta); nullopt
                                               // where this accountant was not evaluated (sparser for slow ones)
};

struct RunningBudget {
  std::vector<RunningCheckpoint> checkpoints;
  std::vector<RunningSeries> series;           // one per accountant that applies to the whole ledger
  std::vector<std::string> not_applicable;     // "accountant: reason"
  std::vector<std::string> notes;              // "accountant: evaluated at k of m checkpoints ..." and the like
};

// every == 0: after each entry. every = K > 0: after every K steps of the whole ledger (steps K, 2K, ...; a
// checkpoint may fall inside an entry or span many one-step entries) and after the last step. Throws InputError,
// before making any, if there would be more than `max_checkpoints`.
std::vector<RunningCheckpoint> running_checkpoints(const Ledger& ledger, std::int64_t every,
                                                   std::size_t max_checkpoints = 100000);
// The ledger up to a checkpoint.
Ledger prefix_ledger(const Ledger& ledger, const RunningCheckpoint& c);

// `kinds` (never automatic) are each tried on the whole ledger first; those that apply are evaluated at the
// checkpoints (at most `max_evaluations` per accountant, evenly spread and always including the last): rdp and pld
// cumulatively (rdp_running.h, pld_running.h), the others coarse to fine within a CPU-time budget per column (see
// running_budget.cpp). `progress(fraction, detail)` is called as work is done. `known`: results of compose()
// for the whole ledger at this target already computed by the caller (reused as the last checkpoint of the
// accountant each names, so that the column ends at exactly the value the caller prints).
RunningBudget running_budget(const Ledger& ledger, const Target& target, const std::vector<AccountantKind>& kinds,
                             std::int64_t every, std::size_t max_evaluations = 200,
                             const std::function<void(double, const std::string&)>& progress = {},
                             const std::vector<AccountingResult>& known = {});

}  // namespace dpl
