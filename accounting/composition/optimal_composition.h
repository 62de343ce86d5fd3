// SPDX-License-Identifier: Apache-2.0
// Exact optimal composition: homogeneous (eps0, delta0)-DP steps (Kairouz-Oh-Viswanath 2015, solved for every
// eps, not only at its grid points) and compositions of unsampled Gaussians (Balle-Wang 2018 analytic curve).
#pragma once

#include "accounting/composition/accounting_result.h"
#include "accounting/numeric/epsilon_search.h"

namespace dpl {

// Kairouz, Oh and Viswanath 2015, Thm 3.3 (exact for the class of eps0-DP mechanisms, k-fold):
// delta(eps) = sum_l C(k,l) [e^{(k-l) eps0} - e^{eps + l eps0}]_+ / (1 + e^{eps0})^k. Enclosure.
Interval kov_optimal_pure_delta(const Interval& eps0, std::int64_t k, const Interval& eps);
// KOV 2015 Thm 3.3 with delta0: delta_total = 1 - (1 - delta0)^k (1 - delta_pure(eps)). Enclosure.
Interval kov_optimal_delta(const Interval& eps0, const Interval& delta0, std::int64_t k, const Interval& eps);
// The smallest eps with kov_optimal_delta <= delta, by the piecewise closed form A_L - e^eps B_L on the piece
// that contains it (certified by a direct evaluation). epsilon.hi() is an upper bound; lower a lower bound.
EpsilonSearch kov_optimal_epsilon(const Interval& eps0, const Interval& delta0, std::int64_t k, double delta);

// `--accountant optimal`: unsampled Gaussian ledgers (exact analytic curve of the composed Gaussian) or
// homogeneous pure/approx ledgers (KOV 2015). Throws NotApplicable otherwise.
AccountingResult compose_optimal(const Ledger& ledger, const Target& target);

}  // namespace dpl
