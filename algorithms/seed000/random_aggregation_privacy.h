// SPDX-License-Identifier: Apache-2.0
// The privacy ledger of seed 000's randomized local aggregations (Algorithms 1, 2, 2*): every coordinate the
// target agent releases is x = m + Lap(rate beta) with the mean m uniform on an interval [lo, hi] given the public
// history (lo == hi for fixed weights), and a neighbouring dataset shifts that interval by at most `shift`.
// Claimed (the thesis's own figures) and accounted (certified, through accounting/) side by side.
#pragma once

#include <string>
#include <vector>

#include "accounting/numeric/interval.h"
#include "accounting/progress_callback.h"
#include "algorithms/problems/local_objective.h"
#include "algorithms/problems/sensitivity_bounds.h"
#include "algorithms/run/problem_setup.h"
#include "algorithms/run/run_parameters.h"
#include "algorithms/run/run_result.h"

namespace dpl::algorithms {

// One released coordinate of the target agent.
struct AggregatedRelease {
  int step = 0;           // 1-based iteration k + 1 at which it is released
  double released = 0;    // the released value x_i^{k+1}[l]
  double lo = 0, hi = 0;  // the interval of its mean given the history (true data)
  double beta = 0;        // Laplace RATE beta_{k+1} (density beta/2 e^{-beta |y|})
  double shift = 0;       // mean-shift sensitivity s (B_inf / D_i, or eta_{k+1} B_inf)
};

// Xiao 2019, Thm 2.2.1 corollary: worst-case loss sum_k d beta_k s (pure, upper bound as claimed; PC-10).
double claimed_worst_case_total(int dim, const std::vector<double>& betas, double shift);

// Closed-form upper bound on the exact gamma(u, e) (u = beta omega, e = beta s), valid for u >= 2e (returns 1
// otherwise), derived from docs/xiao2019.md with Theta <= e on [0, e], log1p(z) <= z and J(y)/J(y-e) <= e^e
// on [e, u/2] (see the .cpp); certified (interval arithmetic, rounded up), capped at 1. Slack O(e).
double gamma_closed_form_bound(double u, double e);
// The same at every (u, e) of the enclosures U, E (so that u = beta omega and e = beta s need no rounding); 1
// unless U >= 2E certainly.
double gamma_closed_form_bound(const Interval& U, const Interval& E);

// How the expected loss evaluates gamma: the certified quadrature everywhere (exact), the closed-form bound
// wherever u >= 2e (bound), or the bound where e <= 0.02 and u >= 2e and the quadrature elsewhere (automatic).
enum class GammaMethod { automatic, exact, bound };
// Parses "auto" | "exact" | "bound"; throws InputError naming `key`.
GammaMethod parse_gamma_method(const std::string& key, const std::string& value);
std::string to_string(GammaMethod m);

// Everything the runs report: claimed and accounted JSON, and the per-step cumulative curves (for `extra`).
struct AggregationLedger {
  Json claimed = Json::object();
  Json accounted = Json::object();
  Json curves = Json::object();
  Json mechanisms = Json::array();  // the Laplace entries composed for `epsilon` (RunResult::mechanisms)
};

// Builds the ledger of `releases` (all of the target agent's released coordinates). claimed: worst case
// sum beta s (Thm 2.2.1) and the thesis's average via eq. (2.6) (Thm 2.2.2, used where omega > s, else 1; as
// printed, NOT a valid upper bound, docs/xiao2019.md E1). accounted: the worst case by certified pure composition of
// Laplace releases (dpl::compose); if `expected` the expected loss sum beta s gamma(beta omega, beta s) along
// this trajectory with the exact gamma (the upper end of accounting/gamma's certified_gamma enclosure, capped at 1 by
// Thm 2.2.1; gamma = 1 is used for beta omega < 1e-8, an upper bound; `method` chooses where the closed-form
// bound replaces the quadrature, to bound the cost); and the realised loss of this output.
// With `binary64` the realised loss and the eq. (2.6) average are evaluated in double (estimates, ~100 times
// faster: for audits of many runs, which recompute the runs they report at 200 bits); the worst case and the
// expected loss stay certified. `progress` (optional) is told the fraction of the releases accounted, about every
// percent.
AggregationLedger account_random_aggregation(const std::vector<AggregatedRelease>& releases, bool expected,
                                             GammaMethod method = GammaMethod::automatic, bool binary64 = false,
                                             const ProgressCallback& progress = {});

// The privacy keys of every random-aggregation run (Algorithms 1, 2, 2*), read in this order: noise (on),
// target (the agent accounted: `worst`, the default, every agent accounted and the largest epsilon reported with its
// agent; or an agent in [0, 100000], that agent's view; an audit run's default is 0, the agent its probe watches),
// domain (unit-rows | unit-cube: the declared data domain the
// sensitivity comes from), b_inf (0 = the domain's bound; a larger declared bound may be given, never a smaller
// one), average_case (on), gamma (bound | auto | exact; default bound), loss_precision (certified | double: the realised loss and
// the eq. (2.6) average in binary64, for audits).
struct AggregationPrivacyKeys {
  bool noise = true;
  int target = 0;            // the agent given, or 0 when worst_agent (the agent an audit's probe watches)
  bool worst_agent = true;   // target=worst: every agent accounted, the largest epsilon reported
  DataDomain domain = DataDomain::unit_rows;
  double b_inf = 0;  // as given; 0 = the domain's bound (see target_b_inf)
  bool average_case = true;
  GammaMethod gamma = GammaMethod::automatic;
  bool binary64_losses = false;
};
AggregationPrivacyKeys read_aggregation_privacy_keys(RunParameters& params);

// B_inf of the target agent (the two-sided replace-one l_inf sensitivity of its mean-loss gradient), from the
// declared domain, never from its rows: agent_loss_bounds(problem, keys.domain, target).sensitivity_linf, or
// keys.b_inf if given (InputError if below that bound). Throws InputError if target is not an agent or the
// data leave the domain; NotApplicable if the loss has no finite bound (squared loss).
double target_b_inf(const AggregationPrivacyKeys& keys, const DistributedProblem& problem);
// The same for any agent (InputError names it).
double agent_b_inf(const AggregationPrivacyKeys& keys, const DistributedProblem& problem, int agent);
// Whether a run keeps the releases of `agent` for its ledger: every agent's with target=worst, else the target's.
bool ledger_keeps_agent(const AggregationPrivacyKeys& keys, int agent);

// The certified worst-case epsilon of one agent's releases: the pure composition (dpl::compose) of its released
// coordinates as Laplace mechanisms, the `epsilon` account_random_aggregation reports. Upper bound.
double aggregation_worst_epsilon(const std::vector<AggregatedRelease>& releases);
// The agent whose ledger a run reports: the target when given; with target=worst the agent whose certified
// worst-case epsilon is largest (the smallest index among equals), since differential privacy is a promise to every
// agent. `releases[i]` holds agent i's releases (empty for agents not kept).
int accounted_agent(const std::vector<std::vector<AggregatedRelease>>& releases, const AggregationPrivacyKeys& keys);

// Writes account_random_aggregation(releases, keys.average_case, keys.gamma) into `result`: claimed, accounted
// and extra.privacy_curves. `progress` as for account_random_aggregation.
void record_aggregation_ledger(RunResult& result, const std::vector<AggregatedRelease>& releases,
                               const AggregationPrivacyKeys& keys, const ProgressCallback& progress = {});
// A run without a ledger: claimed = {epsilon "inf", delta 0, source}, accounted = {epsilon "inf", delta 0, method}.
void record_no_ledger(RunResult& result, const std::string& source, const std::string& method);
// For the runs that stop when they diverge (Algorithms 1, 2*): the ledger if keys.noise and the run did not
// diverge; else no ledger, with "noise=off: the plain algorithm, no privacy" or "the run diverged: no accounting"
// as both source and method.
void record_ledger_unless_diverged(RunResult& result, const std::vector<AggregatedRelease>& releases,
                                   const AggregationPrivacyKeys& keys, bool diverged,
                                   const ProgressCallback& progress = {});
// The sensitivity fields every random-aggregation ledger carries: agent, domain (with what it declares), b_inf
// and its source (the domain's bound or the declared b_inf), then `more` in order.
// `agent` is the one accounted (accounted_agent); with target=worst the fields say it is the worst of `agents`.
Json sensitivity_fields(const AggregationPrivacyKeys& keys, int agent, int agents, double b_inf, const Json& more);
// Adds every field of `fields` (a JSON object), in order, to both result.claimed and result.accounted.
void add_to_both_ledgers(RunResult& result, const Json& fields);

}  // namespace dpl::algorithms
