// SPDX-License-Identifier: Apache-2.0
#include "presentation/calibrate_text.h"

#include "accounting/mechanisms/mechanism_spec.h"
#include "accounting/numeric/decimal.h"
#include "presentation/text_table.h"

namespace dpl::presentation {

std::string calibrate_text(const CalibrationResult& r, double epsilon, double delta, bool verbose) {
  // The answer as the decimal the spec parser reads back as exactly the certified value (spec_decimal: sigma and b
  // rounded up, steps, q and eps down): typed back, it meets the target.
  const std::string key = canonical_key(r.parameter);
  TextTable t;
  t.add_row({r.parameter, spec_decimal(key, r.value),
             std::string("(") + (r.smallest ? "smallest" : "largest") + " value that meets epsilon " +
                 format_input(epsilon) + " at delta " + format_input(delta) + "; certified, rounded " +
                 (r.smallest ? "up" : "down") + ")"});
  t.add_row({"epsilon", format_upper(r.at_value.epsilon), "(upper bound at that value)"});
  if (r.failing != r.value)
    t.add_row({"bracket", spec_decimal(key, r.failing), "(the search's other end: not certified to meet the target)"});
  t.add_row({"accountant", r.at_value.accountant});
  std::string text = t.str();
  if (verbose) text += "method      " + r.at_value.note + "\n";  // after the table: its width would widen a column
  return text;
}

}  // namespace dpl::presentation
