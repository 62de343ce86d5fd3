// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed001/accumulated_sensitivity.h"

#include "accounting/errors.h"
#include "algorithms/seed001/horizon_epsilon_json.h"
#include "algorithms/seed001/ratio_series.h"

#include <algorithm>
#include <cmath>

// Divergence for T = inf (v <= 1, u - v + w <= 1). With lambda ~ l0 k^-u, gamma ~ g0 k^-v, nu ~ n0 k^w exact power
// asymptotics (the families of step_schedule.h), gamma^k a -> 0 when v > 0, and
//   s^{k+1} >= 2C Sum_{t=k-L}^{k} lambda^t Prod_{r=t+1}^{k} (1 - gamma^r a)
// (all terms of the recursion are >= 0 once gamma^r a <= 1). For v < 1 take L = floor(1/(2 a gamma^{k/2})) = o(k):
// the product is >= 1 - L a gamma^{k-L} >= 1/2 for large k, so s^{k+1} >= C L min_{t in [k-L,k]} lambda^t
// ~ const k^{v-u}. For v = 1 take L = k/2: Prod_{r>k/2}^{k} (1 - a g0/r) -> 2^{-a g0} > 0 and again
// s^{k+1} >= const k^{1-u}. (v = 0, constant gamma with 0 < gamma a < 1: s^k -> 2C lambda/(gamma a) ~ k^{-u}.)
// Hence s^k/nu^k >= const k^{-(u - v + w)} and the sum diverges when u - v + w <= 1 (comparison with Sum 1/k).

namespace dpl::algorithms::seed001 {

namespace {

void check_common(double C, std::int64_t k0, std::int64_t last) {
  if (!(C > 0) || !std::isfinite(C)) throw InputError("C = " + std::to_string(C) + ": must be finite and > 0");
  if (last < k0)
    throw InputError("T = " + std::to_string(last) + ": must be >= k0 = " + std::to_string(k0));
}

bool nonincreasing(const StepSchedule& g) {
  switch (g.form) {
    case ScheduleForm::ratio: return g.b >= 0 && g.c >= 0;
    case ScheduleForm::power: return g.c <= 0;
    case ScheduleForm::affine: return g.b == 0 || g.c <= 0;
  }
  return false;
}

// Reports step k of [first, last] to `progress` about every percent.
void report(const ProgressCallback& progress, std::int64_t k, std::int64_t first, std::int64_t last) {
  const std::int64_t count = last - first + 1, done = k - first;
  if (progress && done % std::max<std::int64_t>(1, count / 100) == 0)
    progress(static_cast<double>(done) / static_cast<double>(count),
             "step " + std::to_string(done) + "/" + std::to_string(count));
}

void check_a(double a) {
  if (!(a > 0) || !std::isfinite(a))
    throw InputError("a_i = |w_ii| = " + std::to_string(a) + ": must be finite and > 0");
}

}  // namespace

// Notes sec. 3.5 (derived from eq. (4) of Wang-Nedic; exact worst case): s^{k+1} = |1 - gamma^k a| s^k + 2C lambda^k.
std::vector<Interval> accumulated_sensitivity(const StepSchedule& lambda, const StepSchedule& gamma, double C,
                                              double a, std::int64_t k0, std::int64_t last,
                                              const ProgressCallback& progress) {
  check_common(C, k0, last);
  check_a(a);
  std::vector<Interval> s;
  s.reserve(static_cast<std::size_t>(last - k0 + 1));
  s.push_back(exact(0));
  const Interval two_c = 2 * exact(C);
  const Interval aa = exact(a);
  for (std::int64_t k = k0; k < last; ++k) {
    report(progress, k, k0, last - 1);
    s.push_back(abs(1 - gamma.enclose(k) * aa) * s.back() + two_c * lambda.enclose(k));
  }
  return s;
}

// Laplace mechanism + pure composition over the messages k0..T+1 (Dwork-Roth Thm 3.6, 3.14; upper bound).
AccumulatedEpsilon accumulated_epsilon(const StepSchedule& lambda, const StepSchedule& gamma, const StepSchedule& nu,
                                       double C, const std::vector<double>& a_values, std::int64_t k0,
                                       std::int64_t horizon, const ProgressCallback& progress) {
  check_common(C, k0, horizon);
  if (a_values.empty()) throw InputError("a_i: the list of |w_ii| is empty");
  for (double a : a_values) check_a(a);
  AccumulatedEpsilon out;
  out.k0 = k0;
  out.horizon = horizon;
  std::vector<double> as = a_values;
  std::sort(as.begin(), as.end());
  as.erase(std::unique(as.begin(), as.end()), as.end());
  if (horizon == kInfiniteHorizon) {
    const PowerLawExponents e = exponents(lambda, gamma, nu);
    if (e.v <= 1 && e.u - e.v + e.w <= 1) {
      out.infinite = true;
      out.epsilon = positive_infinity();
      out.worst_a = as.front();
      out.method = "divergent: s^k/nu^k ~ k^-(u - v + w) with u - v + w = " + std::to_string(e.u - e.v + e.w) +
                   " <= 1 (u = " + std::to_string(e.u) + ", v = " + std::to_string(e.v) + ", w = " +
                   std::to_string(e.w) + "; docs/wang2022.md sec. 2)";
      return out;
    }
    throw NotApplicable("eps_true(inf) may be finite here (u - v + w = " + std::to_string(e.u - e.v + e.w) +
                        ", v = " + std::to_string(e.v) + ") but no certified tail is implemented; give a finite T");
  }
  // When 0 <= 1 - gamma^k a <= 1 for every k and a (gamma non-increasing, gamma^{k0} a_max <= 1), s^k is
  // non-increasing in a by induction, so the smallest a_i is the worst agent and the others need not be summed.
  if (nonincreasing(gamma) && gamma.at(k0) * as.back() <= 1 - 1e-12) as.resize(1);
  if (horizon - k0 > 20'000'000)
    throw NotApplicable("T - k0 = " + std::to_string(horizon - k0) + ": at most 2e7 steps are accounted (cost)");
  const Interval two_c = 2 * exact(C);
  std::vector<Interval> aa, s(as.size(), exact(0)), total(as.size(), exact(0));
  for (double a : as) aa.push_back(exact(a));
  // s^{k0} = 0 contributes nothing; message k carries x^k with Laplace scale nu^k.
  for (std::int64_t k = k0; k <= horizon; ++k) {
    report(progress, k, k0, horizon);
    const Interval g = gamma.enclose(k), l = two_c * lambda.enclose(k), inv_nu = 1 / nu.enclose(k + 1);
    for (std::size_t i = 0; i < as.size(); ++i) {
      s[i] = abs(1 - g * aa[i]) * s[i] + l;  // s^{k+1}
      total[i] += s[i] * inv_nu;
    }
  }
  std::size_t worst = 0;
  for (std::size_t i = 1; i < as.size(); ++i)
    if (mid_double(total[i]) > mid_double(total[worst])) worst = i;
  Interval eps = total[0];
  for (std::size_t i = 1; i < as.size(); ++i) eps = imax(eps, total[i]);
  out.epsilon = eps;
  out.worst_a = as[worst];
  out.method = "accumulated sensitivity (docs/wang2022.md sec. 2): s^{k+1} = |1 - gamma^k a_i| s^k + 2C lambda^k, "
               "eps = max_i Sum_{k=k0+1}^{T+1} s_i^k/nu^k (Laplace mechanism, pure composition), MPFI";
  return out;
}

Json to_json(const AccumulatedEpsilon& e) {
  return horizon_epsilon_json(e.epsilon, e.infinite, e.k0, e.horizon, e.method, {{"worst_a", e.worst_a}});
}

}  // namespace dpl::algorithms::seed001
