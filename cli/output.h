// SPDX-License-Identifier: Apache-2.0
// What a command produces: one JSON object (for --json) and the human-readable text; the exit code.
#pragma once

#include "presentation/json_numbers.h"

#include <string>

namespace dpl::cli {

// The JSON numbers of the presentation layer (presentation/json_numbers.h), as every command writes them.
using presentation::dump_json;
using presentation::Json;
using presentation::json_decimal;
using presentation::json_input;
using presentation::json_lower;
using presentation::json_upper;
using presentation::json_upper_decimal;

struct Output {
  Json json = Json::object();
  std::string text;
  int exit_code = 0;
};

// Global flags shared by every command.
struct GlobalOptions {
  bool json = false;
  bool quiet = false;
  bool verbose = false;  // the default text gives one line per result; --verbose adds the method and the notes
};
GlobalOptions& global_options();

}  // namespace dpl::cli
