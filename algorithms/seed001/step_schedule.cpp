// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed001/step_schedule.h"

#include "accounting/errors.h"
#include "accounting/numeric/portable_math.h"

#include <cmath>
#include <sstream>

namespace dpl::algorithms::seed001 {

namespace {

std::string number(double x) {
  std::ostringstream s;
  s.precision(12);
  s << x;
  return s.str();
}

// k^c for real k >= 0 (0^c = 0 for c > 0 and 1 for c = 0).
double power_of(std::int64_t k, double c) {
  if (k == 0) return c == 0 ? 1.0 : (c > 0 ? 0.0 : HUGE_VAL);
  return portable::pow(static_cast<double>(k), c);
}

Interval power_of_interval(std::int64_t k, double c) {
  if (c == 0) return exact(1);
  if (k == 0) return c > 0 ? exact(0) : positive_infinity();
  if (k == 1) return exact(1);
  if (c == std::trunc(c) && std::abs(c) <= 4) {  // integer exponents exactly, without exp/log
    Interval p = exact(1);
    for (int i = 0; i < static_cast<int>(std::abs(c)); ++i) p *= exact_int(k);
    return c > 0 ? p : 1 / p;
  }
  return exp(exact(c) * log(exact_int(k)));
}

}  // namespace

std::string to_string(ScheduleForm f) {
  switch (f) {
    case ScheduleForm::ratio: return "ratio";
    case ScheduleForm::power: return "power";
    case ScheduleForm::affine: return "affine";
  }
  return "?";
}

double StepSchedule::at(std::int64_t k) const {
  const double kc = power_of(k, c);
  switch (form) {
    case ScheduleForm::ratio: return a / (1 + b * kc);
    case ScheduleForm::power: return a * kc;
    case ScheduleForm::affine: return a + b * kc;
  }
  return NAN;
}

Interval StepSchedule::enclose(std::int64_t k) const {
  const Interval kc = power_of_interval(k, c);
  switch (form) {
    case ScheduleForm::ratio: return exact(a) / (1 + exact(b) * kc);
    case ScheduleForm::power: return exact(a) * kc;
    case ScheduleForm::affine: return exact(a) + exact(b) * kc;
  }
  return positive_infinity();
}

double StepSchedule::exponent() const {
  switch (form) {
    case ScheduleForm::ratio: return (b > 0 && c > 0) ? -c : 0.0;
    case ScheduleForm::power: return c;
    case ScheduleForm::affine: return (b != 0 && c > 0) ? c : 0.0;
  }
  return 0;
}

// Complete monotonicity in the real variable k > 0 (all derivatives alternate in sign, f >= 0):
//  - k^c with c <= 0 is completely monotone (CM); constants >= 0 are CM; sums and products of CM are CM.
//  - b k^c with b >= 0 and 0 <= c <= 1 is a Bernstein function (positive, CM derivative), so is 1 + b k^c and
//    a + b k^c (a >= 0), and the reciprocal of a positive Bernstein function is CM (Schilling, Song and
//    Vondracek, "Bernstein functions", 2nd ed., Thm 3.7 / Cor. 3.8).
bool StepSchedule::completely_monotone() const {
  if (!(a > 0)) return false;
  switch (form) {
    case ScheduleForm::ratio: return b >= 0 && c >= 0 && c <= 1;  // a / Bernstein
    case ScheduleForm::power: return c <= 0;
    case ScheduleForm::affine: return b == 0 || (b > 0 && c <= 0);  // a + b k^c, c <= 0: sum of CM
  }
  return false;
}

bool StepSchedule::reciprocal_completely_monotone() const {
  switch (form) {
    case ScheduleForm::ratio: return a > 0 && b >= 0 && (b == 0 || c == 0);  // a constant
    case ScheduleForm::power: return a > 0 && c >= 0;                        // k^-c / a
    case ScheduleForm::affine: return a >= 0 && b >= 0 && a + b > 0 && c >= 0 && c <= 1;  // 1 / Bernstein
  }
  return false;
}

std::string StepSchedule::describe() const {
  const std::string kc = c == 0 ? "1" : (c == 1 ? "k" : "k^" + number(c));
  switch (form) {
    case ScheduleForm::ratio: return number(a) + "/(1+" + number(b) + "*" + kc + ")";
    case ScheduleForm::power: return number(a) + "*" + kc;
    case ScheduleForm::affine: return number(a) + "+" + number(b) + "*" + kc;
  }
  return "?";
}

StepSchedule ratio_schedule(double a, double b, double c) { return {ScheduleForm::ratio, a, b, c}; }
StepSchedule power_schedule(double a, double c) { return {ScheduleForm::power, a, 0, c}; }
StepSchedule affine_schedule(double a, double b, double c) { return {ScheduleForm::affine, a, b, c}; }

void require_positive(const StepSchedule& s, const std::string& name, std::int64_t k0) {
  const std::string what = name + " = " + s.describe();
  if (k0 < 0) throw InputError("k0 = " + std::to_string(k0) + ": the start index must be >= 0");
  if (!std::isfinite(s.a) || !std::isfinite(s.b) || !std::isfinite(s.c))
    throw InputError(what + ": coefficients must be finite");
  if (k0 == 0 && s.c < 0)
    throw InputError(what + " with k0 = 0: k^c with c < 0 is undefined at k = 0; use k0 >= 1 or c >= 0");
  // Each family is monotone in k^c >= 0; with a > 0 and b >= 0 it stays positive except where k^c = 0 at k = 0.
  bool ok = s.b >= 0;
  switch (s.form) {
    case ScheduleForm::ratio: ok = ok && s.a > 0; break;
    case ScheduleForm::power: ok = s.a > 0 && (k0 >= 1 || s.c == 0); break;
    case ScheduleForm::affine: ok = ok && s.a >= 0 && (s.a > 0 || (s.b > 0 && (k0 >= 1 || s.c == 0))); break;
  }
  if (!ok || !(s.at(k0) > 0) || !std::isfinite(s.at(k0)))
    throw InputError(what + ": must be finite and > 0 for every k >= k0 = " + std::to_string(k0) +
                     " (allowed: a > 0 and b >= 0; affine: a, b >= 0 with a + b k^c > 0; power at k0 = 0: c = 0)");
}

void require_nonincreasing_at_most_one(const StepSchedule& s, const std::string& name, std::int64_t k0) {
  require_positive(s, name, k0);
  bool nonincreasing = false;
  switch (s.form) {
    case ScheduleForm::ratio: nonincreasing = s.b == 0 || s.c >= 0; break;
    case ScheduleForm::power: nonincreasing = s.c <= 0; break;
    case ScheduleForm::affine: nonincreasing = s.b == 0 || s.c <= 0; break;
  }
  if (!nonincreasing || s.at(k0) > 1)
    throw InputError(name + " = " + s.describe() + ": must be non-increasing with " + name + "^k0 <= 1 (k0 = " +
                     std::to_string(k0) + ", value " + number(s.at(k0)) +
                     "; Lemma 6 of the paper needs kappa gamma^k < 1)");
}

StepSchedule read_schedule(RunParameters& params, const std::string& name, const StepSchedule& def) {
  const std::string form = params.choice(name + "_form", to_string(def.form), {"ratio", "power", "affine"});
  StepSchedule s;
  s.form = form == "ratio" ? ScheduleForm::ratio : (form == "power" ? ScheduleForm::power : ScheduleForm::affine);
  s.a = params.real(name + "_a", def.a, 0, 1e12);
  s.b = params.real(name + "_b", def.b, 0, 1e12);
  s.c = params.real(name + "_c", def.c, -4, 4);
  if (s.form == ScheduleForm::power) s.b = 0;
  return s;
}

Json to_json(const StepSchedule& s) {
  Json j = Json::object();
  j["form"] = to_string(s.form);
  j["a"] = s.a;
  j["b"] = s.b;
  j["c"] = s.c;
  j["formula"] = s.describe();
  return j;
}

StepSchedule simulation_lambda() { return ratio_schedule(0.02, 0.1, 1); }
StepSchedule simulation_gamma() { return ratio_schedule(1, 0.1, 0.9); }
StepSchedule simulation_nu() { return affine_schedule(1, 0.1, 0.3); }
StepSchedule theorem2_lambda() { return power_schedule(1, -1); }
StepSchedule theorem2_gamma() { return power_schedule(1, -0.9); }

PowerLawExponents exponents(const StepSchedule& lambda, const StepSchedule& gamma, const StepSchedule& nu) {
  return {-lambda.exponent(), -gamma.exponent(), nu.exponent()};
}

// Notes sec. 2.6 (derived from Theorem 1, Assumption 3, Theorem 2(1) and the corrected accountant, sec. 3.5).
std::vector<FeasibilityRow> feasibility_table(const PowerLawExponents& e) {
  std::vector<FeasibilityRow> rows;
  rows.push_back({"sum gamma^k = inf", "Theorem 1", "v <= 1", e.v, e.v <= 1});
  rows.push_back({"sum lambda^k = inf", "Theorem 1", "u <= 1", e.u, e.u <= 1});
  rows.push_back({"sum (lambda^k)^2/gamma^k < inf", "Theorem 1", "2u - v > 1", 2 * e.u - e.v, 2 * e.u - e.v > 1});
  rows.push_back({"sum (gamma^k nu^k)^2 < inf", "Assumption 3", "v - w > 1/2", e.v - e.w, e.v - e.w > 0.5});
  rows.push_back({"sum lambda^k/nu^k < inf (paper's finite eps)", "Theorem 2(1)", "u + w > 1", e.u + e.w,
                  e.u + e.w > 1});
  rows.push_back({"sum lambda^k/(gamma^k nu^k) < inf (corrected finite eps)", "derived (docs/wang2022.md sec. 3)",
                  "u - v + w > 1", e.u - e.v + e.w, e.u - e.v + e.w > 1});
  return rows;
}

Json to_json(const std::vector<FeasibilityRow>& rows) {
  Json out = Json::array();
  for (const auto& r : rows) {
    Json j = Json::object();
    j["condition"] = r.condition;
    j["source"] = r.source;
    j["exponent_form"] = r.exponent_form;
    j["value"] = r.value;
    j["holds"] = r.holds;
    out.push_back(j);
  }
  return out;
}

}  // namespace dpl::algorithms::seed001
