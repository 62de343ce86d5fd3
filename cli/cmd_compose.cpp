// `dpledger compose`: epsilon for a delta, or delta for an epsilon, of a composition of mechanisms.
#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/numeric/decimal.h"
#include "cli/command_registry.h"
#include "cli/ledger_options.h"
#include "cli/option_values.h"

#include <memory>
#include <sstream>

namespace dpl::cli {
namespace {

struct ComposeOptions {
  std::vector<std::string> specs;
  std::string delta, epsilon, accountant = "auto";
};

Output run_compose(const ComposeOptions& o) {
  const Ledger ledger = parse_ledger(o.specs);
  const AccountantKind kind = parse_accountant(o.accountant);
  const bool given_delta = !o.delta.empty();
  // The bound holds at the decimal typed, not only at its nearest double (see DecimalTarget).
  const DecimalValue typed = given_delta ? parse_delta("--delta", o.delta, true) : parse_epsilon("--epsilon", o.epsilon);
  const Target target{given_delta ? Target::Given::delta : Target::Given::epsilon, typed.nearest};
  const AccountingResult r = compose(ledger, DecimalTarget{target.given, typed.down, typed.up}, kind);

  Output out;
  out.json["command"] = "compose";
  out.json["accountant"] = r.accountant;
  out.json["accountant_requested"] = to_string(kind);
  out.json["given"] = given_delta ? "delta" : "epsilon";
  out.json["epsilon"] = given_delta ? json_upper(r.epsilon) : json_input(target.value);
  out.json["delta"] = given_delta ? json_input(target.value) : json_upper(r.delta);
  if (r.lower) out.json[given_delta ? "epsilon_lower" : "delta_lower"] = json_lower(*r.lower);
  if (r.order) out.json["order"] = *r.order;
  out.json["mechanisms"] = ledger_json(ledger);
  out.json["method"] = r.note;

  std::ostringstream t;
  if (given_delta) {
    t << "epsilon  " << format_upper(r.epsilon) << "   (upper bound, rounded up)\n";
    t << "delta    " << format_input(target.value) << "\n";
  } else {
    t << "epsilon  " << format_input(target.value) << "\n";
    t << "delta    " << format_upper(r.delta) << "   (upper bound, rounded up)\n";
  }
  if (r.lower) t << "lower    " << format_lower(*r.lower) << "   (certified lower bound on the true value)\n";
  if (r.order) t << "order    " << format_input(*r.order) << "   (Renyi order of the conversion)\n";
  t << "accountant " << r.accountant << ": " << r.note << "\n";
  out.text = t.str();
  return out;
}

const Registration registration{"compose", 10, [](CLI::App& root, CLI::App*& sub) -> Runner {
  auto o = std::make_shared<ComposeOptions>();
  sub = root.add_subcommand("compose", "Privacy budget of a composition: epsilon for --delta, or delta for --epsilon");
  add_mechanism_option(sub, o->specs);
  auto* d = sub->add_option("--delta", o->delta, "Target delta in [0, 1): print the epsilon bound");
  auto* e = sub->add_option("--epsilon", o->epsilon, "Target epsilon >= 0: print the delta bound");
  d->excludes(e);
  sub->add_option("--accountant", o->accountant,
                  "pure | basic | advanced | optimal | rdp | pld | auto (default: auto, the tightest certified "
                  "bound among the accountants that apply)")
      ->capture_default_str();
  sub->callback([d, e] {
    if (d->count() == 0 && e->count() == 0) throw CLI::ValidationError("compose", "one of --delta or --epsilon is required");
  });
  return [o] { return run_compose(*o); };
}};

}  // namespace
}  // namespace dpl::cli
