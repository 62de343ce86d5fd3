// SPDX-License-Identifier: Apache-2.0
// The mechanism ledger of a run (RunResult::mechanisms) in the ledger-file format of `compose --ledger`
// (docs/ledger_files.md): one JSON object per entry with "mechanism" and the keys of its -m spec, so that
// `dpledger run ... --ledger-out FILE` can be replayed with `dpledger compose --ledger FILE`.
#pragma once

#include "accounting/mechanisms/mechanism_spec.h"
#include "algorithms/run/run_parameters.h"

#include <string>
#include <vector>

namespace dpl::algorithms {

// One entry: {"mechanism":"gaussian","sigma":...,"sens":...,"steps":...,"q":...,"sampling":"wor"} (keys that
// hold their defaults are left out, as in to_spec).
Json mechanism_entry_json(const LedgerEntry& e);
// The entries of a ledger, or of -m specs (parsed and validated by parse_entry).
Json mechanism_ledger_json(const Ledger& ledger);
Json mechanism_ledger_json(const std::vector<std::string>& specs);

}  // namespace dpl::algorithms
