// The default text of a `compose` result, shared by the command and the Python package's str(): the bound, the
// target, the certified lower bound and order where there are, and the accountant; with --verbose also its method.
#pragma once

#include "accounting/composition/accounting_result.h"

#include <string>

namespace dpl::cli {

std::string compose_text(const AccountingResult& r, bool given_delta, double target, bool verbose);

}  // namespace dpl::cli
