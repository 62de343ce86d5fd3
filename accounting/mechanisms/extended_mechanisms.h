// SPDX-License-Identifier: Apache-2.0
// The mechanisms beyond gaussian, laplace, rr (eps), pure, approx and iteration: their spec names and keys, the
// typing and validation of their specs, and their spec text. docs/mechanisms.md describes each mechanism, the
// accountants that apply to it and the papers behind them; the accountants dispatch on MechanismKind.
#pragma once

#include "accounting/mechanisms/mechanism_spec.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dpl {

// Whether the kind is one of the mechanisms of this file (its spec is typed by build_extended_entry).
bool is_extended(MechanismKind k);
// Whether an entry's spec is typed here: an extended kind, or rr in dp_accounting's form (p, k).
bool typed_as_extended(const RawSpec& raw, MechanismKind k);
// The spec names of the extended kinds.
const std::vector<std::pair<std::string, MechanismKind>>& extended_mechanism_names();
// The keys of an extended kind, its modifiers included.
std::vector<std::string> extended_allowed_keys(MechanismKind k);

// Types and validates the spec of an extended kind (or rr with p, k). Decimals are taken in the direction that
// enlarges the bound (noise sigma and rr's p, the probability of a uniform output, down; sensitivities, the discrete
// Laplace's a, eps, eps0, rho, xi, q and the mean number of runs up; docs/typed_decimals.md lists every key).
// `substitute` replaces the value of the "?" key.
LedgerEntry build_extended_entry(const RawSpec& raw, MechanismKind kind, std::optional<double> substitute);
// The checks of build_extended_entry for an entry built in code; throws InputError naming the field.
void validate_extended_entry(const LedgerEntry& e);
// The -m spec of an extended entry (shortest round-trip decimals), which parses back to the same entry.
std::string extended_spec(const LedgerEntry& e);

// Splits `s` at the separator `sep` outside square brackets: "a=1,b=[1,2],c=3" -> "a=1", "b=[1,2]", "c=3".
// Throws InputError (naming `what`) on unbalanced brackets.
std::vector<std::string> split_outside_brackets(const std::string& s, char sep, const std::string& what);

}  // namespace dpl
