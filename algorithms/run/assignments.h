// SPDX-License-Identifier: Apache-2.0
// `--set key=value` lists: parsed once for every command (run, audit) and for RunParameters.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace dpl::algorithms {

// "key=value" strings as a key -> value map, keys and values trimmed, later ones overriding earlier ones; throws
// InputError naming the string on a missing '=' or an empty key.
std::map<std::string, std::string> parse_assignments(const std::vector<std::string>& assignments);

}  // namespace dpl::algorithms
