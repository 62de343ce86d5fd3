#include "accounting/numeric/epsilon_search.h"

#include "accounting/numeric/certified_threshold.h"

#include <stdexcept>

namespace dpl {

EpsilonSearch smallest_epsilon(const std::function<Interval(const Real& eps)>& delta_of_eps, const Real& delta,
                               const Real& eps_start, const Real& rel_tol) {
  auto feasible = [&](const Real& eps) { return certainly_at_most(delta_of_eps(eps), delta); };
  // eps = 0 feasible: the answer is exactly 0.
  if (feasible(Real(0)) == Verdict::yes) return {exact(0.0), exact(0.0)};
  Real top = eps_start > 0 ? eps_start : Real(1);
  while (feasible(top) != Verdict::yes) {
    top *= 2;
    if (top > 1e9) throw std::runtime_error("internal: smallest_epsilon found no feasible epsilon below 1e9");
  }
  const Threshold t = certified_threshold(Real(0), top, feasible, rel_tol, Real(0));
  EpsilonSearch r{make_interval(t.no, t.yes), std::nullopt};
  // `no` is a lower bound only when delta(no) > delta is certain (non-increasing profile).
  if (feasible(t.no) == Verdict::no) r.lower = make_interval(t.no, t.no);
  return r;
}

}  // namespace dpl
