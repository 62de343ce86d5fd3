// SPDX-License-Identifier: Apache-2.0
// Google dp_accounting's DpEvent trees (the named tuples of `DpEvent.to_named_tuple()`, dp_accounting 0.4 to 0.6,
// written as JSON objects with "module_name", "class_name" and the event's fields) as ledger entries: every event
// class of dp_accounting 0.6 becomes the equivalent -m spec (docs/ledger_files.md), or an error naming the class
// and why dpledger cannot account it (NonPrivateDpEvent, UnsupportedDpEvent, a sampled event whose inner events
// are not Gaussians, ...).
#pragma once

#include "accounting/mechanisms/ledger_file.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace dpl {

// Appends the entries of one DpEvent tree; `where` ("FILE:LINE") prefixes every error.
void dp_event_entries(const nlohmann::json& event, const std::string& where, std::vector<LedgerFileEntry>& out);

}  // namespace dpl
