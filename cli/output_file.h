// SPDX-License-Identifier: Apache-2.0
// Output files (CSV, SVG, traces, reports, shards) written all or nothing: every output option is checked
// writable when the command line is parsed (before any work), a command stages its files while it works, and
// they are written only once it has succeeded, each to a temporary file in the same directory renamed into
// place. A command that fails (exit 2, or a crash of the work) leaves no file behind, not even a partial one.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <ostream>
#include <string>

namespace dpl::cli {

// A CLI11 check for an option naming a file to write: the path is not empty, not a directory, its directory
// exists and accepts a new file (a probe file is created and removed at once), and no other output option of
// the same command line names the same file. Fails with a message naming the path and the reason (and `option`, the
// option's name, when given: a file named twice is reported with both options).
CLI::Validator writable_output_file(const std::string& option = "");

// Checks `path` as writable_output_file() does; throws InputError naming `option` and the path.
void require_writable(const std::string& option, const std::string& path);

// Stages `content` for `path`, written by commit_staged_outputs() after the command succeeded (a path staged
// twice keeps the last content). The file carries its provenance: the dpledger version and the command's arguments
// in the file's own syntax (stamp_file, cli/provenance.h).
void stage_output(const std::string& path, std::string content);
// Stages a writer that streams a large content to the temporary file at commit time (no copy in memory).
void stage_output(const std::string& path, std::function<void(std::ostream&)> writer);

// Writes every staged file through a temporary file in its directory and renames them all into place; when
// one cannot be written, removes every temporary file, writes none and throws InputError naming the path.
// A path that exists and is not a regular file (/dev/null, a pipe) is written directly. `before_rename` runs
// once every temporary file is complete, just before the renames.
void commit_staged_outputs(const std::function<void()>& before_rename = {});
// Forgets the staged files (the command failed).
void discard_staged_outputs();
// Removes the temporary files being written (async-signal-safe: for a signal handler or a watchdog that ends the
// process).
void remove_output_temporaries();

}  // namespace dpl::cli
