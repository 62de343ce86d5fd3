// SPDX-License-Identifier: Apache-2.0
// Ledgers from files: the mechanism history of a training run, in the formats users already have.
//   - JSON lines, one entry per line: {"mechanism":"gaussian","sigma":1.1,"q":0.01,"steps":1000} (keys as in the
//     -m specs; "name" is accepted for "mechanism", so the "mechanisms" array of `dpledger --json compose` reads
//     back), or a JSON array of such objects;
//   - plain text, one -m spec per line (`gaussian:sigma=1.1,q=0.01,steps=1000`), `#` starts a comment;
//   - Opacus's accountant history (opacus.accountants.RDPAccountant / PRVAccountant / GaussianAccountant `.history`,
//     Opacus 1.4-1.5): a JSON array of [noise_multiplier, sample_rate, steps] triples, or the accountant's state
//     {"history": [...], "mechanism": "rdp"};
//   - Google dp_accounting's DpEvent tree as `DpEvent.to_named_tuple()` gives it (every event class of dp_accounting
//     0.6; accounting/mechanisms/dp_event_ledger.h), written as JSON objects with "module_name", "class_name" and
//     the fields (a file may hold one tree, an array of trees, or one tree per line); the same trees as Python
//     prints them: repr(event) (attrs' repr, one per line or a list) and attr.asdict(event) (printed, or written by
//     json.dump), whose classes are read from their fields (accounting/mechanisms/dp_event_text.h);
//   - the first line {"version": ..., "arguments": [...]} of the files dpledger writes is skipped.
// Every entry is turned into the equivalent -m spec and validated by the same parser, so a file and the same
// -m options give the same ledger. Errors (InputError) name the source, the line and the field.
#pragma once

#include "accounting/mechanisms/mechanism_spec.h"

#include <string>
#include <vector>

namespace dpl {

struct LedgerFileEntry {
  std::string spec;   // the equivalent -m spec
  std::string where;  // "FILE:LINE" (and the element), for messages
  LedgerEntry entry;  // the validated entry
};

struct LedgerReadOptions {
  // The dp_accounting classes meant by attr.asdict dicts whose fields fit several classes (GaussianDpEvent or
  // LaplaceDpEvent for {"noise_multiplier": ...}; accounting/mechanisms/dp_event_text.h).
  std::vector<std::string> asdict_classes;
};

// Parses the text of a ledger file; `source` names it in messages ("-" for standard input). An empty file (no
// entry at all) is an error.
std::vector<LedgerFileEntry> parse_ledger_text(const std::string& text, const std::string& source,
                                               const LedgerReadOptions& options = {});

// The entry of one -m spec read from a file; errors (InputError) are prefixed by `where`.
LedgerFileEntry make_ledger_file_entry(const std::string& spec, const std::string& where);

// The -m spec of an entry, the inverse of parse_entry: each value the shortest decimal the parser reads back as it
// (spec_decimal, mechanism_spec.h).
std::string to_spec(const LedgerEntry& e);

}  // namespace dpl
