// SPDX-License-Identifier: Apache-2.0
#include "algorithms/run/assignments.h"

#include "accounting/errors.h"
#include "algorithms/data/trim.h"

namespace dpl::algorithms {

std::map<std::string, std::string> parse_assignments(const std::vector<std::string>& assignments) {
  std::map<std::string, std::string> m;
  for (const auto& a : assignments) {
    const auto eq = a.find('=');
    if (eq == std::string::npos)
      throw InputError("--set " + a + " is not of the form key=value");
    const std::string key = trim(a.substr(0, eq));
    if (key.empty()) throw InputError("--set " + a + " has an empty key: expected key=value");
    m[key] = trim(a.substr(eq + 1));
  }
  return m;
}

}  // namespace dpl::algorithms
