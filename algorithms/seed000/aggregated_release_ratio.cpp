// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed000/aggregated_release_ratio.h"

#include "accounting/numeric/portable_math.h"

#include <cmath>

namespace dpl::algorithms {

namespace {

// log(J(t) / u), J(t) = int_0^u e^{-|t - z|} dz (Xiao 2019 Lemma 2.2.1, beta = 1; docs/xiao2019.md): the density of
// U + Lap(1), U ~ Unif[0, u], up to the factor 1/2. Outside [0, u]: -dist + log((1 - e^{-u}) / u); inside:
// log((-expm1(-t) - expm1(-(u - t))) / u); u = 0: -|t| (the limit). Exact up to binary64 rounding.
double log_uniform_laplace_window(double u, double t) {
  if (!(u > 0)) return -std::fabs(t);
  const double log_u = portable::binary64::log(u);
  if (t <= 0) return t + portable::binary64::log(-portable::binary64::expm1(-u)) - log_u;
  if (t >= u) return (u - t) + portable::binary64::log(-portable::binary64::expm1(-u)) - log_u;
  return portable::binary64::log(-portable::binary64::expm1(-t) - portable::binary64::expm1(-(u - t))) - log_u;
}

}  // namespace

// The release's density with the hidden weight integrated out (Lemma 2.2.1's J), its log-ratio at y between the
// offsets of D and D'.
double aggregated_laplace_log_ratio(double y, double lo, double hi, double offset_d, double offset_dprime, double beta) {
  const double u = beta * (hi - lo);
  return log_uniform_laplace_window(u, beta * (y - lo - offset_d)) -
         log_uniform_laplace_window(u, beta * (y - lo - offset_dprime));
}

}  // namespace dpl::algorithms
