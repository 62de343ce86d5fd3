// SPDX-License-Identifier: Apache-2.0
// JSON numbers for bounds and inputs, shared by the command line's --json output and the Python package's floats:
// an upper bound rounded up, a lower bound rounded down, an input echoed exactly.
#pragma once

#include "accounting/numeric/interval.h"

#include <nlohmann/json.hpp>

#include <string>

namespace dpl::presentation {

using Json = nlohmann::ordered_json;

// A JSON number for an upper bound: the upper endpoint rounded up to 15 significant digits ("inf" if
// unbounded, since JSON has no infinity). Outside the normal double range (e.g. 3.9e-343) the value is held as a
// marked string that dump_json() writes as the bare decimal token: JSON carries the same directed decimal as
// the text, never a subnormal below it or 0. Print every Output with dump_json().
Json json_upper(const Interval& x);
// A JSON number for a lower bound, rounded down.
Json json_lower(const Interval& x);
// A JSON number for an upper bound given as a decimal string already rounded up (e.g. an exact rational printed
// by format_up_rational): as json_upper, "inf" above the double range and the decimal itself below it.
Json json_upper_decimal(const std::string& s);
// A JSON number written as the given decimal itself (e.g. a value rounded in its safe direction by spec_decimal), not
// as the shortest decimal of its nearest double; "inf" at or above the largest double.
Json json_decimal(const std::string& s);
// A JSON number echoing an input double exactly (shortest round trip); NaN is an internal error.
Json json_input(double x);
// The JSON text of j with the marked decimals of json_upper/json_lower/json_upper_decimal as number tokens.
std::string dump_json(const Json& j);

}  // namespace dpl::presentation
