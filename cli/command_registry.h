// SPDX-License-Identifier: Apache-2.0
// Self-registration of `dpledger` subcommands: each cli/cmd_*.cpp adds itself with a static Registration, so
// adding a command never touches main.cpp.
#pragma once

#include "cli/output.h"

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace dpl::cli {

// A command's setup adds its subcommand to `root` and returns the function that runs it once parsed.
using Runner = std::function<Output()>;
using Setup = std::function<Runner(CLI::App& root, CLI::App*& sub)>;

struct CommandEntry {
  std::string name;
  int order;  // position in --help
  Setup setup;
};

std::vector<CommandEntry>& command_entries();

struct Registration {
  Registration(std::string name, int order, Setup setup);
};

}  // namespace dpl::cli
