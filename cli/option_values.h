// SPDX-License-Identifier: Apache-2.0
// Parsing and validating the numeric values of command-line options (not mechanism specs), with messages
// naming the option, the value and the allowed range.
#pragma once

#include "accounting/numeric/decimal.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace dpl::cli {

// A finite number; throws InputError("--name=value is not a number").
double parse_finite(const std::string& option, const std::string& value);
// delta in [0, 1) (or (0, 1) when !allow_zero), kept as the decimal typed (see DecimalValue).
DecimalValue parse_delta(const std::string& option, const std::string& value, bool allow_zero);
// epsilon in [0, inf), kept as the decimal typed.
DecimalValue parse_epsilon(const std::string& option, const std::string& value);
// A CLI11 check for an integer option: the text typed is a decimal integer (optional sign) in [lo, hi], checked
// before CLI11 converts it (so -1 never wraps to 2^64 - 1 and 2^64 never saturates).
CLI::Validator integer_in(long long lo, unsigned long long hi);
// Seeds: integers in [0, 2^64).
CLI::Validator seed_value();

// A decimal number (decimal.h: no hexadecimal, inf or nan), kept as the decimal typed.
DecimalValue parse_decimal(const std::string& option, const std::string& value);
// A comma-separated list of finite numbers.
std::vector<double> parse_list(const std::string& option, const std::string& value);

}  // namespace dpl::cli
