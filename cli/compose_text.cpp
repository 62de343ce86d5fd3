#include "cli/compose_text.h"

#include "accounting/numeric/decimal.h"
#include "cli/text_table.h"

namespace dpl::cli {

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

}  // namespace dpl::cli
