// SPDX-License-Identifier: Apache-2.0
#include "accounting/composition/advanced_composition.h"

#include "accounting/composition/basic_composition.h"
#include "accounting/errors.h"
#include "accounting/mechanisms/per_step_guarantee.h"
#include "accounting/numeric/decimal.h"

namespace dpl {

namespace {

Interval upper_end(const Interval& x) { return make_interval(hi(x), hi(x)); }

struct Moments {
  Interval sum_eps = exact(0.0);   // sum eps_i
  Interval sum_sq = exact(0.0);    // V = sum eps_i^2
  Interval drv_mean = exact(0.0);  // sum eps_i (e^eps_i - 1)
  Interval kov_mean = exact(0.0);  // M = sum eps_i tanh(eps_i / 2)
  Interval log_keep = exact(0.0);  // log prod (1 - delta_i)
  Interval sum_delta = exact(0.0); // sum delta_i
};

Moments moments(const std::vector<StepProfile>& steps) {
  Moments m;
  for (const auto& s : steps) {
    const Interval k = exact_int(s.steps);
    const Interval e = s.eps;
    const Interval em1 = expm1(e);
    m.sum_eps += k * e;
    m.sum_sq += k * e * e;
    m.drv_mean += k * e * em1;
    m.kov_mean += k * e * em1 / (em1 + 2);
    m.log_keep += k * log1p(-s.delta);
    m.sum_delta += k * s.delta;
  }
  return m;
}

Interval one() { return exact(1.0); }

}  // namespace

std::vector<StepProfile> step_profiles(const Ledger& ledger, const std::string& accountant) {
  std::vector<StepProfile> out;
  for (const auto& e : ledger) {
    const DpGuarantee g = step_guarantee(e, accountant);
    out.push_back({upper_end(g.eps), upper_end(g.delta), e.steps});
  }
  return out;
}

Interval drv_epsilon(const std::vector<StepProfile>& steps, const Interval& delta_prime) {
  const Moments m = moments(steps);
  return sqrt(2 * m.sum_sq * log(one() / delta_prime)) + m.drv_mean;
}

Interval drv_delta(const std::vector<StepProfile>& steps, const Interval& eps) {
  const Moments m = moments(steps);
  if (!certainly_gt(eps, m.drv_mean)) return one();
  const Interval t = eps - m.drv_mean;
  // eps - mean = sqrt(2 V ln(1/delta')) solved for delta'.
  const Interval delta_prime = hi(m.sum_sq) == 0 ? exact(0.0) : exp(-(t * t) / (2 * m.sum_sq));
  return imin(one(), m.sum_delta + delta_prime);
}

Interval kov_epsilon(const std::vector<StepProfile>& steps, const Interval& delta_tilde) {
  const Moments m = moments(steps);
  const Interval b2 = m.kov_mean + sqrt(2 * m.sum_sq * log(exp(one()) + sqrt(m.sum_sq) / delta_tilde));
  const Interval b3 = m.kov_mean + sqrt(2 * m.sum_sq * log(one() / delta_tilde));
  return imin(m.sum_eps, imin(b2, b3));
}

Interval kov_delta(const std::vector<StepProfile>& steps, const Interval& eps) {
  const Moments m = moments(steps);
  // 1 - (1 - dt) prod(1 - delta_i), as -expm1(log1p(-dt) + log_keep) to avoid cancellation.
  auto total = [&](const Interval& dt) { return -expm1(log1p(-dt) + m.log_keep); };
  if (certainly_ge(eps, m.sum_eps)) return total(exact(0.0));
  if (!certainly_gt(eps, m.kov_mean) || !certainly_gt(m.sum_sq, exact(0.0))) return one();
  const Interval t = eps - m.kov_mean;
  const Interval z = (t * t) / (2 * m.sum_sq);
  Interval dt = imin(one(), exp(-z));                          // third branch
  const Interval ez = exp(z) - exp(one());                     // second branch: sqrt(V)/(e^z - e)
  if (certainly_gt(ez, exact(0.0))) dt = imin(dt, sqrt(m.sum_sq) / ez);
  return imin(one(), total(dt));
}

AccountingResult compose_advanced(const Ledger& ledger, const Target& target) {
  const std::vector<StepProfile> steps = step_profiles(ledger, "advanced");
  const Moments m = moments(steps);
  AccountingResult r;
  r.accountant = "advanced";
  if (target.given == Target::Given::delta) {
    const Interval d = exact(target.value);
    // DRV needs delta' = delta - sum delta_i > 0; KOV needs dt = 1 - (1 - delta)/prod(1 - delta_i) > 0.
    std::optional<Interval> drv, kov;
    const Interval dp = d - m.sum_delta;
    if (certainly_gt(dp, exact(0.0))) drv = drv_epsilon(steps, make_interval(lo(dp), lo(dp)));
    const Interval dt = -expm1(log1p(-d) - m.log_keep);
    if (certainly_gt(dt, exact(0.0))) kov = kov_epsilon(steps, make_interval(lo(dt), lo(dt)));
    if (!drv && !kov)
      throw NotApplicable("advanced composition: the composed per-step delta " + format_upper(m.sum_delta) +
                          " leaves nothing of --delta " + format_target(target.value));
    const bool use_kov = kov && (!drv || hi(*kov) <= hi(*drv));
    r.epsilon = use_kov ? *kov : *drv;
    r.delta = d;
    r.note = use_kov ? "advanced composition, Kairouz-Oh-Viswanath 2017 Thm 3.5 (smaller than DRV 2010 Thm III.3 here)"
                     : "advanced composition, Dwork-Rothblum-Vadhan 2010 Thm III.3 (smaller than KOV 2017 here)";
  } else {
    const Interval e = exact(target.value);
    const Interval drv = drv_delta(steps, e), kov = kov_delta(steps, e);
    const bool use_kov = hi(kov) <= hi(drv);
    r.epsilon = e;
    r.delta = use_kov ? kov : drv;
    r.note = use_kov ? "advanced composition, Kairouz-Oh-Viswanath 2017 Thm 3.5 (smaller than DRV 2010 Thm III.3 here)"
                     : "advanced composition, Dwork-Rothblum-Vadhan 2010 Thm III.3 (smaller than KOV 2017 here)";
  }
  return r;
}

}  // namespace dpl
