// SPDX-License-Identifier: Apache-2.0
// "did you mean compose?": the closest command or option name to one the user mistyped.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace dpl::cli {

// The known name closest to `typed`: the unique one it is a prefix of, else the one at the smallest
// Damerau-Levenshtein distance if that is at most 2 (at most 1 for names of up to 4 characters). "" if none.
std::string closest_name(const std::string& typed, const std::vector<std::string>& names);

// For a command line CLI11 refused: the first word that is neither a command of `root` nor an option of the
// command it follows, as one error message naming it and the closest known name ("dpledger compse: 'compse' is
// not a command; did you mean compose?"). "" if every word is known (the error is of another kind).
std::string unknown_word_message(const CLI::App& root, int argc, const char* const* argv);

}  // namespace dpl::cli
