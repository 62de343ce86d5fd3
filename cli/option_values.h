// SPDX-License-Identifier: Apache-2.0
// Parsing and validating the numeric values of command-line options (not mechanism specs), with messages
// naming the option, the value and the allowed range: the typed decimals of the presentation layer
// (presentation/typed_values.h) and the CLI11 checks of integer options.
#pragma once

#include "presentation/typed_values.h"

#include <CLI/CLI.hpp>

namespace dpl::cli {

using presentation::parse_decimal;
using presentation::parse_delta;
using presentation::parse_epsilon;
using presentation::parse_finite;
using presentation::parse_list;

// A CLI11 check for an integer option: the text typed is a decimal integer (optional sign) in [lo, hi], checked
// before CLI11 converts it (so -1 never wraps to 2^64 - 1 and 2^64 never saturates).
CLI::Validator integer_in(long long lo, unsigned long long hi);
// Seeds: integers in [0, 2^64).
CLI::Validator seed_value();

}  // namespace dpl::cli
