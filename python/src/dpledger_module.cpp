// SPDX-License-Identifier: Apache-2.0
// dpledger._dpledger: the Python extension over the accounting, audit and proofs-check libraries. It takes
// mechanisms as spec strings (the -m grammar, parsed by the library itself) and targets as the decimal strings a
// user typed, runs the same entry points as the CLI commands (compose, calibrate, rdp, running budget, audit of
// samples, check) with the GIL released, and returns plain dicts with both the CLI's printed decimals and the
// floats its JSON carries. The Python package (python/dpledger/) builds the public API on these.
#include "accounting/calibration/calibrate.h"
#include "accounting/composition/compose.h"
#include "accounting/composition/running_budget.h"
#include "accounting/errors.h"
#include "accounting/input_file.h"
#include "accounting/mechanisms/ledger_file.h"
#include "accounting/numeric/decimal.h"
#include "accounting/mechanisms/neighbouring_relation.h"
#include "accounting/numeric/exact_rational.h"
#include "accounting/pld/loss_pair.h"
#include "accounting/pld/pld_accountant.h"
#include "accounting/pld/pld_composition_memo.h"
#include "accounting/rdp/rdp_accountant.h"
#include "accounting/rdp/rdp_orders_table.h"
#include "accounting/rdp/rdp_conversion.h"
#include "accounting/rdp/rdp_odometer.h"
#include "audit/threshold_test.h"
#include "audit/user_samples.h"
#include "presentation/calibrate_text.h"
#include "presentation/compose_text.h"
#include "presentation/json_numbers.h"
#include "presentation/typed_values.h"
#include "proofs-check/check_report.h"
#include "proofs-check/registry.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <limits>
#include <mutex>
#include <optional>
#include <sstream>

namespace py = pybind11;
using namespace dpl;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The float a JSON reader gets from the CLI's number (presentation/json_numbers.h): the double it holds, "inf", or the decimal
// token it writes (held as a marked string) read to the nearest double; a token beyond the normal double range
// (which a reader would turn into 0 or a subnormal) is rounded in the bound's safe direction instead.
double json_float(const presentation::Json& j, bool upper) {
  if (j.is_number()) return j.get<double>();
  const std::string s = j.get<std::string>();
  if (s == "inf") return kInf;
  if (s == "-inf") return -kInf;
  const DecimalValue v = decimal_value(s.substr(s.rfind(':') + 1));
  if (std::isfinite(v.nearest) && std::fabs(v.nearest) >= std::numeric_limits<double>::min()) return v.nearest;
  return upper ? v.up : v.down;
}

py::object optional_float(const std::optional<double>& x) { return x ? py::object(py::float_(*x)) : py::none(); }

Ledger parse_specs(const std::vector<std::string>& specs) {
  Ledger ledger;
  for (const auto& s : specs) ledger.push_back(parse_entry(s));
  return ledger;
}

std::vector<std::string> ledger_specs(const Ledger& ledger) {
  std::vector<std::string> out;
  for (const auto& e : ledger) out.push_back(to_spec(e));
  return out;
}

// `compose`: the bound for --delta (given = "delta") or --epsilon (given = "epsilon"), as cli/cmd_compose.cpp.
py::dict compose_py(const std::vector<std::string>& specs, const std::string& given, const std::string& value,
                    const std::string& accountant) {
  const Ledger ledger = parse_specs(specs);
  const AccountantKind kind = parse_accountant(accountant);
  const bool given_delta = given == "delta";
  const DecimalValue typed = given_delta ? presentation::parse_delta("--delta", value, true) : presentation::parse_epsilon("--epsilon", value);
  const double target = typed.nearest;
  AccountingResult r;
  {
    py::gil_scoped_release release;
    r = compose(ledger, DecimalTarget{given_delta ? Target::Given::delta : Target::Given::epsilon, typed.down, typed.up},
                kind);
  }
  const Interval& bound = given_delta ? r.epsilon : r.delta;
  // The same text as the CLI's default output.
  const std::string text =
      presentation::compose_text(r, given_delta, target, false) +
      presentation::typed_decimal_note(ledger, r, DecimalTarget{given_delta ? Target::Given::delta : Target::Given::epsilon,
                                                       typed.down, typed.up})
          .line;

  py::dict d;
  d["accountant"] = r.accountant;
  d["accountant_requested"] = to_string(kind);
  d["given"] = given;
  d["epsilon"] = given_delta ? json_float(presentation::json_upper(r.epsilon), true) : target;
  d["delta"] = given_delta ? target : json_float(presentation::json_upper(r.delta), true);
  d["bound_text"] = format_upper(bound);
  d["lower"] = r.lower ? py::object(py::float_(json_float(presentation::json_lower(*r.lower), false))) : py::none();
  d["lower_text"] = r.lower ? py::object(py::str(format_lower(*r.lower))) : py::none();
  d["order"] = optional_float(r.order);
  d["method"] = r.note;
  d["mechanisms"] = ledger_specs(ledger);
  d["text"] = text;
  return d;
}

// Whether an accountant takes every entry of the ledger (its curves or loss pairs exist), without composing:
// nullopt, or the reason it does not. A target may still be refused when the ledger is composed.
std::optional<std::string> applies_py(const std::vector<std::string>& specs, const std::string& accountant) {
  const Ledger ledger = parse_specs(specs);
  const AccountantKind kind = parse_accountant(accountant);
  try {
    require_single_relation(ledger);
    if (kind == AccountantKind::rdp) {
      const ComposedRdp curves(ledger);
    } else if (kind == AccountantKind::pld) {
      for (const auto& e : ledger) {
        loss_pair(e, PairDirection::remove);
        if (!symmetric_pair(e)) loss_pair(e, PairDirection::add);
      }
    }
  } catch (const InputError& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

// `calibrate`, as cli/cmd_calibrate.cpp.
py::dict calibrate_py(const std::vector<std::string>& specs, const std::string& epsilon, const std::string& delta,
                      const std::string& accountant, const std::string& tolerance) {
  const AccountantKind kind = parse_accountant(accountant);
  const DecimalValue typed_eps = presentation::parse_epsilon("--epsilon", epsilon);
  const DecimalValue typed_delta = presentation::parse_delta("--delta", delta, true);
  const double eps = typed_eps.nearest, del = typed_delta.nearest;
  const double tol = presentation::parse_finite("--tolerance", tolerance);
  if (specs.empty()) throw InputError("no mechanism: give -m SPEC (repeatable) and/or --ledger FILE");
  CalibrationResult r;
  {
    py::gil_scoped_release release;
    r = calibrate(specs, typed_eps.exact, typed_delta.down, kind, tol);
  }
  const std::string value_text = spec_decimal(canonical_key(r.parameter), r.value);

  py::dict d;
  d["parameter"] = r.parameter;
  d["value"] = r.value;
  d["value_text"] = value_text;
  d["objective"] = r.smallest ? "smallest" : "largest";
  d["epsilon"] = eps;
  d["delta"] = del;
  d["accountant"] = r.at_value.accountant;
  d["accountant_requested"] = to_string(kind);
  d["epsilon_at_value"] = json_float(presentation::json_upper(r.at_value.epsilon), true);
  d["failing_value"] = r.failing != r.value ? py::object(py::float_(r.failing)) : py::none();
  d["tolerance"] = r.tolerance;
  d["evaluations"] = r.evaluations;
  d["mechanisms"] = ledger_specs(r.ledger);
  d["method"] = r.at_value.note;
  d["text"] = presentation::calibrate_text(r, eps, del, false);
  return d;
}

// `rdp`: the composed curve at the orders (inf allowed), as cli/cmd_rdp.cpp, with its limits (at most 1000 orders,
// about 3 s of work: composed_rdp_at_orders refuses more up front).
py::tuple rdp_py(const std::vector<std::string>& specs, const py::array_t<double, py::array::c_style | py::array::forcecast>& orders_in) {
  const Ledger ledger = parse_specs(specs);
  if (ledger.empty()) throw InputError("no mechanism: give -m SPEC (repeatable) and/or --ledger FILE");
  if (orders_in.ndim() != 1) throw InputError("orders: a one-dimensional array of Renyi orders is required");
  const std::vector<double> orders(orders_in.data(), orders_in.data() + orders_in.size());
  if (orders.empty()) throw InputError("orders: at least one Renyi order is required");
  for (double a : orders)
    if (!std::isinf(a) && (!(a > 1) || a > 1e7))
      throw InputError("--orders=" + format_input(a) + " is out of range: allowed (1, 1e7] or inf");
  std::vector<std::string> texts;
  {
    py::gil_scoped_release release;
    const ComposedRdp rdp(ledger);
    for (const RdpAtOrder& v : composed_rdp_at_orders(rdp, orders))
      texts.push_back(v.exact ? format_up_rational(*v.exact) : format_upper(v.bound));
  }
  py::array_t<double> values(static_cast<py::ssize_t>(orders.size()));
  auto v = values.mutable_unchecked<1>();
  for (std::size_t i = 0; i < orders.size(); ++i) v(static_cast<py::ssize_t>(i)) = json_float(presentation::json_upper_decimal(texts[i]), true);
  return py::make_tuple(values, texts, ledger_specs(ledger));
}

// The PLD accountant's certified upper bounds on delta(eps) at each of `epsilons` (each >= 0; the ledger's
// distributions composed once and kept in a memo across the targets, pld_composition_memo.h), without the lower
// bounds: the privacy profile that dp_accounting's true-positive-rate bounds read.
py::array_t<double> pld_deltas_py(const std::vector<std::string>& specs, const std::vector<double>& epsilons,
                                  double grid) {
  const Ledger ledger = parse_specs(specs);
  if (ledger.empty()) throw InputError("no mechanism: give -m SPEC (repeatable) and/or --ledger FILE");
  if (epsilons.size() > 100000) throw InputError("epsilons: at most 100000 values per call");
  for (double e : epsilons)
    if (!(e >= 0) || std::isinf(e)) throw InputError("epsilons: " + format_input(e) + " is out of range: allowed [0, inf)");
  py::array_t<double> out(static_cast<py::ssize_t>(epsilons.size()));
  auto v = out.mutable_unchecked<1>();
  {
    py::gil_scoped_release release;
    PldCompositionMemo memo;
    PldOptions options;
    options.lower = false;
    options.memo = &memo;
    if (grid > 0) options.grid = grid, options.refine = false;
    for (std::size_t i = 0; i < epsilons.size(); ++i) {
      const AccountingResult r =
          compose_with_pld_options(ledger, Target::for_epsilon(epsilons[i]), AccountantKind::pld, options);
      v(static_cast<py::ssize_t>(i)) = std::min(1.0, hi_up(r.delta));
    }
  }
  return out;
}

// dp_accounting's compute_epsilon / compute_delta: the best (eps, delta) conversion of an RDP curve given at
// `orders` (Mironov 2017 Prop. 3 and Balle et al. 2020 Thm 21, the smaller; upper bounds, rounded up), over the
// orders; an order inf is pure DP (eps = r; delta 0 when eps >= r, else 1). Returns (bound, order index), the
// index -1 when no order gives a finite bound.
py::tuple rdp_conversion_py(const std::vector<double>& orders, const std::vector<double>& rdp, const std::string& given,
                            double value) {
  if (orders.size() != rdp.size()) throw InputError("orders and rdp must have the same length");
  const bool want_epsilon = given == "delta";
  double best = want_epsilon ? kInf : 1.0;
  std::int64_t best_index = -1;
  {
    py::gil_scoped_release release;
    for (std::size_t i = 0; i < orders.size(); ++i) {
      const double a = orders[i], r = rdp[i];
      if (std::isnan(r) || std::isnan(a) || !(a > 1) || r == kInf) continue;
      const double rr = std::max(r, 0.0);
      double bound;
      if (std::isinf(a)) {
        bound = want_epsilon ? rr : (value >= rr ? 0.0 : 1.0);
      } else {
        bound = want_epsilon ? hi_up(rdp_to_epsilon(exact(rr), Real(a), value))
                             : hi_up(rdp_to_delta(exact(rr), Real(a), value));
      }
      if (best_index < 0 || bound < best) {
        best = bound;
        best_index = static_cast<std::int64_t>(i);
      }
    }
  }
  return py::make_tuple(best, best_index);
}

// `compose --running`: the running budget at each checkpoint for every accountant, as cli/cmd_compose.cpp.
py::dict running_py(const std::vector<std::string>& specs, const std::string& delta, const std::string& accountant,
                    std::int64_t every) {
  const Ledger ledger = parse_specs(specs);
  const AccountantKind kind = parse_accountant(accountant);
  const DecimalValue typed = presentation::parse_delta("--delta", delta, true);
  if (every < 0) throw InputError("--every " + std::to_string(every) + ": out of range, allowed >= 0");
  RunningBudget rb;
  AccountingResult whole;
  {
    py::gil_scoped_release release;
    whole = compose(ledger, DecimalTarget{Target::Given::delta, typed.down, typed.up}, kind);
    rb = running_budget(ledger, Target{Target::Given::delta, typed.down},
                        kind == AccountantKind::automatic ? automatic_accountants() : std::vector<AccountantKind>{kind},
                        every, 200, {}, {whole});
  }
  const auto n = static_cast<py::ssize_t>(rb.checkpoints.size());
  py::array_t<std::int64_t> entry(n), in_entry(n), steps(n);
  for (py::ssize_t i = 0; i < n; ++i) {
    const auto& c = rb.checkpoints[static_cast<std::size_t>(i)];
    entry.mutable_at(i) = static_cast<std::int64_t>(c.entry) + 1;
    in_entry.mutable_at(i) = c.steps_in_entry;
    steps.mutable_at(i) = c.total_steps;
  }
  py::dict series;
  for (const auto& s : rb.series) {
    py::array_t<double> eps(n);
    for (py::ssize_t i = 0; i < n; ++i) {
      const auto& b = s.bound[static_cast<std::size_t>(i)];
      eps.mutable_at(i) = b ? json_float(presentation::json_upper(*b), true) : kNaN;
    }
    series[py::str(s.accountant)] = eps;
  }
  py::dict d;
  d["entry"] = entry;
  d["steps_in_entry"] = in_entry;
  d["steps"] = steps;
  d["epsilon"] = series;
  d["not_applicable"] = rb.not_applicable;
  d["delta"] = typed.nearest;
  d["mechanisms"] = ledger_specs(ledger);
  return d;
}

// Rows of a float64 array (one sample per row) for the audit; `name` in messages.
std::vector<std::vector<double>> sample_rows(const py::array_t<double, py::array::c_style | py::array::forcecast>& a,
                                             const std::string& name) {
  if (a.ndim() != 1 && a.ndim() != 2)
    throw InputError(name + ": a 1-D array of outputs or a 2-D array with one output vector per row is required, got " +
                     std::to_string(a.ndim()) + " dimensions");
  const auto rows = a.shape(0);
  const auto cols = a.ndim() == 2 ? a.shape(1) : 1;
  if (rows < 2) throw InputError(name + " has " + std::to_string(rows) + " samples: allowed at least 2");
  if (cols < 1) throw InputError(name + ": the rows are empty");
  std::vector<std::vector<double>> out(static_cast<std::size_t>(rows), std::vector<double>(static_cast<std::size_t>(cols)));
  const double* p = a.data();
  for (py::ssize_t i = 0; i < rows; ++i)
    for (py::ssize_t j = 0; j < cols; ++j) {
      const double v = p[i * cols + j];
      if (!std::isfinite(v))
        throw InputError(name + " row " + std::to_string(i + 1) + ": " + format_input(v) + " is not a finite number");
      out[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = v;
    }
  return out;
}

double parse_in_open_unit(const std::string& option, const std::string& v) {
  const double c = presentation::parse_finite(option, v);
  if (!(c > 0 && c < 1)) throw InputError(option + "=" + v + " is out of range: allowed (0, 1)");
  return c;
}

// `audit --samples`: the threshold test of the claim on the user's outputs (cli/cmd_audit.cpp, run_samples).
py::dict audit_samples_py(const py::array_t<double, py::array::c_style | py::array::forcecast>& samples,
                          const py::array_t<double, py::array::c_style | py::array::forcecast>& neighbour_samples,
                          const std::optional<std::string>& epsilon, const std::optional<std::string>& delta,
                          const std::optional<std::string>& mu, const std::string& confidence_text,
                          const std::string& tolerance_text, const std::string& projection) {
  using namespace dpl::audit;
  if (!epsilon && !mu) throw InputError("--samples needs the claim: --epsilon E (and --delta d) or --mu M");
  AuditClaim claim;
  // The claim at the decimals typed, rounded in the claim's favour (a violation must beat the claim as typed).
  claim.epsilon = epsilon ? presentation::parse_epsilon("--epsilon", *epsilon).up : kInf;
  claim.delta = delta ? presentation::parse_delta("--delta", *delta, true).up : 0.0;
  if (mu) {
    const double m = presentation::parse_finite("--mu", *mu);
    if (!(m > 0)) throw InputError("--mu=" + *mu + " is out of range: allowed (0, inf)");
    claim.mu = m;
  }
  const double confidence = parse_in_open_unit("--confidence", confidence_text);
  const double tolerance = presentation::parse_finite("--tolerance", tolerance_text);
  if (!(tolerance > 0)) throw InputError("--tolerance=" + tolerance_text + " is out of range: allowed (0, inf)");
  const Projection p = parse_projection(projection);
  const auto d_rows = sample_rows(samples, "samples");
  const auto dp_rows = sample_rows(neighbour_samples, "neighbour_samples");
  AuditResult r;
  std::size_t nd = 0, ndp = 0;
  {
    py::gil_scoped_release release;
    const auto d = project(d_rows, p, "samples");
    const auto dp = project(dp_rows, p, "neighbour_samples");
    nd = d.size();
    ndp = dp.size();
    r = threshold_test(user_sample_counts(d, dp), claim, confidence, tolerance);
  }
  auto down = [](double x) { return std::isinf(x) ? x : json_float(presentation::json_lower(exact(x)), false); };
  auto up = [](double x) { return std::isinf(x) ? x : json_float(presentation::json_upper(exact(x)), true); };
  py::dict d;
  d["verdict"] = to_string(r.verdict);
  d["exit_code"] = exit_code(r.verdict);
  d["audited"] = r.unit;
  d["epsilon_lower"] = down(r.epsilon_lower);
  d["epsilon_claimed"] = r.epsilon_claimed;
  d["epsilon_estimate"] = r.epsilon_estimate;
  d["mu_lower"] = r.mu_lower ? py::object(py::float_(down(*r.mu_lower))) : py::none();
  d["mu_claimed"] = optional_float(r.mu_claimed);
  d["mu_estimate"] = optional_float(r.mu_estimate);
  d["resolution"] = up(r.resolution);
  d["detectable"] = up(r.detectable);
  py::dict event;
  event["threshold"] = r.event.threshold;
  event["tail"] = r.event.left_tail ? "left" : "right";
  event["likelier_under"] = r.event.d_first ? "D" : "D'";
  event["count_p"] = r.k_p;
  event["n_p"] = r.n_p;
  event["count_q"] = r.k_q;
  event["n_q"] = r.n_q;
  event["p_lower"] = down(r.p_lower);
  event["q_upper"] = up(r.q_upper);
  d["event"] = event;
  d["error_per_bound"] = r.alpha_each;
  d["delta"] = claim.delta;
  d["runs"] = std::min(nd, ndp);
  d["samples_d"] = nd;
  d["samples_dprime"] = ndp;
  d["confidence"] = confidence;
  d["tolerance"] = tolerance;
  d["projection"] = p.text;
  return d;
}

py::dict claim_dict(const proofs::Claim& c) {
  py::dict j;
  j["id"] = c.id;
  j["source"] = proofs::source_of(c);
  j["location"] = c.location;
  j["statement"] = c.statement;
  j["expected"] = proofs::to_string(c.expected);
  j["constants"] = c.constants;
  return j;
}

py::list claims_py(const std::vector<std::string>& selectors) {
  py::list out;
  for (const auto& c : proofs::select_claims(selectors)) out.append(claim_dict(c));
  return out;
}

// `check`: the proofs-check of the selected claims (cli/cmd_check.cpp).
py::dict check_py(const std::vector<std::string>& selectors, bool quick, std::uint64_t seed,
                  const std::map<std::string, std::string>& sets) {
  const std::vector<proofs::Claim> claims = proofs::select_claims(selectors);
  proofs::CheckContext ctx;
  ctx.quick = quick;
  ctx.seed = seed;
  for (const auto& [k, v] : sets) {
    if (k.empty()) throw InputError("--set =" + v + ": expected NAME=VALUE");
    ctx.overrides[k] = presentation::parse_finite("--set " + k, v);
  }
  std::vector<proofs::CheckedClaim> results;
  std::string report;
  {
    py::gil_scoped_release release;
    results = proofs::run_claims(claims, ctx);
    report = proofs::markdown_report(results, ctx);
  }
  py::list out;
  bool all_expected = true;
  for (const auto& r : results) {
    const bool as_expected = r.result.status == r.claim.expected;
    all_expected = all_expected && as_expected;
    py::dict j = claim_dict(r.claim);
    j["status"] = proofs::to_string(r.result.status);
    j["claimed"] = r.result.claimed;
    j["computed"] = r.result.computed;
    j["note"] = r.result.note;
    j["region"] = r.result.region;
    j["counterexample"] = r.result.counterexample;
    j["reproduce"] = r.result.reproduce;
    j["deficit"] = std::isfinite(r.result.deficit) ? py::object(py::float_(r.result.deficit)) : py::none();
    j["as_expected"] = as_expected;
    j["seconds"] = r.seconds;
    out.append(j);
  }
  py::list summary;
  for (const auto& s : proofs::summarise(results)) {
    py::dict j;
    j["paper"] = s.paper;
    j["claims"] = s.claims;
    j["holds"] = s.holds;
    j["fails"] = s.fails;
    j["inconclusive"] = s.inconclusive;
    j["as_expected"] = s.as_expected;
    summary.append(j);
  }
  py::dict d;
  d["claims"] = out;
  d["summary"] = summary;
  d["all_as_expected"] = all_expected;
  d["report"] = report;
  return d;
}

struct LockedOdometer {
  explicit LockedOdometer(std::vector<double> orders) : meter(std::move(orders)) {}
  RdpOdometer meter;
  std::mutex mutex;
};

}  // namespace

PYBIND11_MODULE(_dpledger, m) {
  m.doc() = "dpledger's certified accountants, audits and proofs-check (the extension behind the dpledger package)";
  m.attr("__version__") = DPLEDGER_VERSION;
  // InputError derives from std::invalid_argument (ValueError); a NotApplicable answer gets its own subclass.
  static py::exception<NotApplicable> not_applicable(m, "NotApplicableError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const NotApplicable& e) {
      not_applicable(e.what());
    }
  });

  m.def("parse_specs", [](const std::vector<std::string>& specs) { return ledger_specs(parse_specs(specs)); },
        "The resolved spec of each mechanism spec (defaults filled in); ValueError naming the problem.");
  m.def("ledger_text_specs",
        [](const std::string& text, const std::string& source) {
          std::vector<std::string> out;
          for (const auto& e : parse_ledger_text(text, source)) out.push_back(e.spec);
          return out;
        },
        "The -m specs of a ledger file's text (JSON lines or array, text specs, an Opacus history, dp_accounting "
        "DpEvents as JSON), as `--ledger` reads it.");
  m.attr("max_json_depth") = kMaxJsonDepth;  // the ledger reader's nesting limit, for the Python side's event trees
  m.def("ledger_file_specs",
        [](const std::string& path) {
          // Read as --ledger reads it: within the input files' limits (64 MB, lines of 1 MB; a directory or a device
          // that never ends, such as /dev/zero, is refused, never read until the memory runs out).
          const std::string text = read_input_file(path, "--ledger " + path);
          std::vector<std::string> out;
          for (const auto& e : parse_ledger_text(text, path)) out.push_back(e.spec);
          return out;
        },
        "The -m specs of a ledger file, read as `--ledger FILE` reads it (the same limits).");
  m.def("format_input", [](double x) { return format_input(x); },
        "A float as the CLI echoes an input (shortest round trip, e.g. 2 and 1e-05).");
  m.def("accountants", [] {
    std::vector<std::string> out;
    for (auto k : automatic_accountants()) out.push_back(to_string(k));
    return out;
  }, "The accountants `auto` runs, in its order of preference.");
  m.def("applies", &applies_py, py::arg("specs"), py::arg("accountant"));
  m.def("compose", &compose_py, py::arg("specs"), py::arg("given"), py::arg("value"), py::arg("accountant"));
  m.def("calibrate", &calibrate_py, py::arg("specs"), py::arg("epsilon"), py::arg("delta"), py::arg("accountant"),
        py::arg("tolerance"));
  m.def("rdp", &rdp_py, py::arg("specs"), py::arg("orders"));
  m.def("pld_deltas", &pld_deltas_py, py::arg("specs"), py::arg("epsilons"), py::arg("grid") = 0.0);
  m.def("rdp_conversion", &rdp_conversion_py, py::arg("orders"), py::arg("rdp"), py::arg("given"), py::arg("value"));
  m.def("running", &running_py, py::arg("specs"), py::arg("delta"), py::arg("accountant"), py::arg("every"));
  m.def("audit_samples", &audit_samples_py, py::arg("samples"), py::arg("neighbour_samples"), py::arg("epsilon"),
        py::arg("delta"), py::arg("mu"), py::arg("confidence"), py::arg("tolerance"), py::arg("projection"));
  m.def("claims", &claims_py, py::arg("selectors"));
  m.def("check", &check_py, py::arg("selectors"), py::arg("quick"), py::arg("seed"), py::arg("sets"));

  // The odometer computes without the GIL (a new entry's curve takes a fifth of a second), so a lock keeps two
  // threads from changing one odometer at once.
  py::class_<LockedOdometer>(m, "RdpOdometer")
      .def(py::init<std::vector<double>>(), py::arg("orders"))
      .def("add",
           [](LockedOdometer& o, const std::string& spec, std::int64_t steps) {
             const LedgerEntry e = parse_entry(spec);
             py::gil_scoped_release release;
             const std::lock_guard<std::mutex> lock(o.mutex);
             o.meter.add(e, steps);
           },
           py::arg("spec"), py::arg("steps"))
      .def("extend",
           [](LockedOdometer& o, std::int64_t steps) {
             const std::lock_guard<std::mutex> lock(o.mutex);
             o.meter.extend(steps);
           },
           py::arg("steps"))
      .def("clear",
           [](LockedOdometer& o) {
             const std::lock_guard<std::mutex> lock(o.mutex);
             o.meter.clear();
           })
      .def("epsilon",
           [](LockedOdometer& o, const std::string& delta) {
             const DecimalValue typed = presentation::parse_delta("--delta", delta, false);
             RdpOdometer::Reading r;
             {
               py::gil_scoped_release release;
               const std::lock_guard<std::mutex> lock(o.mutex);
               r = o.meter.epsilon(typed.down);
             }
             return py::make_tuple(json_float(presentation::json_upper(r.epsilon), true), r.order);
           },
           py::arg("delta"))
      .def_property_readonly("orders", [](const LockedOdometer& o) { return o.meter.orders(); })
      .def_property_readonly("total_steps", [](LockedOdometer& o) {
        const std::lock_guard<std::mutex> lock(o.mutex);
        return o.meter.total_steps();
      });
}
