// SPDX-License-Identifier: Apache-2.0
#include "presentation/compose_text.h"

#include "accounting/numeric/decimal.h"
#include "presentation/text_table.h"

namespace dpl::presentation {

std::string compose_text(const AccountingResult& r, bool given_delta, double target, bool verbose) {
  TextTable t;
  if (given_delta) {
    t.add_row({"epsilon", format_upper(r.epsilon), "(upper bound, rounded up)"});
    t.add_row({"delta", format_input(target)});
  } else {
    t.add_row({"epsilon", format_input(target)});
    t.add_row({"delta", format_upper(r.delta), "(upper bound, rounded up)"});
  }
  if (r.lower) t.add_row({"lower", format_lower(*r.lower), "(certified lower bound on the true value)"});
  if (r.order) t.add_row({"order", format_input(*r.order), "(Renyi order of the conversion)"});
  t.add_row({"accountant", r.accountant});
  std::string text = t.str();
  if (verbose) text += "method      " + r.note + "\n";  // after the table: its width would widen the value column
  return text;
}

TypedDecimalNote typed_decimal_note(const Ledger& ledger, const AccountingResult& r, const DecimalTarget& target) {
  TypedDecimalNote note;
  if (target.given != Target::Given::delta || r.lower || !has_typed_enclosures(ledger) ||
      (r.accountant != "pure" && r.accountant != "basic" && r.accountant != "advanced"))
    return note;
  const AccountingResult other = compose(optimistic_ledger(ledger), DecimalTarget{target.given, target.up, target.up},
                                         parse_accountant(r.accountant));
  if (format_upper(other.epsilon) == format_upper(r.epsilon)) return note;
  note.line = "note        some typed values are not binary64 numbers: at the decimals typed, this bound lies in [" +
              format_lower(other.epsilon) + ", " + format_upper(r.epsilon) + "] (docs/typed_decimals.md)\n";
  note.other_ends = other.epsilon;
  return note;
}

}  // namespace dpl::presentation
