// SPDX-License-Identifier: Apache-2.0
#include "cli/ledger_options.h"

#include "algorithms/run/mechanism_ledger.h"

namespace dpl::cli {

CLI::Option* add_mechanism_option(CLI::App* sub, std::vector<std::string>& specs) {
  return sub
      ->add_option("-m,--mechanism", specs,
                   "Mechanism spec NAME:key=value,... (repeatable; composed in order). NAME is gaussian (sigma or "
                   "noise_multiplier, sens=1), laplace (b, sens=1), rr (eps, or p and k), pure (eps), approx (eps, "
                   "delta), iteration (sigma, sens, steps, index=1, contraction=1), discrete_gaussian (sigma, sens=1, "
                   "dim), discrete_laplace (a, sens=1), zcdp (rho, xi=0), exponential (eps), permute_and_flip (eps), "
                   "tree (sigma, leaves, sens=1), mixture (sigma, sens=[c1,c2,..], probs=[p1,p2,..]), "
                   "truncated_gaussian (sigma, q, batch_size, dataset_size, sens=1), wr_gaussian (sigma, batch_size, "
                   "dataset_size, sens=1), select (mean, shape, run=[SPEC;SPEC..]) or shuffle (eps0, n) "
                   "(docs/mechanisms.md); modifiers steps=K (default 1), q=Q in (0,1] or an exact fraction q=B/N "
                   "(alias sample_rate) with sampling=poisson (default, add/remove neighbours), sampling=wor "
                   "(replace-one) or sampling=poisson_replace_one (gaussian, replace-one; pld); DP-SGD's batch_size=B,dataset_size=N (q = B/N) and epochs=E with them (steps = "
                   "ceil(E N/B)). Numbers are decimals, read exactly (bounds hold for the number typed). -m or "
                   "--ledger is required")
      ->take_all()
      ->allow_extra_args(false);
}

Ledger parse_ledger(const std::vector<std::string>& specs) {
  Ledger ledger;
  for (const auto& s : specs) ledger.push_back(parse_entry(s));
  return ledger;
}

// compose --json's view of an entry: the ledger-file keys (one writer, algorithms/run/mechanism_ledger.h) under
// "name", with q and sampling always present.
Json entry_json(const LedgerEntry& e) {
  const Json file_keys = algorithms::mechanism_entry_json(e);
  Json j = Json::object();
  // Real parameters as the decimals that read back as them (spec_decimal): never the nearest decimal, which a
  // reader would take for a more private mechanism.
  for (const auto& [key, value] : file_keys.items())
    j[key == "mechanism" ? "name" : key] =
        value.is_number_float() ? json_decimal(spec_decimal(key, value.get<double>())) : value;
  if (e.mechanism.kind != MechanismKind::iteration && e.mechanism.kind != MechanismKind::truncated_gaussian) {
    j["q"] = json_decimal(spec_decimal("q", e.q));
    j["sampling"] = to_string(e.sampling);
  }
  return j;
}

Json ledger_json(const Ledger& ledger) {
  Json a = Json::array();
  for (const auto& e : ledger) a.push_back(entry_json(e));
  return a;
}

}  // namespace dpl::cli
