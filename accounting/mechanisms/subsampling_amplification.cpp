// SPDX-License-Identifier: Apache-2.0
#include "accounting/mechanisms/subsampling_amplification.h"

namespace dpl {

namespace {
// log(1 + q (e^eps - 1)) with expm1 and log1p: no cancellation for small q or eps.
Interval amplified_eps(const Interval& eps, const Interval& q) { return log1p(q * expm1(eps)); }
}  // namespace

// BBG 2018 Thm 8 (Poisson, add/remove): eps' = log(1 + q(e^eps - 1)), delta' = q delta. Upper bound.
DpGuarantee amplify_poisson(const DpGuarantee& g, const Interval& q) {
  return {amplified_eps(g.eps, q), q * g.delta};
}

// BBG 2018 Thm 9 (without replacement, substitution): eps' = log(1 + q(e^eps - 1)), delta' = q delta. Upper bound.
DpGuarantee amplify_without_replacement(const DpGuarantee& g, const Interval& q) {
  return {amplified_eps(g.eps, q), q * g.delta};
}

}  // namespace dpl
