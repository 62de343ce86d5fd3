// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed002/norm_exponential_noise.h"

#include "accounting/numeric/portable_math.h"

#include <cmath>

namespace dpl::algorithms::seed002 {

double erlang_norm(int d, double alpha, Rng& rng) {
  // Sum of d Exp(alpha): Gamma(d, 1/alpha) (e.g. Devroye 1986, Ch. IX.3); log1p(-U) keeps U near 0 exact
  // (portable::binary64::log1p: the same draw on every CPU).
  double s = 0;
  for (int j = 0; j < d; ++j) s -= portable::binary64::log1p(-rng.uniform01());
  return s / alpha;
}

Eigen::VectorXd norm_exponential_noise(int d, double alpha, Rng& rng) {
  const double r = erlang_norm(d, alpha, rng);
  Eigen::VectorXd g(d);
  double norm = 0;
  do {  // a zero Gaussian vector has probability 0; redraw if it ever happens
    for (int j = 0; j < d; ++j) g(j) = rng.gaussian();
    norm = g.norm();
  } while (!(norm > 0));
  return (r / norm) * g;
}

}  // namespace dpl::algorithms::seed002
