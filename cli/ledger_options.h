// SPDX-License-Identifier: Apache-2.0
// The repeatable `-m SPEC` option shared by compose, rdp, calibrate and audit, and the ledger's JSON echo.
#pragma once

#include "accounting/mechanisms/mechanism_spec.h"
#include "cli/output.h"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace dpl::cli {

// Adds `-m,--mechanism SPEC` (repeatable, required) to `sub`, with the spec grammar in its help.
CLI::Option* add_mechanism_option(CLI::App* sub, std::vector<std::string>& specs);
// Parses every spec (no '?').
Ledger parse_ledger(const std::vector<std::string>& specs);
// The resolved ledger (defaults filled in) as JSON.
Json ledger_json(const Ledger& ledger);
Json entry_json(const LedgerEntry& e);

}  // namespace dpl::cli
