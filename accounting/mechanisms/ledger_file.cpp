#include "accounting/mechanisms/ledger_file.h"

#include "accounting/errors.h"
#include "accounting/input_file.h"
#include "accounting/numeric/decimal.h"
#include "accounting/numeric/interval.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

namespace dpl {
namespace {

using Json = nlohmann::json;

[[noreturn]] void fail(const std::string& where, const std::string& msg) { throw InputError(where + ": " + msg); }

// The 1-based line of each byte offset in `offsets` (ascending), in one pass over the text.
std::vector<int> lines_of(const std::string& text, const std::vector<std::size_t>& offsets) {
  std::vector<int> out;
  out.reserve(offsets.size());
  int line = 1;
  std::size_t i = 0;
  for (const std::size_t offset : offsets) {
    for (; i < offset && i < text.size(); ++i) line += text[i] == '\n';
    out.push_back(line);
  }
  return out;
}

int line_of(const std::string& text, std::size_t offset) { return lines_of(text, {offset}).front(); }

// nlohmann's message for a number beyond the double range ("number overflow parsing '1e400'") as an input error.
std::string json_number_range(const std::string& what) {
  return "a number beyond the range of a double (magnitudes up to 1.8e308): " + what;
}

// Byte offsets where the elements of the top-level JSON array in `text` start (text is valid JSON).
std::vector<std::size_t> element_offsets(const std::string& text) {
  std::vector<std::size_t> out;
  int depth = 0;
  bool in_string = false, escaped = false, expect = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    if (expect && depth == 1 && c != ']') {
      out.push_back(i);
      expect = false;
    }
    if (c == '"') in_string = true;
    else if (c == '[' || c == '{') {
      ++depth;
      if (depth == 1) expect = true;
    } else if (c == ']' || c == '}') --depth;
    else if (c == ',' && depth == 1) expect = true;
  }
  return out;
}

// A JSON number with a fraction or an exponent is kept as the text written (a string marked by kDecimalToken), not
// as its nearest double: the spec parser then reads the decimal itself, in the safe direction (mechanism_spec.h).
const std::string kDecimalToken = std::string("\0dpl-decimal:", 13);

bool is_decimal_token(const Json& v) { return v.is_string() && v.get_ref<const std::string&>().rfind(kDecimalToken, 0) == 0; }

// nlohmann's DOM builder with every floating-point number stored as its marked token text.
class DecimalKeepingSax {
 public:
  explicit DecimalKeepingSax(Json& root) : dom_(root) {}
  bool null() { return dom_.null(); }
  bool boolean(bool v) { return dom_.boolean(v); }
  bool number_integer(Json::number_integer_t v) { return dom_.number_integer(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return dom_.number_unsigned(v); }
  bool number_float(Json::number_float_t, const std::string& text) {
    std::string marked = kDecimalToken + text;
    return dom_.string(marked);
  }
  bool string(std::string& v) { return dom_.string(v); }
  bool binary(Json::binary_t& v) { return dom_.binary(v); }
  bool start_object(std::size_t n) { return dom_.start_object(n); }
  bool key(std::string& k) { return dom_.key(k); }
  bool end_object() { return dom_.end_object(); }
  bool start_array(std::size_t n) { return dom_.start_array(n); }
  bool end_array() { return dom_.end_array(); }
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& last_token, const Exception& ex) {
    return dom_.parse_error(position, last_token, ex);
  }

 private:
  nlohmann::detail::json_sax_dom_parser<Json> dom_;
};

// Json::parse, with decimals kept as written (throws Json::parse_error like it).
Json parse_keeping_decimals(const std::string& text) {
  Json root;
  DecimalKeepingSax sax(root);
  Json::sax_parse(text, &sax);
  return root;
}

bool is_number(const Json& v) { return v.is_number() || is_decimal_token(v); }
// A number's text as written (integers as nlohmann prints them: exactly).
std::string number_text(const Json& v) {
  if (is_decimal_token(v)) return v.get<std::string>().substr(kDecimalToken.size());
  return v.dump();
}
// Its value rounded to nearest (for range checks and arithmetic that is itself rounded in the safe direction).
double number_value(const Json& v) {
  return is_decimal_token(v) ? std::strtod(number_text(v).c_str(), nullptr) : v.get<double>();
}

std::string scalar_text(const Json& v, const std::string& where, const std::string& field) {
  if (is_number(v)) return number_text(v);
  if (v.is_string()) return v.get<std::string>();
  fail(where, "field '" + field + "' must be a number or a string, got " + v.dump());
}

const Json& number_field(const Json& o, const std::string& field, const std::string& where, const std::string& cls) {
  if (!o.contains(field)) fail(where, cls + ": missing field '" + field + "'");
  const Json& v = o.at(field);
  if (!is_number(v)) fail(where, cls + ": field '" + field + "' must be a number, got " + v.dump());
  if (!std::isfinite(number_value(v))) fail(where, cls + ": field '" + field + "' must be finite");
  return v;
}

LedgerFileEntry make(const std::string& spec, const std::string& where) {
  try {
    return LedgerFileEntry{spec, where, parse_entry(spec)};
  } catch (const InputError& e) {
    fail(where, e.what());
  }
}

// {"mechanism": "gaussian", "sigma": 1.1, ...} -> its -m spec.
std::string entry_spec(const Json& o, const std::string& where) {
  std::string name;
  for (const char* k : {"mechanism", "name"})
    if (o.contains(k)) {
      if (!o.at(k).is_string()) fail(where, std::string("field '") + k + "' must be a string");
      name = o.at(k).get<std::string>();
    }
  if (name.empty()) fail(where, "missing field 'mechanism' (the mechanism name, e.g. \"gaussian\")");
  const bool unsampled = o.contains("sampling") && o.at("sampling") == "none";
  std::string spec = name;
  char sep = ':';
  for (const auto& [k, v] : o.items()) {
    if (k == "mechanism" || k == "name") continue;
    if (unsampled && k == "sampling") continue;
    if (unsampled && k == "q") {
      if (!(is_number(v) && number_value(v) == 1 && decimal_value(number_text(v)).down == 1))
        fail(where, "field 'q' must be 1 with \"sampling\": \"none\"");
      continue;
    }
    spec += sep + k + "=" + scalar_text(v, where, k);
    sep = ',';
  }
  return spec;
}

// Opacus history item [noise_multiplier, sample_rate, steps] -> a Poisson-subsampled Gaussian spec.
std::string opacus_spec(const Json& a, const std::string& where) {
  if (a.size() != 3 || !is_number(a[0]) || !is_number(a[1]) || !is_number(a[2]))
    fail(where, "an Opacus history item is [noise_multiplier, sample_rate, steps], got " + a.dump());
  std::string spec = "gaussian:sigma=" + scalar_text(a[0], where, "noise_multiplier") +
                     ",steps=" + scalar_text(a[2], where, "steps");
  if (!(number_value(a[1]) == 1 && is_decimal_literal(number_text(a[1])) && decimal_value(number_text(a[1])).down == 1))
    spec += ",q=" + scalar_text(a[1], where, "sample_rate");
  return spec;
}

// dp_accounting DpEvent named tuple -> specs (appended to `out`), `count` = enclosing self-composition count.
void dp_event_specs(const Json& o, std::int64_t count, const std::string& sampling, const std::string& where,
                    std::vector<LedgerFileEntry>& out) {
  if (!o.is_object() || !o.contains("class_name") || !o.at("class_name").is_string())
    fail(where, "a DpEvent must be an object with a \"class_name\" string, got " + o.dump().substr(0, 80));
  const std::string cls = o.at("class_name").get<std::string>();
  auto emit = [&](std::string spec) {
    if (count == 0) return;
    if (count > 1) spec += ",steps=" + std::to_string(count);
    spec += sampling;
    out.push_back(make(spec, where + " (" + cls + ")"));
  };
  if (cls == "NoOpDpEvent") return;
  // Parameters are passed on as the decimals written (number_text), which the spec parser reads exactly.
  if (cls == "GaussianDpEvent") {
    const Json& nm = number_field(o, "noise_multiplier", where, cls);
    if (number_value(nm) == 0) fail(where, "GaussianDpEvent with noise_multiplier 0 is not private (epsilon is infinite)");
    return emit("gaussian:sigma=" + number_text(nm));
  }
  if (cls == "LaplaceDpEvent") {
    const Json& nm = number_field(o, "noise_multiplier", where, cls);
    if (number_value(nm) == 0) fail(where, "LaplaceDpEvent with noise_multiplier 0 is not private (epsilon is infinite)");
    return emit("laplace:b=" + number_text(nm));
  }
  if (cls == "EpsilonDeltaDpEvent") {
    const Json& e = number_field(o, "epsilon", where, cls);
    const Json& d = number_field(o, "delta", where, cls);
    if (number_value(e) == 0 && number_value(d) == 0) return;  // no privacy cost
    return emit("approx:eps=" + number_text(e) + ",delta=" + number_text(d));
  }
  if (cls == "RandomizedResponseDpEvent") {
    const Json& pj = number_field(o, "noise_parameter", where, cls);
    const double p = number_value(pj);
    const double k = number_value(number_field(o, "num_buckets", where, cls));
    if (!(p >= 0 && p <= 1)) fail(where, cls + ": noise_parameter must be in [0, 1], got " + number_text(pj));
    if (!(k >= 2 && k == std::floor(k) && k <= 1e15)) fail(where, cls + ": num_buckets must be an integer in [2, 1e15]");
    if (!is_decimal_literal(number_text(pj))) fail(where, cls + ": noise_parameter must be a decimal number");
    const Interval pe = from_decimal(number_text(pj));
    if (lo(pe) == 1) return;  // the output ignores the input
    if (hi(pe) == 0) fail(where, "RandomizedResponseDpEvent with noise_parameter 0 is not private");
    // With prob. 1 - p the true bucket, else a uniform one: eps = log(1 + k (1 - p)/p) (dp_accounting's
    // definition; exact for k = 2, an eps-DP guarantee for k > 2), at the p written, rounded up.
    const Interval eps = log1p(exact(k) * (1 - pe) / pe);
    return emit((k == 2 ? "rr:eps=" : "pure:eps=") + format_guarantee(hi_up(eps)));
  }
  if (cls == "PoissonSampledDpEvent" || cls == "SampledWithoutReplacementDpEvent") {
    if (!sampling.empty()) fail(where, cls + " inside another sampled event is not supported");
    if (!o.contains("event")) fail(where, cls + ": missing field 'event'");
    const Json& inner = o.at("event");
    const std::string inner_cls = inner.is_object() && inner.contains("class_name") && inner.at("class_name").is_string()
                                      ? inner.at("class_name").get<std::string>()
                                      : "";
    if (inner_cls == "SelfComposedDpEvent" || inner_cls == "ComposedDpEvent")
      fail(where, cls + " of a " + inner_cls + " (composition on one sample) cannot be accounted by dpledger: "
                        "sample each step (SelfComposedDpEvent of " + cls + ")");
    std::string q;  // the sampling probability as written, or the exact fraction sample_size/source_dataset_size
    std::string mode;
    double qv = 0;
    if (cls == "PoissonSampledDpEvent") {
      const Json& qj = number_field(o, "sampling_probability", where, cls);
      q = number_text(qj);
      if (!is_decimal_literal(q)) fail(where, cls + ": sampling_probability must be a decimal number, got " + q);
      const DecimalValue d = decimal_value(q);
      if (!(d.down >= 0 && d.up <= 1)) fail(where, cls + ": sampling_probability must be in [0, 1], got " + q);
      qv = d.up == 0 ? 0.0 : d.down >= 1 ? 1.0 : 0.5;  // exactly 0, exactly 1, or sampled (the parser reads q)
    } else {
      const double n = number_value(number_field(o, "source_dataset_size", where, cls));
      const double m = number_value(number_field(o, "sample_size", where, cls));
      if (!(n >= 1 && m >= 0 && m <= n && n <= 1e15 && n == std::floor(n) && m == std::floor(m)))
        fail(where, cls + ": need integers 0 <= sample_size <= source_dataset_size <= 1e15");
      qv = m / n;
      q = std::to_string(static_cast<std::int64_t>(m)) + "/" + std::to_string(static_cast<std::int64_t>(n));
      mode = ",sampling=wor";
    }
    if (qv == 0) return;  // nothing is sampled
    return dp_event_specs(inner, count, qv == 1 ? std::string() : ",q=" + q + mode, where, out);
  }
  if (cls == "SelfComposedDpEvent") {
    const double c = number_value(number_field(o, "count", where, cls));
    if (!(c >= 0 && c == std::floor(c) && c <= 9.2e18)) fail(where, cls + ": count must be an integer >= 0");
    const auto n = static_cast<std::int64_t>(c);
    if (n != 0 && count > std::numeric_limits<std::int64_t>::max() / n) fail(where, cls + ": total count overflows");
    if (!o.contains("event")) fail(where, cls + ": missing field 'event'");
    return dp_event_specs(o.at("event"), count * n, sampling, where, out);
  }
  if (cls == "ComposedDpEvent") {
    if (!o.contains("events") || !o.at("events").is_array()) fail(where, cls + ": missing array field 'events'");
    for (const Json& e : o.at("events")) dp_event_specs(e, count, sampling, where, out);
    return;
  }
  fail(where, "DpEvent class " + cls + " cannot be accounted by dpledger (supported: ComposedDpEvent, "
              "SelfComposedDpEvent, PoissonSampledDpEvent, SampledWithoutReplacementDpEvent, GaussianDpEvent, "
              "LaplaceDpEvent, EpsilonDeltaDpEvent, RandomizedResponseDpEvent, NoOpDpEvent)");
}

void json_value(const Json& v, const std::string& where, std::vector<LedgerFileEntry>& out) {
  if (v.is_array()) return out.push_back(make(opacus_spec(v, where), where));
  if (!v.is_object()) fail(where, "expected a ledger entry object, got " + v.dump().substr(0, 80));
  if (v.contains("class_name")) return dp_event_specs(v, 1, "", where, out);
  out.push_back(make(entry_spec(v, where), where));
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

}  // namespace

std::vector<LedgerFileEntry> parse_ledger_text(const std::string& raw, const std::string& source) {
  std::string text = raw;
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);  // UTF-8 byte-order mark
  std::vector<LedgerFileEntry> out;
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) fail(source, "the ledger is empty (no entry)");
  const auto at = [&](std::size_t offset) { return source + ":" + std::to_string(line_of(text, offset)); };

  if (text[first] == '[' || text[first] == '{') {
    check_json_depth(text, source);  // before the parser, and before any recursion over the tree
    Json whole;
    std::optional<std::size_t> error_byte;
    std::string error_what;
    try {
      whole = parse_keeping_decimals(text);
    } catch (const Json::parse_error& e) {
      error_byte = e.byte;
      error_what = e.what();
    } catch (const Json::out_of_range& e) {
      fail(source, json_number_range(e.what()));
    }
    if (!error_byte) {
      if (whole.is_array() && !whole.empty() && (whole[0].is_array() || whole[0].is_object())) {
        const auto offsets = element_offsets(text);
        const auto lines = lines_of(text, offsets);
        for (std::size_t i = 0; i < whole.size(); ++i)
          json_value(whole[i],
                     (i < offsets.size() ? source + ":" + std::to_string(lines[i]) : source) + " (element " +
                         std::to_string(i + 1) + ")",
                     out);
      } else if (whole.is_object()) {
        json_value(whole, at(first), out);
      } else {
        fail(at(first), "expected a JSON array of ledger entries, Opacus history items or DpEvents");
      }
    } else if (text[first] == '{') {  // JSON lines
      std::size_t pos = 0;
      int line = 0;
      while (pos <= text.size()) {
        const auto nl = text.find('\n', pos);
        const std::string l = trim(text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos));
        ++line;
        if (!l.empty()) {
          const std::string where = source + ":" + std::to_string(line);
          Json v;
          try {
            v = parse_keeping_decimals(l);
          } catch (const Json::parse_error& e) {
            fail(where, std::string("not valid JSON (") + e.what() + ")");
          } catch (const Json::out_of_range& e) {
            fail(where, json_number_range(e.what()));
          }
          json_value(v, where, out);
        }
        if (nl == std::string::npos) break;
        pos = nl + 1;
      }
    } else {
      fail(at(*error_byte > 0 ? *error_byte - 1 : 0), "not valid JSON (" + error_what + ")");
    }
  } else {  // plain text, one -m spec per line
    std::size_t pos = 0;
    int line = 0;
    while (pos <= text.size()) {
      const auto nl = text.find('\n', pos);
      std::string l = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
      ++line;
      if (const auto hash = l.find('#'); hash != std::string::npos) l.erase(hash);
      l = trim(l);
      if (!l.empty()) {
        if (l.rfind("-m ", 0) == 0) l = trim(l.substr(3));
        out.push_back(make(l, source + ":" + std::to_string(line)));
      }
      if (nl == std::string::npos) break;
      pos = nl + 1;
    }
  }
  if (out.empty()) fail(source, "the ledger has no entry with a privacy cost");
  return out;
}

std::string to_spec(const LedgerEntry& e) {
  const Mechanism& m = e.mechanism;
  // Each value as the decimal the parser reads back as that value (spec_decimal): parse_entry(to_spec(e)) has the
  // fields of e.
  auto d = [](const char* key, double v) { return std::string(key) + "=" + spec_decimal(key, v); };
  std::string s = to_string(m.kind) + ":";
  switch (m.kind) {
    case MechanismKind::gaussian: s += d("sigma", m.sigma) + "," + d("sens", m.sens); break;
    case MechanismKind::laplace: s += d("b", m.b) + "," + d("sens", m.sens); break;
    case MechanismKind::rr:
    case MechanismKind::pure: s += d("eps", m.eps); break;
    case MechanismKind::approx: s += d("eps", m.eps) + "," + d("delta", m.delta); break;
    case MechanismKind::iteration:
      return s + d("sigma", m.sigma) + "," + d("sens", m.sens) + ",steps=" + std::to_string(m.iterations) +
             ",index=" + std::to_string(m.index) + "," + d("contraction", m.contraction);
  }
  if (e.steps != 1) s += ",steps=" + std::to_string(e.steps);
  if (e.subsampled()) s += "," + d("q", e.q) + (e.sampling == Sampling::wor ? ",sampling=wor" : "");
  return s;
}

}  // namespace dpl
