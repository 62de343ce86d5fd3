#include "accounting/mechanisms/mechanism_spec.h"

#include "accounting/errors.h"
#include "accounting/mechanisms/extended_mechanisms.h"
#include "accounting/numeric/decimal.h"

#include <algorithm>
#include <cerrno>
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
  }
  return "?";
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

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

[[noreturn]] void fail(const RawSpec& raw, const std::string& what) {
  throw InputError("-m " + raw.text + ": " + what);
}

double parse_number(const RawSpec& raw, const std::string& key, const std::string& value) {
  if (value.empty()) fail(raw, "missing value for '" + key + "'");
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(value.c_str(), &end);
  if (end == value.c_str() || *end != '\0') fail(raw, key + "=" + value + " is not a number");
  if (std::isnan(v) || std::isinf(v) || errno == ERANGE)
    fail(raw, key + "=" + value + " is not a finite number");
  return v;
}

// eps and delta of a spec are claimed guarantees: a decimal that is not a double (eps=0.3) is taken as the
// smallest double above it, so that every bound built on it stays an upper bound.
double parse_guarantee(const RawSpec& raw, const std::string& key, const std::string& value) {
  (void)parse_number(raw, key, value);  // finite, a number
  try {
    return decimal_value(value).up;
  } catch (const std::invalid_argument&) {
    fail(raw, key + "=" + value + " is not a decimal number");
  }
}

std::int64_t parse_count(const RawSpec& raw, const std::string& key, double v, const std::string& text,
                         std::int64_t min) {
  if (v != std::floor(v) || v < static_cast<double>(min) || v > 1e15)
    fail(raw, key + "=" + text + " must be an integer in [" + std::to_string(min) + ", 1e15]");
  return static_cast<std::int64_t>(v);
}

void require(const RawSpec& raw, bool ok, const std::string& key, const std::string& text,
             const std::string& range) {
  if (!ok) fail(raw, key + "=" + text + " is out of range: allowed " + range);
}

}  // namespace

std::vector<std::string> allowed_keys(MechanismKind kind) {
  if (is_extended(kind)) return extended_allowed_keys(kind);
  std::vector<std::string> keys;
  switch (kind) {
    case MechanismKind::gaussian: keys = {"sigma", "sens"}; break;
    case MechanismKind::laplace: keys = {"b", "sens"}; break;
    case MechanismKind::rr: keys = {"eps", "p", "k"}; break;
    case MechanismKind::pure: keys = {"eps"}; break;
    case MechanismKind::approx: keys = {"eps", "delta"}; break;
    case MechanismKind::iteration: keys = {"sigma", "sens", "steps", "index", "contraction"}; return keys;
    default: break;
  }
  keys.insert(keys.end(), {"steps", "q", "sampling"});
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
    }
  if (unknowns > 1) fail(raw, "more than one value is '?'");
  return raw;
}

LedgerEntry build_entry(const RawSpec& raw, std::optional<double> substitute) {
  if (typed_as_extended(raw, names().at(raw.name))) return build_extended_entry(raw, names().at(raw.name), substitute);
  LedgerEntry e;
  e.mechanism.kind = names().at(raw.name);
  Mechanism& m = e.mechanism;
  std::map<std::string, std::string> given;
  std::map<std::string, double> num;
  for (const auto& [k, v] : raw.params) {
    if (v == "?") {
      if (!substitute) fail(raw, "'" + k + "=?' has no value to substitute");
      given[k] = format_input(*substitute);
      num[k] = *substitute;
      continue;
    }
    given[k] = v;
    if (k == "eps" || k == "delta") num[k] = parse_guarantee(raw, k, v);
    else if (k != "sampling") num[k] = parse_number(raw, k, v);
  }
  auto has = [&](const char* k) { return given.count(k) > 0; };
  auto need = [&](const char* k) {
    if (!has(k)) fail(raw, std::string("missing required key '") + k + "'");
    return num.at(k);
  };
  const double inf = std::numeric_limits<double>::infinity();
  auto positive = [&](const char* k, double v) {
    require(raw, v > 0 && v < inf, k, given.at(k), "(0, inf)");
    return v;
  };

  if (has("sens")) m.sens = positive("sens", num.at("sens"));
  switch (m.kind) {
    case MechanismKind::gaussian: m.sigma = positive("sigma", need("sigma")); break;
    case MechanismKind::laplace: m.b = positive("b", need("b")); break;
    case MechanismKind::rr:
    case MechanismKind::pure: m.eps = positive("eps", need("eps")); break;
    case MechanismKind::approx:
      m.eps = need("eps");
      require(raw, m.eps >= 0, "eps", given.at("eps"), "[0, inf)");
      m.delta = need("delta");
      require(raw, m.delta >= 0 && m.delta < 1, "delta", given.at("delta"), "[0, 1)");
      break;
    case MechanismKind::iteration:
      m.sigma = positive("sigma", need("sigma"));
      if (!has("sens")) fail(raw, "missing required key 'sens'");
      m.iterations = parse_count(raw, "steps", need("steps"), given.at("steps"), 1);
      if (has("index")) m.index = parse_count(raw, "index", num.at("index"), given.at("index"), 1);
      require(raw, m.index <= m.iterations, "index", given.count("index") ? given.at("index") : "1",
              "[1, steps=" + std::to_string(m.iterations) + "]");
      if (has("contraction")) {
        m.contraction = num.at("contraction");
        require(raw, m.contraction > 0 && m.contraction <= 1, "contraction", given.at("contraction"), "(0, 1]");
      }
      return e;
    default: break;
  }
  if (has("steps")) e.steps = parse_count(raw, "steps", num.at("steps"), given.at("steps"), 1);
  if (has("q")) {
    e.q = num.at("q");
    require(raw, e.q > 0 && e.q <= 1, "q", given.at("q"), "(0, 1]");
    e.sampling = Sampling::poisson;
  }
  if (has("sampling")) {
    const std::string& s = given.at("sampling");
    if (s != "poisson" && s != "wor") fail(raw, "sampling=" + s + " is not one of poisson, wor");
    if (!has("q")) fail(raw, "sampling=" + s + " needs q");
    e.sampling = s == "wor" ? Sampling::wor : Sampling::poisson;
  }
  return e;
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
