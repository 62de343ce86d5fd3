// SPDX-License-Identifier: Apache-2.0
// Noise calibration: the best value of the one '?' parameter of a ledger that still meets (epsilon, delta)
// under an accountant, with a certified answer.
#pragma once

#include "accounting/composition/accounting_result.h"
#include "accounting/progress_callback.h"

#include <string>
#include <vector>

namespace dpl {

struct CalibrationResult {
  std::string parameter;     // sigma, b, steps, q or eps
  bool smallest;             // sigma/b: the smallest value that meets; steps/q/eps: the largest
  double value;              // the answer: certified to meet the target (every compose of it gives <= epsilon)
  double failing;            // the nearest value on the other side that was not certified to meet (bracket end)
  Ledger ledger;             // the ledger with `value` substituted
  AccountingResult at_value; // the accountant's answer at `value`
  int evaluations;           // accountant calls used
  double tolerance;          // the relative bracket width used (resolved when 0 = automatic was asked)
};

// The relative tolerance chosen when 0 (automatic) is asked: rdp's answers are resolved below its own accuracy;
// pld's move by about 1e-6 relative between neighbouring grids; closed forms to a few ulps.
inline constexpr double kAutomaticToleranceRdp = 1e-9;
inline constexpr double kAutomaticTolerancePld = 1e-6;
inline constexpr double kAutomaticToleranceClosedForm = 4e-16;

// specs: mechanism spec texts, exactly one of which has one key written '?' (sigma, b, steps, q or eps).
// Finds the smallest sigma/b or the largest steps/q/eps whose composition has epsilon <= `epsilon` at `delta`
// under `accountant`, to relative precision `rel_tol` (integers exactly; 0 = automatic: a few ulps for
// closed forms, 1e-9 for rdp, 1e-6 for pld: the constants above). The monotone search brackets the
// threshold and narrows it by the Illinois method; only certified answers are kept on the `value` side.
// Throws InputError for malformed specs, NotApplicable when no value in the domain meets the target.
// epsilon: an enclosure of the target (e.g. the exact decimal typed, from_decimal); a value meets it when its
// certified epsilon upper bound is <= the enclosure's lower end. delta: the target delta as the double at or
// below the decimal typed (DecimalValue::down), so meeting it there meets it at the decimal.
// Under auto and pld the answer is first located with rdp; a pld search then runs on one fixed grid without
// the lower bound, and only the final answer is certified by the full pld accountant.
CalibrationResult calibrate(const std::vector<std::string>& specs, const Interval& epsilon, double delta,
                            AccountantKind accountant, double rel_tol, const ProgressCallback& progress = {});
// The same with a target epsilon that is a double (met exactly).
inline CalibrationResult calibrate(const std::vector<std::string>& specs, double epsilon, double delta,
                                   AccountantKind accountant, double rel_tol) {
  return calibrate(specs, exact(epsilon), delta, accountant, rel_tol);
}

}  // namespace dpl
