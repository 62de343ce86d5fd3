// SPDX-License-Identifier: Apache-2.0
// Every accountant's epsilon for a Poisson-subsampled Gaussian ledger against a certified lower bound on the true
// epsilon that shares no code with them: the hockey-stick divergence bounds every event E, delta(eps) >= P(E) -
// e^eps Q(E), and E = {the largest of the T outputs is at least c} has closed-form probabilities. Random ledgers
// over the whole range (sigma 0.002 to 3, q 1e-5 to 0.99, 1 to 10^5 steps, delta 1e-10 to 0.5), fixed seed. A
// PLD whose survival functions gave 0 beyond long double's exp range printed epsilons far below this bound
// (pld_soundness_test.cpp has that case); the miscalibrated twin below (the bound evaluated with sigma 10% smaller,
// which overstates how well the event separates the pair) must exceed some accountant's answer.
#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/numeric/decimal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>

namespace dpl {
namespace {

// log of the upper tail Phi(-x) of the standard normal, from above: log(erfc(x/sqrt2)/2) (glibc's erfc, a few ulps)
// where it is a normal double, else Mills' bound Phi(-x) <= phi(x)/x; plus a relative margin of 1e-12.
double log_upper_tail_above(double x) {
  const double t = 0.5 * std::erfc(x / std::sqrt(2.0));
  const double v = t > 1e-300 ? std::log(t) : -0.5 * x * x - std::log(x) - 0.5 * std::log(2 * M_PI);
  return v + 1e-12 * (1 + std::abs(v));
}

// A lower bound on the epsilon at `delta` of T steps of the Poisson-subsampled Gaussian (sensitivity 1, noise
// sigma, rate q), remove direction (the true epsilon is at least this direction's), maximised over thresholds c.
// Under Q (without the record) every output is N(0, sigma^2): Q(E) = 1 - Phi(c/sigma)^T <= T Phi(-c/sigma). Under P
// each step holds the record with probability q: P(E) = 1 - (1 - (1 - q) Phi(-c/sigma) - q Phi((1 - c)/sigma))^T >=
// -expm1(T log1p(-q Phi((1 - c)/sigma))). delta(eps) <= delta needs e^eps >= (P(E) - delta)/Q(E). Returns 0 when
// no threshold gives a positive bound. Margins: 1e-12 relative on P(E), on each log term, and 1e-9 on the result.
double event_lower_bound(double sigma, double q, double t, double delta) {
  double best = 0;
  for (int k = 1; k <= 400; ++k) {
    const double c = 0.0075 * k;  // thresholds in (0, 3]
    const double hit = 0.5 * std::erfc(-(1 - c) / sigma / std::sqrt(2.0));  // Phi((1 - c)/sigma)
    const double p_event = -std::expm1(t * std::log1p(-q * hit)) * (1 - 1e-12);
    if (!(p_event > delta)) continue;
    const double log_q_event = std::log(t) + log_upper_tail_above(c / sigma);
    const double bound = std::log(p_event - delta) - log_q_event;
    best = std::max(best, bound - 1e-12 * std::abs(bound) - 1e-9);
  }
  return best;
}

TEST(SubsampledGaussianEventBound, EveryAccountantIsAboveIt) {
  std::mt19937_64 rng(20261127);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  auto log_uniform = [&](double lo, double hi) { return lo * std::pow(hi / lo, u(rng)); };
  int informative = 0;
  bool twin_caught = false;
  for (int i = 0; i < 24; ++i) {
    const double sigma = log_uniform(0.002, 3), q = log_uniform(1e-5, 0.99), delta = log_uniform(1e-10, 0.5);
    const double steps = std::round(log_uniform(1, 1e5));
    // The decimal strings the ledger parses (the bound uses exactly these values).
    const std::string spec = "gaussian:sigma=" + format_input(sigma) + ",q=" + format_input(q) +
                             ",steps=" + format_input(steps);
    const LedgerEntry e = parse_entry(spec);
    const double z = e.mechanism.sigma / e.mechanism.sens;  // sens 1: z = sigma exactly
    const double lower = event_lower_bound(z, e.q, static_cast<double>(e.steps), delta);
    const double twin = event_lower_bound(0.9 * z, e.q, static_cast<double>(e.steps), delta);
    informative += lower > 0;
    for (AccountantKind kind : {AccountantKind::rdp, AccountantKind::pld, AccountantKind::automatic}) {
      try {
        const AccountingResult r = compose(Ledger{e}, Target::for_delta(delta), kind);
        const double upper = static_cast<double>(hi(r.epsilon));  // to nearest: far inside the bound's 1e-9 margin
        EXPECT_GE(upper, lower) << spec << " delta " << delta << " by " << r.accountant;
        if (r.lower) {
          EXPECT_LE(static_cast<double>(hi(*r.lower)), upper) << spec;
        }
        twin_caught = twin_caught || twin > upper;
        std::printf("%s delta %.3g: %s %.10g >= event bound %.10g (twin %.6g)\n", spec.c_str(), delta,
                    r.accountant.c_str(), upper, lower, twin);
      } catch (const NotApplicable& x) {  // the PLD's work limit on extreme ledgers: no number, nothing to check
        std::printf("%s delta %.3g: refused (%s)\n", spec.c_str(), delta, x.what());
      }
    }
  }
  EXPECT_GE(informative, 12) << "too few ledgers where the event bound says anything";
  EXPECT_TRUE(twin_caught) << "the miscalibrated bound never exceeded an accountant's answer";
}

}  // namespace
}  // namespace dpl
