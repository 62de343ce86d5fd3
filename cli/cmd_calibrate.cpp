// SPDX-License-Identifier: Apache-2.0
// `dpledger calibrate`: the best value of the one '?' in the specs that still meets (--epsilon, --delta).
#include "accounting/calibration/calibrate.h"
#include "accounting/errors.h"
#include "accounting/numeric/decimal.h"
#include "cli/command_registry.h"
#include "presentation/calibrate_text.h"
#include "cli/ledger_file_option.h"
#include "cli/ledger_options.h"
#include "cli/option_values.h"
#include "cli/progress.h"

#include <memory>
#include <sstream>

namespace dpl::cli {
namespace {

struct CalibrateOptions {
  std::vector<std::string> specs, ledgers;
  std::string epsilon, delta, accountant = "auto", tolerance = "0";
};

Output run_calibrate(const CalibrateOptions& o) {
  const AccountantKind kind = parse_accountant(o.accountant);
  // Targets are the decimals typed: the answer meets --epsilon exactly (not its nearest double) at --delta.
  const DecimalValue typed_eps = parse_epsilon("--epsilon", o.epsilon);
  const DecimalValue typed_delta = parse_delta("--delta", o.delta, true);
  const double eps = typed_eps.nearest, delta = typed_delta.nearest;
  const double tol = parse_finite("--tolerance", o.tolerance);  // validated by calibrate()
  require_some_ledger(o.specs, o.ledgers);
  CalibrationResult r;
  {
    Progress progress("calibrate");  // on stderr, only on a terminal, silenced by -q
    r = calibrate(specs_with_files(o.specs, o.ledgers), typed_eps.exact, typed_delta.down, kind, tol,
                  progress.callback());
  }

  Output out;
  out.json["command"] = "calibrate";
  out.json["parameter"] = r.parameter;
  // The answer as the decimal the spec parser reads back as exactly the certified value (spec_decimal: sigma and b
  // rounded up, steps, q and eps down), in text and JSON: typed back, it meets the target.
  const std::string value = spec_decimal(canonical_key(r.parameter), r.value);
  out.json["value"] = json_decimal(value);
  out.json["objective"] = r.smallest ? "smallest" : "largest";
  out.json["epsilon"] = json_input(eps);
  out.json["delta"] = json_input(delta);
  out.json["accountant"] = r.at_value.accountant;
  out.json["accountant_requested"] = to_string(kind);
  out.json["epsilon_at_value"] = json_upper(r.at_value.epsilon);
  // The bracket end as the decimal that reads back as it (it was not certified to meet the target).
  const std::string failing = spec_decimal(canonical_key(r.parameter), r.failing);
  if (r.failing != r.value) out.json["failing_value"] = json_decimal(failing);
  out.json["tolerance"] = r.tolerance;
  out.json["evaluations"] = r.evaluations;
  out.json["mechanisms"] = ledger_json(r.ledger);
  out.json["method"] = r.at_value.note;

  out.text = presentation::calibrate_text(r, eps, delta, global_options().verbose);
  return out;
}

const Registration calibrate_registration{"calibrate", 30, [](CLI::App& root, CLI::App*& sub) -> Runner {
  auto o = std::make_shared<CalibrateOptions>();
  sub = root.add_subcommand("calibrate",
                            "Calibrate the one '?' value in the specs (sigma=?, b=?, steps=?, q=? or eps=?) to meet "
                            "(--epsilon, --delta): the smallest sigma/b, the largest steps/q/eps");
  add_mechanism_option(sub, o->specs);
  add_ledger_file_option(sub, o->ledgers);
  sub->add_option("--epsilon", o->epsilon, "Target epsilon >= 0")->required();
  sub->add_option("--delta", o->delta, "Target delta in [0, 1)")->required();
  sub->add_option("--accountant", o->accountant,
                  "pure | basic | advanced | optimal | rdp | pld | auto (default: auto, the tightest that applies)")
      ->capture_default_str();
  sub->add_option("--tolerance", o->tolerance,
                  "Relative width of the final search bracket, in [0, 0.1); 0 = automatic (a few ulps for "
                  "closed-form accountants, " + format_input(kAutomaticToleranceRdp) + " for rdp, " +
                      format_input(kAutomaticTolerancePld) + " for pld); integers are exact")
      ->capture_default_str();
  return [o] { return run_calibrate(*o); };
}};

}  // namespace
}  // namespace dpl::cli
