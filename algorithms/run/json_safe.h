// SPDX-License-Identifier: Apache-2.0
// JSON that always serialises: non-finite numbers become the strings "inf", "-inf" or "nan" (nlohmann would write
// null), and strings that are not valid UTF-8 (e.g. a file path's raw bytes) get U+FFFD for each invalid byte
// (nlohmann would throw). For the run outputs and the trace lines.
#pragma once

#include "algorithms/run/run_parameters.h"

#include <string>

namespace dpl::algorithms {

// `s` with every byte that does not start a valid UTF-8 sequence replaced by U+FFFD.
std::string valid_utf8(const std::string& s);
// A copy of `j` with the replacements above, recursively (object keys included).
Json json_safe(const Json& j);

}  // namespace dpl::algorithms
