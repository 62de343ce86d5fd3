// SPDX-License-Identifier: Apache-2.0
// Examples of every command, shown at the end of `dpledger COMMAND --help` and in the man page. Each is a
// shell line a user can paste (with a # comment line above saying what it shows); tests/cli/help_examples_test.cpp
// runs them all, so they stay true.
#pragma once

#include <string>
#include <vector>

namespace dpl::cli {

struct CommandExample {
  std::string what;     // one line: what it shows
  std::string command;  // the shell line, starting with "dpledger"
};

// The examples of a command ("compose", ...); empty for a command without any.
const std::vector<CommandExample>& command_examples(const std::string& command);

// The "Examples:" block for --help (empty if none).
std::string examples_help_text(const std::string& command);

}  // namespace dpl::cli
