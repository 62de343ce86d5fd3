// SPDX-License-Identifier: Apache-2.0
#include "cli/ledger_file_option.h"

#include "accounting/errors.h"
#include "accounting/mechanisms/dp_event_text.h"
#include "accounting/input_file.h"

#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace dpl::cli {

namespace {
// --asdict-class: one command runs per process, so the commands that read ledgers share one list.
LedgerReadOptions& read_options() {
  static LedgerReadOptions o;
  return o;
}
}  // namespace

CLI::Option* add_ledger_file_option(CLI::App* sub, std::vector<std::string>& files) {
  std::string classes;
  for (const auto& c : ambiguous_asdict_classes()) classes += (classes.empty() ? "" : ", ") + c;
  sub->add_option("--asdict-class", read_options().asdict_classes,
                  "The dp_accounting class meant by attr.asdict dicts in --ledger files whose fields fit several "
                  "classes (repeatable): e.g. GaussianDpEvent for {'noise_multiplier': 1.1}. One of " + classes)
      ->check(CLI::IsMember(ambiguous_asdict_classes()).description(""))
      ->type_name("CLASS");
  return sub->add_option("--ledger", files,
                         "Ledger file (repeatable; - = standard input), composed after the -m specs: JSON lines "
                         "{\"mechanism\":\"gaussian\",\"sigma\":1.1,\"q\":0.01,\"steps\":1000}, a JSON array of them, "
                         "a text file of -m specs one per line (# comments), an Opacus accountant history "
                         "[[noise_multiplier, sample_rate, steps], ...], or a dp_accounting DpEvent tree as JSON "
                         "(to_named_tuple()), repr(event) or attr.asdict(event)");
}

std::vector<LedgerFileEntry> read_ledger_files(const std::vector<std::string>& files) {
  std::vector<LedgerFileEntry> out;
  bool stdin_used = false;
  std::size_t total = 0;
  for (const auto& f : files) {
    if (f == "-") {
      if (stdin_used) throw InputError("--ledger -: standard input can be given only once");
      stdin_used = true;
    }
    // At most 64 MB per file (about a million entries), read before anything is parsed: a device that never
    // ends (/dev/zero) or a directory is refused, not read until the memory runs out.
    const std::string text = read_input_file(f, "--ledger " + f);
    total += text.size();
    if (total > kDefaultInputFileLimits.max_bytes)
      throw InputError("--ledger: the ledger files together are longer than the limit of 64 MB (at " + f + ")");
    auto entries = parse_ledger_text(text, f == "-" ? "<stdin>" : f, read_options());
    out.insert(out.end(), std::make_move_iterator(entries.begin()), std::make_move_iterator(entries.end()));
  }
  return out;
}

std::vector<std::string> specs_with_files(const std::vector<std::string>& specs, const std::vector<std::string>& files) {
  std::vector<std::string> all = specs;
  for (const auto& e : read_ledger_files(files)) all.push_back(e.spec);
  return all;
}

void require_some_ledger(const std::vector<std::string>& specs, const std::vector<std::string>& files) {
  if (specs.empty() && files.empty())
    throw InputError("no mechanism: give -m SPEC (repeatable) and/or --ledger FILE");
}

}  // namespace dpl::cli
