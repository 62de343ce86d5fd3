// SPDX-License-Identifier: Apache-2.0
// Sums and products of non-negative binary64 bounds rounded up (one step above the nearest result bounds the exact
// value), for running bounds accumulated in doubles.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace dpl {

// a + b rounded up (the nearest double is within half an ulp, one step up is above the exact sum).
inline double add_up(double a, double b) {
  const double s = a + b;
  return std::isinf(s) ? s : std::nextafter(s, std::numeric_limits<double>::infinity());
}

// k * v rounded up, k >= 0 an integer (exact as a double up to 2^53; above, rounded up first).
inline double times_up(std::int64_t k, double v) {
  if (k == 0 || v == 0) return 0;
  double kd = static_cast<double>(k);
  if (static_cast<std::int64_t>(kd) < k) kd = std::nextafter(kd, std::numeric_limits<double>::infinity());
  const double p = kd * v;
  return std::isinf(p) ? p : std::nextafter(p, std::numeric_limits<double>::infinity());
}

}  // namespace dpl
