// SPDX-License-Identifier: Apache-2.0
// The exact privacy profile of the Gaussian mechanism (Balle and Wang 2018), both directions, certified.
#pragma once

#include "accounting/mechanisms/mechanism_spec.h"
#include "accounting/numeric/certified_threshold.h"
#include "accounting/numeric/epsilon_search.h"
#include "accounting/numeric/interval.h"

#include <optional>

namespace dpl {

// Balle and Wang 2018, Thm 8: delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu), mu = sens/sigma.
// Exact; the interval encloses the true value.
Interval analytic_gaussian_delta(const Interval& mu, const Interval& eps);

// Whether delta(eps) <= delta for every mu in the interval (Balle and Wang 2018, Thm 8), certified: decided by the
// long-double enclosure where it can (analytic_gaussian_long_double.h), else by MPFR; unknown only where neither
// resolves it.
Verdict analytic_gaussian_delta_at_most(const Interval& mu, const Real& eps, double delta);

// The smallest eps with delta(eps) <= delta (Balle and Wang 2018, Thm 8 inverted): epsilon.hi() is an upper bound,
// lower a lower bound. From long-double enclosures where they decide (relative width ~1e-18), else by a certified
// MPFR Newton iteration and bisection (relative width ~1e-25).
EpsilonSearch analytic_gaussian_epsilon(const Interval& mu, double delta);

// An estimate (not a bound) of that epsilon in long double: safeguarded Newton on Balle and Wang 2018, Thm 8, to
// about 1e-17 relatively; nullopt where long double does not resolve it. For searches that certify elsewhere.
std::optional<double> analytic_gaussian_epsilon_estimate(double mu, double delta);

// mu of the composition when every entry is an unsampled Gaussian: K Gaussians with mu_i compose exactly to one
// Gaussian with mu = sqrt(sum mu_i^2) (Dong, Roth and Su 2019, Cor. 2.1; exact). nullopt otherwise.
std::optional<Interval> composed_gaussian_mu(const Ledger& ledger);

}  // namespace dpl
