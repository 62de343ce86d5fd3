// SPDX-License-Identifier: Apache-2.0
// dp_accounting's DpEvents in the forms Python prints or dumps them, turned into the named-tuple JSON form the
// ledger reader accounts ({"class_name": ..., fields}):
//   - repr(event): attrs' repr, e.g. SelfComposedDpEvent(event=PoissonSampledDpEvent(sampling_probability=0.01,
//     event=GaussianDpEvent(noise_multiplier=1.1)), count=1000); a list of them, or one per line;
//   - attr.asdict(event), printed by Python ({'count': 1000, 'event': {...}}) or written by json.dump: a dict
//     without class names, whose class is the dp_accounting 0.6 class with exactly its fields. Where several
//     classes have the same fields (GaussianDpEvent and LaplaceDpEvent: noise_multiplier), the caller names the
//     one meant; otherwise the dict is refused with the candidates named.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace dpl {

// True if the text starts like Python text of DpEvents: a repr (Name( ...), a list of them, or a dict with
// single-quoted keys. JSON is not Python text for this test.
bool looks_like_python_dp_events(const std::string& text);

// Parses Python literal text (repr of DpEvents, dicts, lists, tuples, numbers incl. numpy scalars such as
// np.float64(0.5), strings, True/False/None) into JSON: a call Name(k=v, ...) becomes {"class_name": "Name",
// "k": v, ...}. Several top-level values (one per line) give a JSON array. Throws InputError naming
// source:line for text it cannot read.
nlohmann::json parse_python_dp_events(const std::string& text, const std::string& source);

// An object with no "class_name" whose keys are exactly the fields of a DpEvent class (attr.asdict).
bool is_asdict_dp_event(const nlohmann::json& o);

// The named-tuple form of an attr.asdict dict (nested events included): each dict gets the "class_name" of the
// dp_accounting class with exactly its fields; `meant` resolves dicts that fit several classes (e.g.
// {"GaussianDpEvent"}). Throws InputError naming `where`, the fields and the candidate classes when a dict fits
// none or several.
nlohmann::json dp_event_from_asdict(const nlohmann::json& dict, const std::vector<std::string>& meant,
                                    const std::string& where);

// The class names an attr.asdict dict may be resolved to with `meant` (those sharing their fields with another).
const std::vector<std::string>& ambiguous_asdict_classes();

}  // namespace dpl
