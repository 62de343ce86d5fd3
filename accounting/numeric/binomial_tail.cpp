// SPDX-License-Identifier: Apache-2.0
#include "accounting/numeric/binomial_tail.h"

#include "accounting/numeric/log_space.h"

#include <cmath>
#include <stdexcept>

namespace dpl {

Interval binomial_log_pmf(std::int64_t n, double q, std::int64_t k) {
  const Interval qi = exact(q);
  return log_binomial(n, k) + exact_int(k) * log(qi) + exact_int(n - k) * log1p(-qi);
}

namespace {

// sum_{j >= k} P[Bin = j] (up = true, k above the mode) or sum_{j <= k} (up = false, k below the mode): terms from
// k outwards by exact ratios, then a geometric bound on the rest (ratios shrink away from the mode). Enclosure.
Interval tail_from(std::int64_t n, double q, std::int64_t k, bool up) {
  const Interval qi = exact(q), odds = qi / (1 - qi);
  Interval term = exp(binomial_log_pmf(n, q, k));
  Interval sum = term;
  std::int64_t j = k;
  for (std::int64_t it = 0;; ++it) {
    if (it > 20000000) throw std::runtime_error("internal: binomial tail needs more than 2e7 terms");
    if (up ? j >= n : j <= 0) return sum;  // every term counted
    // Ratio of the next term to this one: P[j+1]/P[j] = (n-j)/(j+1) q/(1-q), P[j-1]/P[j] = j/(n-j+1) (1-q)/q.
    const Interval ratio = up ? exact_int(n - j) / exact_int(j + 1) * odds : exact_int(j) / exact_int(n - j + 1) / odds;
    if (certainly_lt(ratio, exact(1.0)) && hi(term) < hi(sum) * Real(1e-40)) {
      // The later ratios are smaller still, so the rest is at most term r/(1 - r).
      const Interval rest = term * ratio / (1 - ratio);
      return sum + make_interval(Real(0), hi(rest));
    }
    term *= ratio;
    sum += term;
    j += up ? 1 : -1;
  }
}

}  // namespace

// P[Bin(n, q) >= k]. Enclosure.
Interval binomial_upper_tail(std::int64_t n, double q, std::int64_t k) {
  if (k <= 0) return exact(1.0);
  if (k > n || q <= 0) return exact(0.0);
  if (q >= 1) return exact(1.0);
  const double mode = std::floor((static_cast<double>(n) + 1) * q);
  if (static_cast<double>(k) > mode) return tail_from(n, q, k, true);
  const Interval below = tail_from(n, q, k - 1, false);
  return clamp_nonnegative(1 - below);
}

}  // namespace dpl
