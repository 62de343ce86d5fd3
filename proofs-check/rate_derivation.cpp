// SPDX-License-Identifier: Apache-2.0
#include "proofs-check/rate_derivation.h"

#include "proofs-check/run_statistics.h"

#include <algorithm>
#include <cmath>

namespace dpl::proofs {

double minimise_over_horizon(const std::function<double(double)>& g, double lo, double hi) {
  double best_h = lo, best = g(lo);
  for (double h = lo; h <= hi; h *= 1.2)
    if (const double v = g(h); v < best) best = v, best_h = h;
  double a = std::max(lo, best_h / 1.2), b = std::min(hi, best_h * 1.2);
  for (int i = 0; i < 60; ++i) {
    const double m1 = a + (b - a) * 0.382, m2 = a + (b - a) * 0.618;
    if (g(m1) < g(m2)) b = m2; else a = m1;
  }
  return std::min(best, g((a + b) / 2));
}

double fitted_exponent(const std::vector<double>& values, const std::function<double(double)>& f) {
  std::vector<double> ys;
  for (double v : values) ys.push_back(f(v));
  return log_log_slope(values, ys).slope;
}

}  // namespace dpl::proofs
