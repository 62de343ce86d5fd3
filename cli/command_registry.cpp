// SPDX-License-Identifier: Apache-2.0
#include "cli/command_registry.h"

namespace dpl::cli {

std::vector<CommandEntry>& command_entries() {
  static std::vector<CommandEntry> entries;
  return entries;
}

Registration::Registration(std::string name, int order, Setup setup) {
  command_entries().push_back(CommandEntry{std::move(name), order, std::move(setup)});
}

}  // namespace dpl::cli
