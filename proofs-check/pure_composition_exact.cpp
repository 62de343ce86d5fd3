// SPDX-License-Identifier: Apache-2.0
#include "proofs-check/pure_composition_exact.h"

#include "accounting/errors.h"
#include "accounting/numeric/portable_distributions.h"
#include "accounting/numeric/portable_math.h"

#include <cmath>
#include <vector>

namespace dpl::proofs {
namespace {

// log P(j) for j ~ Binomial(k, p), j = 0..k, with p = 1/(1 + e^eps) (the randomized response's "flip").
std::vector<double> log_binomial_pmf(std::int64_t k, double eps) {
  const double log_p = -portable::binary64::log1p(portable::binary64::exp(eps)), log_q = -portable::binary64::log1p(portable::binary64::exp(-eps));
  std::vector<double> out(static_cast<std::size_t>(k + 1));
  for (std::int64_t j = 0; j <= k; ++j)
    out[static_cast<std::size_t>(j)] = portable::log_gamma(static_cast<double>(k + 1)) - portable::log_gamma(static_cast<double>(j + 1)) -
                                       portable::log_gamma(static_cast<double>(k - j + 1)) + static_cast<double>(j) * log_p +
                                       static_cast<double>(k - j) * log_q;
  return out;
}

}  // namespace

double exact_pure_composition_delta(double eps1, std::int64_t k1, double eps2, std::int64_t k2, double eps) {
  if ((k1 + 1) * (k2 + 1) > 10000000) throw NotApplicable("exact pure composition: more than 10^7 terms");
  const std::vector<double> p1 = log_binomial_pmf(k1, eps1), p2 = log_binomial_pmf(k2, eps2);
  double delta = 0;
  for (std::int64_t j1 = 0; j1 <= k1; ++j1)
    for (std::int64_t j2 = 0; j2 <= k2; ++j2) {
      const double L = static_cast<double>(k1 - 2 * j1) * eps1 + static_cast<double>(k2 - 2 * j2) * eps2;
      if (L <= eps) continue;
      delta += portable::binary64::exp(p1[static_cast<std::size_t>(j1)] + p2[static_cast<std::size_t>(j2)]) * -portable::binary64::expm1(eps - L);
    }
  return delta;
}

}  // namespace dpl::proofs
