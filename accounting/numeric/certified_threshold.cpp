// SPDX-License-Identifier: Apache-2.0
#include "accounting/numeric/certified_threshold.h"

#include <stdexcept>

namespace dpl {

Verdict certainly_at_most(const Interval& v, const Real& t) {
  if (hi(v) <= t) return Verdict::yes;
  if (lo(v) > t) return Verdict::no;
  return Verdict::unknown;
}

Threshold certified_threshold(Real lo, Real hi, const std::function<Verdict(const Real&)>& pred,
                              const Real& rel_tol, const Real& abs_tol, int max_iter) {
  if (!(lo < hi)) throw std::invalid_argument("internal: certified_threshold needs lo < hi");
  if (pred(hi) != Verdict::yes) throw std::runtime_error("internal: certified_threshold: upper end not certified");
  for (int i = 0; i < max_iter; ++i) {
    if (hi - lo <= rel_tol * abs(hi) + abs_tol) break;
    Real m;
    if (lo > 0 && hi / lo > 4)
      m = sqrt(lo * hi);
    else
      m = (lo + hi) / 2;
    if (!(m > lo && m < hi)) break;  // no representable midpoint left
    if (pred(m) == Verdict::yes)
      hi = m;
    else
      lo = m;
  }
  return Threshold{lo, hi};
}

}  // namespace dpl
