// SPDX-License-Identifier: Apache-2.0
// The numbers a user types for a target or a parameter (--delta 1e-5, delta="1e-5"), parsed and validated, kept as
// the decimal typed, with messages naming the option, the value and the allowed range: shared by the command line
// and the Python package (which renames the options in its messages to its arguments).
#pragma once

#include "accounting/numeric/decimal.h"

#include <string>
#include <vector>

namespace dpl::presentation {

// A finite number; throws InputError("--name=value is not a number").
double parse_finite(const std::string& option, const std::string& value);
// delta in [0, 1) (or (0, 1) when !allow_zero), kept as the decimal typed (see DecimalValue).
DecimalValue parse_delta(const std::string& option, const std::string& value, bool allow_zero);
// epsilon in [0, inf), kept as the decimal typed.
DecimalValue parse_epsilon(const std::string& option, const std::string& value);
// A decimal number (decimal.h: no hexadecimal, inf or nan), kept as the decimal typed.
DecimalValue parse_decimal(const std::string& option, const std::string& value);
// A comma-separated list of finite numbers.
std::vector<double> parse_list(const std::string& option, const std::string& value);

}  // namespace dpl::presentation
