// SPDX-License-Identifier: Apache-2.0
// Provenance: which dpledger (version and commit) wrote an output, and with which arguments. Every JSON object
// the CLI prints carries "version" and "arguments"; every file it writes carries the same in the file's own
// comment or metadata syntax (stamp_file).
#pragma once

#include "cli/output.h"

#include <string>
#include <vector>

namespace dpl::cli {

// "0.1.0 (commit 1a2b3c4d5e6f)": the version and the commit the executable was built from ("-dirty" when the
// working tree had uncommitted changes, "unknown commit" outside a git checkout).
const std::string& version_string();

// The command's arguments (argv[1..]), recorded once by main().
void record_arguments(int argc, const char* const* argv);
const std::vector<std::string>& recorded_arguments();

// The command line as a shell would take it back: "dpledger compose -m 'gaussian:sigma=1,q=0.01' --delta 1e-5".
std::string command_line();

// `j` with "version" and "arguments" after its "command" member (or first, if it has none).
Json with_provenance(const Json& j);

// `content` of the file `path` with the provenance added in the file's syntax, chosen by its extension (and, for
// other extensions, by its content):
//   .csv (and other text)   a first line "# dpledger VERSION: COMMAND LINE"
//   .svg                    a <metadata> element, the first child of <svg>
//   .md                     a last line "Written by dpledger VERSION: `COMMAND LINE`"
//   roff (.TH ...)          a first comment line .\" dpledger VERSION: COMMAND LINE
//   one JSON object         "version" and "arguments" members (those it does not have already)
//   .jsonl, JSON lines      a first line {"version":...,"arguments":[...]} (ledger readers skip it)
std::string stamp_file(const std::string& path, const std::string& content);

// The provenance first line of a file written as a stream, chosen by its extension: "# dpledger ...\n" for .csv,
// the JSON line for .jsonl; "" for a format whose provenance is not a first line (the content is then stamped
// whole by stamp_file).
std::string stamp_prefix(const std::string& path);

}  // namespace dpl::cli
