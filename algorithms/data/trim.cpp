// SPDX-License-Identifier: Apache-2.0
#include "algorithms/data/trim.h"

namespace dpl::algorithms {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

}  // namespace dpl::algorithms
