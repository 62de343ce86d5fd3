// SPDX-License-Identifier: Apache-2.0
// The default text of a `compose` result, shared by the command and the Python package's str(): the bound, the
// target, the certified lower bound and order where there are, and the accountant; with --verbose also its method.
#pragma once

#include "accounting/composition/accounting_result.h"
#include "accounting/composition/compose.h"

#include <optional>

#include <string>

namespace dpl::presentation {

std::string compose_text(const AccountingResult& r, bool given_delta, double target, bool verbose);

// The closed-form accountants (pure, basic, advanced) sum the typed values at the ends of their enclosures that
// enlarge the bound, so a typed decimal that is not a double (eps=0.1) can put the printed bound a last digit above
// the bound's exact value at the decimals typed (100 x 0.1: 10.0000000000001). Then `line` says so, with the value
// at the other ends (`other_ends`, a lower end); empty otherwise.
struct TypedDecimalNote {
  std::string line;
  std::optional<Interval> other_ends;
};
TypedDecimalNote typed_decimal_note(const Ledger& ledger, const AccountingResult& r, const DecimalTarget& target);

}  // namespace dpl::presentation
