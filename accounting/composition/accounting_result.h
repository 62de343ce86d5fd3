// SPDX-License-Identifier: Apache-2.0
// The common request and answer of every composition accountant.
#pragma once

#include "accounting/mechanisms/mechanism_spec.h"
#include "accounting/numeric/interval.h"

#include <optional>
#include <string>
#include <vector>

namespace dpl {

enum class AccountantKind { pure, basic, advanced, optimal, rdp, pld, automatic };

std::string to_string(AccountantKind k);
// Parses an accountant name; throws InputError naming --accountant and the allowed names.
AccountantKind parse_accountant(const std::string& name);
// Every accountant, in the order of --help (the names parse_accountant accepts; shell completion lists them).
const std::vector<AccountantKind>& all_accountant_kinds();

// Either "epsilon for this delta" or "delta for this epsilon".
struct Target {
  enum class Given { delta, epsilon } given;
  double value;
  static Target for_delta(double d) { return {Given::delta, d}; }
  static Target for_epsilon(double e) { return {Given::epsilon, e}; }
};

struct AccountingResult {
  std::string accountant;               // the accountant that produced the bound (auto resolved)
  Interval epsilon;                     // given (exact) or bounded: hi() is the certified upper bound
  Interval delta;                       // given (exact) or bounded: hi() is the certified upper bound
  std::optional<Interval> lower;        // a certified lower bound on the true epsilon/delta, if the method has one
  std::optional<double> order;          // RDP: the Renyi order used by the conversion
  std::string note;                     // one line on the method (e.g. "DRV 2010 Thm III.3")
};

}  // namespace dpl
