// SPDX-License-Identifier: Apache-2.0
#include "audit/clopper_pearson.h"

#include "accounting/errors.h"
#include "accounting/numeric/portable_distributions.h"


#include <algorithm>
#include <string>

namespace dpl::audit {

namespace {

// The beta quantiles (portable_distributions.h: the same bits on every CPU) are within 1e-15 relative of the exact
// ones; moving every bound outward by a relative 1e-12 (far above that error, far below any statistical width)
// keeps them on the conservative side.
constexpr double kOutward = 1e-12;

void check(std::uint64_t k, std::uint64_t n, double alpha) {
  if (n == 0) throw InputError("Clopper-Pearson: n=0 is out of range: allowed n >= 1");
  if (k > n) throw InputError("Clopper-Pearson: k=" + std::to_string(k) + " exceeds n=" + std::to_string(n));
  if (!(alpha > 0 && alpha < 1))
    throw InputError("Clopper-Pearson: alpha=" + std::to_string(alpha) + " is out of range: allowed (0, 1)");
}

}  // namespace

// Clopper and Pearson (1934): lower = Beta(k, n-k+1) quantile at alpha (lower direction).
double clopper_pearson_lower(std::uint64_t k, std::uint64_t n, double alpha) {
  check(k, n, alpha);
  if (k == 0) return 0.0;
  const double b = static_cast<double>(
      portable::beta_quantile(static_cast<long double>(k), static_cast<long double>(n - k + 1), alpha).x);
  return std::max(0.0, b * (1 - kOutward));
}

// Clopper and Pearson (1934): upper = Beta(k+1, n-k) quantile at 1 - alpha (upper direction), i.e. 1 minus the
// alpha quantile of Beta(n-k, k+1), read from that quantile's complement y to keep its digits.
double clopper_pearson_upper(std::uint64_t k, std::uint64_t n, double alpha) {
  check(k, n, alpha);
  if (k == n) return 1.0;
  const double b = static_cast<double>(
      portable::beta_quantile(static_cast<long double>(n - k), static_cast<long double>(k + 1), alpha).y);
  return std::min(1.0, b * (1 + kOutward) + 1e-300);
}

}  // namespace dpl::audit
