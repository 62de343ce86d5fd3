// SPDX-License-Identifier: Apache-2.0
#include "algorithms/run/mechanism_ledger.h"

#include "accounting/mechanisms/extended_entry_json.h"
#include "accounting/mechanisms/extended_mechanisms.h"

namespace dpl::algorithms {

// The keys of to_spec (accounting/mechanisms/ledger_file.h), as JSON numbers (nlohmann writes the shortest
// decimal that reads back exactly).
Json mechanism_entry_json(const LedgerEntry& e) {
  const Mechanism& m = e.mechanism;
  if (is_extended(m.kind) || m.x.k > 0) return extended_entry_json(e, &mechanism_entry_json);
  Json j = Json::object();
  j["mechanism"] = to_string(m.kind);
  switch (m.kind) {
    case MechanismKind::gaussian: j["sigma"] = m.sigma; j["sens"] = m.sens; break;
    case MechanismKind::laplace: j["b"] = m.b; j["sens"] = m.sens; break;
    case MechanismKind::rr:
    case MechanismKind::pure: j["eps"] = m.eps; break;
    case MechanismKind::approx: j["eps"] = m.eps; j["delta"] = m.delta; break;
    case MechanismKind::iteration:
      j["sigma"] = m.sigma;
      j["sens"] = m.sens;
      j["steps"] = m.iterations;
      j["index"] = m.index;
      j["contraction"] = m.contraction;
      return j;
    default: break;
  }
  j["steps"] = e.steps;
  if (e.subsampled()) {
    j["q"] = e.q;
    if (e.sampling == Sampling::wor || e.sampling == Sampling::poisson_replace_one) j["sampling"] = to_string(e.sampling);
  }
  return j;
}

Json mechanism_ledger_json(const Ledger& ledger) {
  Json a = Json::array();
  for (const auto& e : ledger) a.push_back(mechanism_entry_json(e));
  return a;
}

Json mechanism_ledger_json(const std::vector<std::string>& specs) {
  Json a = Json::array();
  for (const auto& s : specs) a.push_back(mechanism_entry_json(parse_entry(s)));
  return a;
}

}  // namespace dpl::algorithms
