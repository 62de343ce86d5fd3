// SPDX-License-Identifier: Apache-2.0
// The step, attenuation and noise schedules of Wang and Nedic's Algorithm 1 (seed 001): lambda^k (stepsize),
// gamma^k (weakening factor) and nu^k (Laplace scale), each one of three families with a start index k0:
//   ratio   a / (1 + b k^c)      (the paper's simulation lambda and gamma, Sec. VI)
//   power   a k^c                (Theorem 2(3): lambda = 1/k, gamma = k^-0.9, nu = (2C Phi/eps) k^0.3)
//   affine  a + b k^c            (the simulation's nu = 1 + 0.1 k^0.3)
// The coefficients are the binary64 values given (0.1 is the double nearest 0.1); every certified quantity is
// exact for those doubles.
//
// Command-line form (RunParameters keys, `name` = lambda | gamma | nu): name_form = ratio|power|affine,
// name_a, name_b, name_c (name_b is ignored by `power`); one start index `k0` for all three.
#pragma once

#include "accounting/numeric/interval.h"
#include "algorithms/run/run_parameters.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dpl::algorithms::seed001 {

enum class ScheduleForm { ratio, power, affine };
std::string to_string(ScheduleForm f);

struct StepSchedule {
  ScheduleForm form = ScheduleForm::power;
  double a = 1, b = 0, c = 0;

  // The value at index k >= 1 (k = 0 allowed when c >= 0), in binary64.
  double at(std::int64_t k) const;
  // A certified enclosure of the value at k (MPFI).
  Interval enclose(std::int64_t k) const;
  // The asymptotic exponent p with value ~ const * k^p as k -> infinity (ratio: -c if b > 0 and c > 0, else
  // 0 (c < 0: tends to a); power: c; affine: c if b != 0 and c > 0, else 0).
  double exponent() const;
  // True when k -> value(k) is completely monotone on (0, inf) (proof in the .cpp): ratio with a > 0, b >= 0,
  // 0 <= c <= 1; power with a > 0, c <= 0; affine with a > 0 and (b = 0 or b > 0, c <= 0).
  bool completely_monotone() const;
  // True when k -> 1/value(k) is completely monotone: affine with a, b >= 0, a + b > 0, 0 <= c <= 1 (a Bernstein
  // function); power with a > 0, c >= 0; ratio with a > 0 that is constant (b = 0 or c = 0).
  bool reciprocal_completely_monotone() const;
  // "0.02/(1+0.1k^1)" style text for reports.
  std::string describe() const;
};

StepSchedule ratio_schedule(double a, double b, double c);
StepSchedule power_schedule(double a, double c);
StepSchedule affine_schedule(double a, double b, double c);

// Throws InputError (naming `name`, the value and the allowed range) unless the schedule is finite and strictly
// positive at every k >= k0 (k0 >= 0; k0 = 0 needs c >= 0 in power/ratio/affine forms with k^c).
void require_positive(const StepSchedule& s, const std::string& name, std::int64_t k0);
// Throws InputError unless the schedule is non-increasing in k and at most 1 from k0 on (gamma: Lemma 6 needs
// kappa gamma^k < 1, for which gamma^k <= 1 suffices since kappa <= 1).
void require_nonincreasing_at_most_one(const StepSchedule& s, const std::string& name, std::int64_t k0);

// Declared reads of name_form, name_a, name_b, name_c with `def` as the default.
StepSchedule read_schedule(RunParameters& params, const std::string& name, const StepSchedule& def);
Json to_json(const StepSchedule& s);

// The paper's schedules.
StepSchedule simulation_lambda();  // 0.02/(1 + 0.1 k), Sec. VI
StepSchedule simulation_gamma();   // 1/(1 + 0.1 k^0.9), Sec. VI
StepSchedule simulation_nu();      // 1 + 0.1 k^0.3, Sec. VI
StepSchedule theorem2_lambda();    // 1/k, Theorem 2(3)
StepSchedule theorem2_gamma();     // k^-0.9, Theorem 2(3)

// Power-law exponents lambda ~ k^-u, gamma ~ k^-v, nu ~ k^w (docs/wang2022.md sec. 4).
struct PowerLawExponents {
  double u = 0, v = 0, w = 0;
};
PowerLawExponents exponents(const StepSchedule& lambda, const StepSchedule& gamma, const StepSchedule& nu);

// One row of the feasibility table of docs/wang2022.md sec. 4: the condition, where it comes from, its exponent form,
// the value of the exponent expression and whether it holds.
struct FeasibilityRow {
  std::string condition;
  std::string source;
  std::string exponent_form;
  double value = 0;
  bool holds = false;
};
std::vector<FeasibilityRow> feasibility_table(const PowerLawExponents& e);
Json to_json(const std::vector<FeasibilityRow>& rows);

}  // namespace dpl::algorithms::seed001
