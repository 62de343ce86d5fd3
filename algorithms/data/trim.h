// SPDX-License-Identifier: Apache-2.0
// Whitespace trimming for the text readers (CSV / LibSVM data files, run-parameter assignments and config files).
#pragma once

#include <string>

namespace dpl::algorithms {

// `s` without leading and trailing spaces, tabs, carriage returns and newlines ("" if nothing else is left).
std::string trim(const std::string& s);

}  // namespace dpl::algorithms
