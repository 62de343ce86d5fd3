// SPDX-License-Identifier: Apache-2.0
// The ledger-file JSON object of an extended mechanism entry (docs/ledger_files.md): "mechanism" and the keys of
// its -m spec, lists as JSON arrays, select's run as an array of such objects, shape inf as the string "inf".
#pragma once

#include "accounting/mechanisms/mechanism_spec.h"

#include <nlohmann/json.hpp>

namespace dpl {

// For an entry with is_extended(kind), or rr in the (p, k) form; `entry_json` writes the inner entries of a run.
nlohmann::ordered_json extended_entry_json(const LedgerEntry& e, nlohmann::ordered_json (*entry_json)(const LedgerEntry&));

}  // namespace dpl
