// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed003/ledger_epsilon.h"

#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/numeric/decimal.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>

namespace dpl::algorithms::seed003 {

std::string spec_number(double v) {
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

Json ledger_epsilon(const std::vector<std::string>& specs, double delta, AccountantKind kind) {
  Json j = Json::object();
  Json list = Json::array();
  for (const auto& s : specs) list.push_back(s);
  try {
    Ledger ledger;
    for (const auto& s : specs) ledger.push_back(parse_entry(s));
    const AccountingResult r = compose(ledger, Target::for_delta(delta), kind);
    const std::string up = format_upper(r.epsilon);  // as `dpledger compose` prints it (rounded up)
    j["epsilon"] = up == "inf" ? Json("inf") : Json(std::strtod(up.c_str(), nullptr));
    j["delta"] = delta;
    j["accountant"] = r.accountant;
    if (r.order) j["order"] = *r.order;
    j["method"] = r.note;
  } catch (const NotApplicable& e) {
    j["epsilon"] = "not applicable";
    j["reason"] = e.what();
  }
  j["ledger"] = list;
  return j;
}

Json best_certified(const Json& candidates) {
  Json best = Json{{"epsilon", "inf"}};
  double best_eps = HUGE_VAL;
  for (const auto& c : candidates) {
    if (!c.contains("epsilon") || !c["epsilon"].is_number()) continue;
    const double e = c["epsilon"].get<double>();
    if (e < best_eps) {
      best_eps = e;
      best = c;
      best["from"] = c.value("name", std::string("?"));
    }
  }
  return best;
}

}  // namespace dpl::algorithms::seed003
