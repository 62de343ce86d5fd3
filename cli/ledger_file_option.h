// SPDX-License-Identifier: Apache-2.0
// `--ledger FILE` (repeatable, `-` for standard input) on compose, rdp and calibrate: ledger entries read from
// files in the formats of accounting/mechanisms/ledger_file.h, composed after the -m specs.
#pragma once

#include "accounting/mechanisms/ledger_file.h"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace dpl::cli {

CLI::Option* add_ledger_file_option(CLI::App* sub, std::vector<std::string>& files);
// Reads and parses every file (InputError naming the file, the line and the field); standard input once.
std::vector<LedgerFileEntry> read_ledger_files(const std::vector<std::string>& files);
// The -m specs followed by the files' entries, as spec strings (for commands that re-parse specs).
std::vector<std::string> specs_with_files(const std::vector<std::string>& specs, const std::vector<std::string>& files);
// Requires at least one of -m / --ledger.
void require_some_ledger(const std::vector<std::string>& specs, const std::vector<std::string>& files);

}  // namespace dpl::cli
