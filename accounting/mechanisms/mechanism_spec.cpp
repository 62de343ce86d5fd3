// SPDX-License-Identifier: Apache-2.0
#include "accounting/mechanisms/mechanism_spec.h"

#include "accounting/errors.h"
#include "accounting/mechanisms/extended_mechanisms.h"
#include "accounting/mechanisms/spec_text.h"
#include "accounting/numeric/decimal.h"
#include "accounting/numeric/exact_rational.h"
#include "accounting/numeric/interval.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <stdexcept>

namespace dpl {

std::string to_string(MechanismKind k) {
  switch (k) {
    case MechanismKind::gaussian: return "gaussian";
    case MechanismKind::laplace: return "laplace";
    case MechanismKind::rr: return "rr";
    case MechanismKind::pure: return "pure";
    case MechanismKind::approx: return "approx";
    case MechanismKind::iteration: return "iteration";
    default: break;
  }
  for (const auto& [name, kind] : extended_mechanism_names())
    if (kind == k) return name;
  return "?";
}

std::string to_string(Sampling s) {
  switch (s) {
    case Sampling::none: return "none";
    case Sampling::poisson: return "poisson";
    case Sampling::wor: return "wor";
    case Sampling::poisson_replace_one: return "poisson_replace_one";
  }
  return "?";
}

std::string sampling_suffix(Sampling s) {
  return s == Sampling::wor || s == Sampling::poisson_replace_one ? ",sampling=" + to_string(s) : std::string();
}

namespace {

const std::map<std::string, MechanismKind>& names() {
  static const std::map<std::string, MechanismKind> m = [] {
    std::map<std::string, MechanismKind> t{
        {"gaussian", MechanismKind::gaussian}, {"laplace", MechanismKind::laplace},
        {"rr", MechanismKind::rr},             {"pure", MechanismKind::pure},
        {"approx", MechanismKind::approx},     {"iteration", MechanismKind::iteration}};
    for (const auto& [name, kind] : extended_mechanism_names()) t.emplace(name, kind);
    return t;
  }();
  return m;
}

using spec_text::fail;
using spec_text::trim;

// The enclosure of a typed value by doubles: down <= value <= up (equal when the value is a double).
struct Enclosure {
  double down = 0, up = 0;
};

constexpr double kMaxCount = 1e15;

[[noreturn]] void not_decimal(const RawSpec& raw, const std::string& key, const std::string& value,
                              const std::string& range, const char* example = "1.1 or 2e-3") {
  fail(raw, key + "=" + value + " is not a decimal number (allowed: " + range + ", written like " + example + ")");
}

// A typed decimal read exactly (never to the nearest double): the doubles just below and just above it.
Enclosure parse_decimal(const RawSpec& raw, const std::string& key, const std::string& value, const std::string& range) {
  if (!is_decimal_literal(value)) not_decimal(raw, key, value, range);
  const DecimalValue v = decimal_value(value);
  return {v.down, v.up};
}

// An integer in [min, 1e15] written as a decimal ("1000", "1e3").
std::int64_t parse_count(const RawSpec& raw, const std::string& key, const std::string& value, std::int64_t min) {
  const std::string range = "integers in [" + std::to_string(min) + ", 1e15]";
  if (!is_decimal_literal(value)) not_decimal(raw, key, value, range, "1000 or 1e3");
  const auto r = decimal_rational(value);
  if (!r || boost::multiprecision::denominator(*r) != 1 || *r < min || *r > Rational(static_cast<std::int64_t>(kMaxCount)))
    fail(raw, key + "=" + value + " must be an integer in [" + std::to_string(min) + ", 1e15]");
  return boost::multiprecision::numerator(*r).convert_to<std::int64_t>();
}

void require(const RawSpec& raw, bool ok, const std::string& key, const std::string& text,
             const std::string& range) {
  if (!ok) fail(raw, key + "=" + text + " is out of range: allowed " + range);
}

// The range of a positive real parameter, and why a positive decimal can still be out of it.
constexpr const char* kDoubleRange = " within the range of doubles (4.9e-324 to 1.7976931348623157e308)";

}  // namespace

LedgerEntry optimistic_entry(const LedgerEntry& e) {
  if (!e.optimistic) return e;
  LedgerEntry o = e;
  o.mechanism = e.optimistic->mechanism;
  o.q = e.optimistic->q;
  o.optimistic.reset();
  return o;
}

Ledger optimistic_ledger(const Ledger& ledger) {
  Ledger out;
  out.reserve(ledger.size());
  for (const auto& e : ledger) out.push_back(optimistic_entry(e));
  return out;
}

bool has_typed_enclosures(const Ledger& ledger) {
  for (const auto& e : ledger)
    if (e.optimistic) return true;
  return false;
}

std::string canonical_key(const std::string& key) {
  if (key == "noise_multiplier") return "sigma";
  if (key == "sample_rate") return "q";
  return key;
}

bool more_is_more_private(const std::string& key) { return key == "sigma" || key == "b"; }

std::string spec_decimal(const std::string& key, double value) {
  return more_is_more_private(key) ? format_target(value) : format_guarantee(value);
}

namespace {
}  // namespace

std::vector<std::string> allowed_keys(MechanismKind kind) {
  if (is_extended(kind)) return extended_allowed_keys(kind);
  std::vector<std::string> keys;
  switch (kind) {
    case MechanismKind::gaussian: keys = {"sigma", "noise_multiplier", "sens"}; break;
    case MechanismKind::laplace: keys = {"b", "sens"}; break;
    case MechanismKind::rr: keys = {"eps", "p", "k"}; break;
    case MechanismKind::pure: keys = {"eps"}; break;
    case MechanismKind::approx: keys = {"eps", "delta"}; break;
    case MechanismKind::iteration: keys = {"sigma", "sens", "steps", "index", "contraction"}; return keys;
    default: break;
  }
  keys.insert(keys.end(), {"steps", "q", "sample_rate", "sampling", "epochs", "batch_size", "dataset_size"});
  return keys;
}

const std::vector<MechanismKind>& all_mechanism_kinds() {
  static const std::vector<MechanismKind> kinds = [] {
    std::vector<MechanismKind> k = {MechanismKind::gaussian, MechanismKind::laplace, MechanismKind::rr,
                                    MechanismKind::pure,     MechanismKind::approx,  MechanismKind::iteration};
    for (const auto& [name, kind] : extended_mechanism_names()) k.push_back(kind);
    return k;
  }();
  return kinds;
}

std::optional<std::string> RawSpec::unknown_key() const {
  for (const auto& [k, v] : params)
    if (v == "?") return k;
  return std::nullopt;
}

RawSpec parse_raw_spec(const std::string& text, bool allow_unknown) {
  RawSpec raw;
  raw.text = text;
  const auto colon = text.find(':');
  raw.name = trim(colon == std::string::npos ? text : text.substr(0, colon));
  const auto it = names().find(raw.name);
  if (it == names().end()) {
    std::string list;
    for (MechanismKind k : all_mechanism_kinds()) list += (list.empty() ? "" : ", ") + to_string(k);
    fail(raw, "unknown mechanism '" + raw.name + "' (expected one of " + list + ")");
  }
  const auto keys = allowed_keys(it->second);
  if (colon != std::string::npos) {
    std::string rest = text.substr(colon + 1);
    for (const std::string& part : split_outside_brackets(rest, ',', "-m " + text)) {  // lists: sens=[0,1,2]
      const std::string item = trim(part);
      if (item.empty()) fail(raw, "empty key=value item");
      const auto eq = item.find('=');
      if (eq == std::string::npos) fail(raw, "'" + item + "' is not key=value");
      const std::string key = trim(item.substr(0, eq));
      const std::string value = trim(item.substr(eq + 1));
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
        std::string list;
        for (const auto& k : keys) list += (list.empty() ? "" : ", ") + k;
        fail(raw, "unknown key '" + key + "' for " + raw.name + " (allowed: " + list + ")");
      }
      for (const auto& [k, v] : raw.params)
        if (k == key) fail(raw, "key '" + key + "' given twice");
      if (value.empty()) fail(raw, "missing value for '" + key + "'");
      raw.params.emplace_back(key, value);
    }
  }
  int unknowns = 0;
  for (const auto& [k, v] : raw.params)
    if (v == "?") {
      ++unknowns;
      if (!allow_unknown) fail(raw, "'" + k + "=?' is only allowed with `dpledger calibrate`");
      if (k == "sampling" || k == "sens") fail(raw, "'" + k + "' cannot be calibrated");
      if (k == "epochs" || k == "batch_size" || k == "dataset_size")
        fail(raw, "'" + k + "' cannot be calibrated (calibrate steps=? or q=? instead)");
    }
  if (unknowns > 1) fail(raw, "more than one value is '?'");
  return raw;
}

LedgerEntry build_entry(const RawSpec& raw, std::optional<double> substitute) {
  if (typed_as_extended(raw, names().at(raw.name))) return build_extended_entry(raw, names().at(raw.name), substitute);
  LedgerEntry e;
  e.mechanism.kind = names().at(raw.name);
  Mechanism& m = e.mechanism;
  // The other ends of the enclosures (LedgerEntry::optimistic).
  Mechanism other = m;
  double other_q = 1;
  std::map<std::string, std::string> given;  // canonical key -> the value typed
  std::map<std::string, std::string> typed;  // canonical key -> the key typed (an alias or itself)
  for (const auto& [k, v] : raw.params) {
    const std::string c = canonical_key(k);
    if (given.count(c))
      fail(raw, typed.at(c) + " and " + k + " name the same parameter (" + c + "): give one of them");
    given[c] = v;
    typed[c] = k;
  }
  auto has = [&](const std::string& k) { return given.count(k) > 0; };
  if (has("sigma") && typed.at("sigma") == "noise_multiplier" && has("sens"))
    fail(raw, "noise_multiplier is the noise relative to the sensitivity (sigma with sens 1): give it without "
              "sens, or give sigma and sens");
  // The value of a real parameter (canonical key k), its allowed range named in messages.
  auto real = [&](const std::string& k, const std::string& range) -> Enclosure {
    const std::string& v = given.at(k);
    if (v == "?") {
      if (!substitute) fail(raw, "'" + typed.at(k) + "=?' has no value to substitute");
      return {*substitute, *substitute};
    }
    return parse_decimal(raw, typed.at(k), v, range);
  };
  auto count = [&](const std::string& k, std::int64_t min) -> std::int64_t {
    const std::string& v = given.at(k);
    if (v != "?") return parse_count(raw, typed.at(k), v, min);
    if (!substitute) fail(raw, "'" + typed.at(k) + "=?' has no value to substitute");
    const double x = *substitute;
    require(raw, x == std::floor(x) && x >= static_cast<double>(min) && x <= kMaxCount, typed.at(k), format_input(x),
            "integers in [" + std::to_string(min) + ", 1e15]");
    return static_cast<std::int64_t>(x);
  };
  auto need = [&](const std::string& k) {
    if (!has(k))
      fail(raw, "missing required key '" + k + "'" +
                    (k == "sigma" && m.kind == MechanismKind::gaussian ? " (or noise_multiplier)" : ""));
  };
  const double inf = std::numeric_limits<double>::infinity();
  // (0, inf): the enclosure's ends must be positive doubles (a decimal below 4.9e-324 or above the largest double
  // cannot be held).
  auto positive = [&](const std::string& k) {
    const Enclosure x = real(k, "(0, inf)");
    require(raw, x.up > 0, typed.at(k), given.at(k), "(0, inf)");
    require(raw, x.down > 0 && x.up < inf, typed.at(k), given.at(k), std::string("(0, inf)") + kDoubleRange);
    return x;
  };
  // (0, 1]: a probability or a contraction factor.
  auto unit = [&](const std::string& k) {
    const Enclosure x = real(k, "(0, 1]");
    require(raw, x.up > 0 && x.up <= 1, typed.at(k), given.at(k), "(0, 1]");
    require(raw, x.down > 0, typed.at(k), given.at(k), std::string("(0, 1]") + kDoubleRange);
    return x;
  };

  // A typed value held by its ends: the one that enlarges privacy bounds in the entry's field, the other in `other`
  // (more_is_more_private: sigma and b at the double below the decimal, the others above).
  auto hold = [&](const std::string& k, const Enclosure& x, double& field, double& other_field) {
    const bool down = more_is_more_private(k);
    field = down ? x.down : x.up;
    other_field = down ? x.up : x.down;
  };
  if (has("sens")) hold("sens", positive("sens"), m.sens, other.sens);
  switch (m.kind) {
    case MechanismKind::gaussian:
    case MechanismKind::iteration:
      need("sigma");
      hold("sigma", positive("sigma"), m.sigma, other.sigma);
      break;
    case MechanismKind::laplace:
      need("b");
      hold("b", positive("b"), m.b, other.b);
      break;
    case MechanismKind::rr:
    case MechanismKind::pure:
      need("eps");
      hold("eps", positive("eps"), m.eps, other.eps);
      break;
    case MechanismKind::approx: {
      need("eps");
      const Enclosure x = real("eps", "[0, inf)");
      require(raw, x.down >= 0, "eps", given.at("eps"), "[0, inf)");
      require(raw, x.up < inf, "eps", given.at("eps"), std::string("[0, inf)") + kDoubleRange);
      hold("eps", x, m.eps, other.eps);
      need("delta");
      const Enclosure d = real("delta", "[0, 1)");
      require(raw, d.down >= 0 && d.down < 1, "delta", given.at("delta"), "[0, 1)");
      require(raw, d.up < 1, "delta", given.at("delta"), "[0, 1) (at most 0.99999999999999989, the largest double below 1)");
      hold("delta", d, m.delta, other.delta);
      break;
    }
    default: break;
  }
  auto finish = [&] {
    if (m.sigma != other.sigma || m.sens != other.sens || m.b != other.b || m.eps != other.eps ||
        m.delta != other.delta || m.contraction != other.contraction || e.q != other_q)
      e.optimistic = LedgerEntry::OtherEnds{other, other_q};
    return e;
  };
  if (m.kind == MechanismKind::iteration) {
    if (!has("sens")) fail(raw, "missing required key 'sens'");
    need("steps");
    m.iterations = count("steps", 1);
    if (has("index")) m.index = count("index", 1);
    require(raw, m.index <= m.iterations, "index", has("index") ? given.at("index") : "1",
            "[1, steps=" + std::to_string(m.iterations) + "]");
    if (has("contraction")) hold("contraction", unit("contraction"), m.contraction, other.contraction);
    other.iterations = m.iterations, other.index = m.index;
    return finish();
  }

  // Sampling: q (or sample_rate) as a decimal or an exact fraction B/N, or batch_size/dataset_size (q = B/N).
  const bool sizes = has("batch_size") || has("dataset_size");
  std::int64_t batch = 0, dataset = 0;
  if (sizes) {
    if (!has("batch_size") || !has("dataset_size"))
      fail(raw, "batch_size and dataset_size go together (q = batch_size/dataset_size, steps = ceil(epochs/q))");
    batch = count("batch_size", 1);
    dataset = count("dataset_size", 1);
    require(raw, batch <= dataset, "batch_size", given.at("batch_size"), "[1, dataset_size=" + std::to_string(dataset) + "]");
    if (has("q"))
      fail(raw, typed.at("q") + " and batch_size/dataset_size both give the sampling rate (q = batch_size/"
                "dataset_size): give one of them");
  }
  auto fraction = [&](std::int64_t num, std::int64_t den) {
    const Interval r = exact_int(num) / exact_int(den);
    return Enclosure{lo_down(r), hi_up(r)};
  };
  std::optional<Enclosure> q;
  std::optional<Rational> q_typed;  // the sampling rate typed, exactly (epochs with q: steps = ceil(epochs/q))
  if (has("q")) {
    const std::string& v = given.at("q");
    if (const auto slash = v.find('/'); slash != std::string::npos && v != "?") {
      const std::string key = typed.at("q");
      const std::string a = v.substr(0, slash), b = v.substr(slash + 1);
      const auto num = decimal_rational(a), den = decimal_rational(b);
      auto integer = [](const std::optional<Rational>& x) {
        return x && boost::multiprecision::denominator(*x) == 1 && *x >= 1 &&
               *x <= Rational(static_cast<std::int64_t>(kMaxCount));
      };
      if (!integer(num) || !integer(den) || *num > *den)
        fail(raw, key + "=" + v + " is not a fraction B/N of integers 1 <= B <= N <= 1e15 (allowed: (0, 1], a decimal "
                  "or such a fraction)");
      q = fraction(boost::multiprecision::numerator(*num).convert_to<std::int64_t>(),
                   boost::multiprecision::numerator(*den).convert_to<std::int64_t>());
      q_typed = *num / *den;
    } else {
      q = unit("q");
      if (v != "?") q_typed = decimal_rational(v, 400);
    }
  } else if (sizes) {
    q = fraction(batch, dataset);
  }
  if (q) {
    hold("q", *q, e.q, other_q);
    e.sampling = Sampling::poisson;
  }

  // Steps: steps=K, or epochs=E with the sampling rate: ceil(E / q), exact, with q = batch_size/dataset_size or the
  // q (sample_rate) typed. Opacus counts int(epochs / sample_rate) steps (opacus.accountants.utils.
  // get_noise_multiplier); the ceiling is the same number when E/q is whole and one step more (a larger bound)
  // otherwise, as a data loader of ceil(N/B) batches per epoch takes.
  if (has("epochs")) {
    if (has("steps")) fail(raw, "steps and epochs both give the number of steps: give one of them");
    if (!sizes && !has("q"))
      fail(raw, "epochs needs the sampling rate: q (or sample_rate), or batch_size and dataset_size (steps = "
                "ceil(epochs/q))");
    if (!sizes && !q_typed)
      fail(raw, "epochs with " + typed.at("q") + "=?: the number of steps (ceil(epochs/q)) would change with the value "
                "calibrated; give steps instead of epochs");
    const std::string& v = given.at("epochs");
    if (!is_decimal_literal(v)) not_decimal(raw, "epochs", v, "(0, 1e15]");
    const auto epochs = decimal_rational(v, 400);  // a tiny epochs is one step; the bound keeps the number small
    require(raw, epochs && *epochs > 0 && *epochs <= Rational(static_cast<std::int64_t>(kMaxCount)), "epochs", v, "(0, 1e15]");
    const Rational exact_steps = sizes ? *epochs * Rational(dataset) / Rational(batch) : *epochs / *q_typed;
    boost::multiprecision::mpz_int steps = boost::multiprecision::numerator(exact_steps) /
                                           boost::multiprecision::denominator(exact_steps);
    if (Rational(steps) < exact_steps) steps += 1;  // ceiling
    if (steps > static_cast<std::int64_t>(kMaxCount))
      fail(raw, "epochs=" + v + " gives " + steps.str() + " steps (ceil(epochs/q)): allowed at most 1e15");
    e.steps = steps.convert_to<std::int64_t>();
  } else if (has("steps")) {
    e.steps = count("steps", 1);
  }
  if (has("sampling")) {
    const std::string& s = given.at("sampling");
    if (s != "poisson" && s != "wor" && s != "poisson_replace_one")
      fail(raw, "sampling=" + s + " is not one of poisson, wor, poisson_replace_one");
    if (!q) fail(raw, "sampling=" + s + " needs q (or batch_size and dataset_size)");
    e.sampling = s == "wor" ? Sampling::wor : s == "poisson" ? Sampling::poisson : Sampling::poisson_replace_one;
    if (e.sampling == Sampling::poisson_replace_one) {
      if (e.mechanism.kind != MechanismKind::gaussian)
        fail(raw, "sampling=poisson_replace_one is analysed for gaussian only (Lebeda, Regehr, Kamath and Steinke "
                  "2025, Prop. 13)");
      if (e.q == 1)
        fail(raw, "sampling=poisson_replace_one with q=1 samples every record: a replacement then moves the sum by "
                  "up to 2 sens; write gaussian:sigma=...,sens=2*sens without sampling");
    }
  }
  return finish();
}

LedgerEntry parse_entry(const std::string& text) { return build_entry(parse_raw_spec(text, false)); }

void validate_entry(const LedgerEntry& e) {
  const Mechanism& m = e.mechanism;
  if (is_extended(m.kind) || (m.kind == MechanismKind::rr && m.x.k > 0)) validate_extended_entry(e);
  const double inf = std::numeric_limits<double>::infinity();
  auto check = [&](bool ok, const char* field, double value, const char* range) {
    if (!ok)
      throw InputError("mechanism " + to_string(m.kind) + ": " + field + "=" + format_input(value) +
                       " is out of range: allowed " + range);
  };
  auto positive = [&](const char* field, double v) { check(v > 0 && v < inf, field, v, "(0, inf)"); };
  positive("sens", m.sens);
  switch (m.kind) {
    case MechanismKind::gaussian: positive("sigma", m.sigma); break;
    case MechanismKind::laplace: positive("b", m.b); break;
    case MechanismKind::rr:
    case MechanismKind::pure: positive("eps", m.eps); break;
    case MechanismKind::approx:
      check(m.eps >= 0 && m.eps < inf, "eps", m.eps, "[0, inf)");
      check(m.delta >= 0 && m.delta < 1, "delta", m.delta, "[0, 1)");
      break;
    case MechanismKind::iteration:
      positive("sigma", m.sigma);
      check(m.iterations >= 1, "steps", static_cast<double>(m.iterations), "integers >= 1");
      check(m.index >= 1 && m.index <= m.iterations, "index", static_cast<double>(m.index), "[1, steps]");
      check(m.contraction > 0 && m.contraction <= 1, "contraction", m.contraction, "(0, 1]");
      break;
    default: break;
  }
  check(e.steps >= 1, "steps", static_cast<double>(e.steps), "integers >= 1");
  check(e.q > 0 && e.q <= 1, "q", e.q, "(0, 1]");
}

}  // namespace dpl
