// SPDX-License-Identifier: Apache-2.0
// Text helpers shared by the readers of mechanism specs and ledger files: whitespace trimming and the InputError
// that names where the bad text came from.
#pragma once

#include "accounting/errors.h"
#include "accounting/mechanisms/mechanism_spec.h"

#include <string>

namespace dpl::spec_text {

// `s` without the leading and trailing characters of `blanks` ("" if nothing else is left).
inline std::string trim(const std::string& s, const char* blanks = " \t") {
  const auto b = s.find_first_not_of(blanks);
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(blanks) - b + 1);
}

// InputError "<where>: <msg>" (where: a file and line, a JSON path, an argument).
[[noreturn]] inline void fail(const std::string& where, const std::string& msg) { throw InputError(where + ": " + msg); }

// InputError "-m <spec>: <what>" for a mechanism spec given with -m.
[[noreturn]] inline void fail(const RawSpec& raw, const std::string& what) { throw InputError("-m " + raw.text + ": " + what); }

}  // namespace dpl::spec_text
