// SPDX-License-Identifier: Apache-2.0
// Statistics of seeded simulation runs used by the checks of utility and convergence theorems: the mean of a
// quantity over runs with its standard error, the decision "below / above a claimed bound" at a stated number of
// standard errors, and least-squares slopes of log-log curves (empirical rates and exponents).
#pragma once

#include <string>
#include <vector>

namespace dpl::proofs {

struct MeanEstimate {
  double mean = 0, standard_error = 0;
  int runs = 0;
};
MeanEstimate mean_of(const std::vector<double>& values);

// Where a Monte Carlo mean stands against a claimed upper bound, decided at `z` standard errors: below (mean + z SE <=
// bound), above (mean - z SE > bound) or undecided. With z = 6 a wrong call has probability below 1e-8 for an
// approximately normal mean (the runs are independent; each check states its z).
enum class Side { below, above, undecided };
Side compare_to_bound(const MeanEstimate& m, double bound, double z);

// Least-squares slope of log(y) against log(x) (all x, y > 0), with the standard error of the slope.
struct Slope {
  double slope = 0, standard_error = 0, intercept = 0;
};
Slope log_log_slope(const std::vector<double>& x, const std::vector<double>& y);

// The exponent of a power law y ~ x^b observed along independent seeded runs: each run's least-squares slope of
// log y against log x, the mean of those slopes and its two-sided Student-t confidence interval at `confidence` (the
// runs are independent and identically distributed, so the interval covers the expected slope with that probability
// for approximately normal slopes).
struct ExponentInterval {
  double slope = 0, lower = 0, upper = 0, confidence = 0;
  int runs = 0;
};
ExponentInterval exponent_over_runs(const std::vector<double>& x, const std::vector<std::vector<double>>& y_per_run,
                                    double confidence);
// "-0.512 in [-0.55, -0.47] (99% over 8 runs)".
std::string describe(const ExponentInterval& e);

// "mean ± SE" with `digits` significant digits.
std::string describe(const MeanEstimate& m, int digits = 4);

}  // namespace dpl::proofs
