// SPDX-License-Identifier: Apache-2.0
#include "accounting/numeric/epsilon_search.h"

#include "accounting/errors.h"
#include "accounting/numeric/certified_threshold.h"
#include "accounting/numeric/decimal.h"

#include <optional>
#include <stdexcept>

namespace dpl {

EpsilonSearch bracket_epsilon(const std::function<Interval(const Real& eps)>& delta_of_eps, const Real& delta,
                              const Real& down, const Real& up) {
  auto feasible = [&](const Real& eps) { return certainly_at_most(delta_of_eps(eps), delta); };
  // The upper end: certified as is, or moved up by growing relative steps (the enclosure of delta(up) may be
  // too wide to decide right at the crossing).
  std::optional<Real> yes;
  for (const char* w : {"0", "1e-24", "1e-20", "1e-16", "1e-13", "1e-10"}) {
    const Real u = up + Real(w) * (1 + abs(up));
    if (feasible(u) == Verdict::yes) { yes = u; break; }
  }
  if (!yes) throw std::runtime_error("internal: bracket_epsilon: no certified upper end near the estimate");
  EpsilonSearch r{make_interval(down < *yes ? down : *yes, *yes), std::nullopt};
  // `d` is a lower bound only when delta(d) > delta is certain (non-increasing profile).
  for (const char* w : {"0", "1e-24", "1e-20", "1e-16", "1e-13", "1e-10"}) {
    Real d = down - Real(w) * (1 + abs(down));
    if (d < 0) d = 0;
    if (feasible(d) == Verdict::no) {
      r.lower = make_interval(d, d);
      r.epsilon = make_interval(d, *yes);
      break;
    }
    if (d == 0) break;
  }
  return r;
}

EpsilonSearch smallest_epsilon(const std::function<Interval(const Real& eps)>& delta_of_eps, const Real& delta,
                               const Real& eps_start, const Real& rel_tol) {
  auto feasible = [&](const Real& eps) { return certainly_at_most(delta_of_eps(eps), delta); };
  // eps = 0 feasible: the answer is exactly 0.
  if (feasible(Real(0)) == Verdict::yes) return {exact(0.0), exact(0.0)};
  Real top = eps_start > 0 ? eps_start : Real(1);
  // Doubling: at most about 2,100 evaluations from any positive start to 1e300.
  while (feasible(top) != Verdict::yes) {
    top *= 2;
    if (top > Real("1e300"))
      throw NotApplicable("no epsilon below 1e300 is certified to meet delta " + format_down(delta, 6) +
                          " (the bound is beyond the working range)");
  }
  const Threshold t = certified_threshold(Real(0), top, feasible, rel_tol, Real(0));
  return bracket_epsilon(delta_of_eps, delta, t.no, t.yes);
}

}  // namespace dpl
