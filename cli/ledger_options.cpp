#include "cli/ledger_options.h"

namespace dpl::cli {

CLI::Option* add_mechanism_option(CLI::App* sub, std::vector<std::string>& specs) {
  return sub
      ->add_option("-m,--mechanism", specs,
                   "Mechanism spec NAME:key=value,... (repeatable; composed in order). NAME is gaussian (sigma, "
                   "sens=1), laplace (b, sens=1), rr (eps), pure (eps), approx (eps, delta) or iteration (sigma, "
                   "sens, steps, index=1, contraction=1); modifiers steps=K (default 1), q=Q in (0,1] with "
                   "sampling=poisson (default, add/remove neighbours) or sampling=wor (replace-one); -m or --ledger "
                   "is required")
      ->take_all()
      ->allow_extra_args(false);
}

Ledger parse_ledger(const std::vector<std::string>& specs) {
  Ledger ledger;
  for (const auto& s : specs) ledger.push_back(parse_entry(s));
  return ledger;
}

Json entry_json(const LedgerEntry& e) {
  const Mechanism& m = e.mechanism;
  Json j = Json::object();
  j["name"] = to_string(m.kind);
  switch (m.kind) {
    case MechanismKind::gaussian: j["sigma"] = m.sigma; j["sens"] = m.sens; break;
    case MechanismKind::laplace: j["b"] = m.b; j["sens"] = m.sens; break;
    case MechanismKind::rr:
    case MechanismKind::pure: j["eps"] = m.eps; break;
    case MechanismKind::approx: j["eps"] = m.eps; j["delta"] = m.delta; break;
    case MechanismKind::iteration:
      j["sigma"] = m.sigma; j["sens"] = m.sens; j["steps"] = m.iterations; j["index"] = m.index;
      j["contraction"] = m.contraction;
      return j;
  }
  j["steps"] = e.steps;
  j["q"] = e.q;
  j["sampling"] = to_string(e.sampling);
  return j;
}

Json ledger_json(const Ledger& ledger) {
  Json a = Json::array();
  for (const auto& e : ledger) a.push_back(entry_json(e));
  return a;
}

}  // namespace dpl::cli
