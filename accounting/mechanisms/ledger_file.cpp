// SPDX-License-Identifier: Apache-2.0
#include "accounting/mechanisms/ledger_file.h"

#include "accounting/errors.h"
#include "accounting/mechanisms/dp_event_text.h"
#include "accounting/input_file.h"
#include "accounting/mechanisms/dp_event_ledger.h"
#include "accounting/mechanisms/extended_mechanisms.h"
#include "accounting/mechanisms/spec_text.h"
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

using spec_text::fail;

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

// A value as a message shows it: decimals as written (never the marked token), at most 200 characters.
std::string shown_json(const Json& v) {
  std::string text = v.dump(-1, ' ', false, Json::error_handler_t::replace);
  const std::string marked = "\"\\u0000dpl-decimal:";
  for (std::size_t at; (at = text.find(marked)) != std::string::npos;) {
    const std::size_t end = text.find('"', at + marked.size());
    text = text.substr(0, at) + text.substr(at + marked.size(), end - at - marked.size()) +
           (end == std::string::npos ? "" : text.substr(end + 1));
  }
  return text.size() > 200 ? text.substr(0, 200) + "..." : text;
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
  fail(where, "field '" + field + "' must be a number or a string, got " + shown_json(v));
}

LedgerFileEntry make(const std::string& spec, const std::string& where) { return make_ledger_file_entry(spec, where); }

std::string entry_spec(const Json& o, const std::string& where);

// A key's value as spec text: a number or string as it is; the lists of mixture (sens, probs) as [a,b,c] and the run
// of select, an array of entry objects, as [spec;spec].
std::string value_text(const Json& v, const std::string& where, const std::string& field) {
  if (!v.is_array() || !(field == "sens" || field == "probs" || field == "run")) return scalar_text(v, where, field);
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? (v[i].is_object() ? ";" : ",") : "") + (v[i].is_object() ? entry_spec(v[i], where) : scalar_text(v[i], where, field));
  return s + "]";
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
    spec += sep + k + "=" + value_text(v, where, k);
    sep = ',';
  }
  return spec;
}

// Opacus history item [noise_multiplier, sample_rate, steps] -> a Poisson-subsampled Gaussian spec.
std::string opacus_spec(const Json& a, const std::string& where) {
  if (a.size() != 3 || !is_number(a[0]) || !is_number(a[1]) || !is_number(a[2]))
    fail(where, "an Opacus history item is [noise_multiplier, sample_rate, steps], got " + shown_json(a));
  std::string spec = "gaussian:sigma=" + scalar_text(a[0], where, "noise_multiplier") +
                     ",steps=" + scalar_text(a[2], where, "steps");
  if (!(number_value(a[1]) == 1 && is_decimal_literal(number_text(a[1])) && decimal_value(number_text(a[1])).down == 1))
    spec += ",q=" + scalar_text(a[1], where, "sample_rate");
  return spec;
}

// A JSON value with the decimals kept as written (parse_keeping_decimals) turned back into plain numbers (nearest
// doubles; the DpEvent reader passes them on as their shortest round-trip decimals, which are the decimals written
// whenever those have at most 17 significant digits).
Json with_plain_numbers(const Json& v) {
  if (is_decimal_token(v)) return Json(number_value(v));
  if (v.is_array() || v.is_object()) {
    Json out = v;
    for (auto it = out.begin(); it != out.end(); ++it) *it = with_plain_numbers(*it);
    return out;
  }
  return v;
}

// The line {"version": ..., "arguments": [...]} that dpledger writes first in the JSON-lines files it writes.
bool is_provenance(const Json& v) {
  if (!v.is_object() || !v.contains("version")) return false;
  for (const auto& [k, x] : v.items())
    if (k != "version" && k != "arguments") return false;
  return true;
}

void json_value(const Json& v, const std::string& where, const LedgerReadOptions& options,
                std::vector<LedgerFileEntry>& out) {
  if (v.is_array()) return out.push_back(make(opacus_spec(v, where), where));
  if (!v.is_object()) fail(where, "expected a ledger entry object, got " + shown_json(v));
  if (v.contains("class_name")) return dp_event_entries(with_plain_numbers(v), where, out);
  if (is_provenance(v)) return;
  // An Opacus accountant's state_dict ({"history": [...], "mechanism": "rdp"}, Opacus 1.4-1.5): its history.
  if (v.contains("history")) {
    if (!v.at("history").is_array()) fail(where, "field 'history' (an Opacus accountant state) must be an array");
    for (std::size_t i = 0; i < v.at("history").size(); ++i)
      out.push_back(make(opacus_spec(v.at("history")[i], where), where + " (history item " + std::to_string(i + 1) + ")"));
    return;
  }
  // attr.asdict(event): a dict without class names, named by its fields.
  if (is_asdict_dp_event(v))
    return dp_event_entries(with_plain_numbers(dp_event_from_asdict(v, options.asdict_classes, where)), where, out);
  out.push_back(make(entry_spec(v, where), where));
}

// A line of a ledger file without surrounding blanks (CR of CRLF files included).
std::string trim_line(const std::string& s) { return spec_text::trim(s, " \t\r\n"); }

}  // namespace

LedgerFileEntry make_ledger_file_entry(const std::string& spec, const std::string& where) {
  try {
    return LedgerFileEntry{spec, where, parse_entry(spec)};
  } catch (const InputError& e) {
    fail(where, e.what());
  }
}

std::vector<LedgerFileEntry> parse_ledger_text(const std::string& raw, const std::string& source,
                                               const LedgerReadOptions& options) {
  std::string text = raw;
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);  // UTF-8 byte-order mark
  std::vector<LedgerFileEntry> out;
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) fail(source, "the ledger is empty (no entry)");
  const auto at = [&](std::size_t offset) { return source + ":" + std::to_string(line_of(text, offset)); };

  // Python's text of DpEvents (repr, a printed attr.asdict dict, a printed Opacus history): read as the JSON
  // it stands for.
  const auto python_values = [&](const Json& v) {
    if (!v.is_array()) return json_value(v, at(first), options, out);
    for (std::size_t i = 0; i < v.size(); ++i)
      json_value(v[i], at(first) + " (element " + std::to_string(i + 1) + ")", options, out);
  };
  if (looks_like_python_dp_events(text)) {
    python_values(parse_python_dp_events(text, source));
  } else if (text[first] == '[' || text[first] == '{') {
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
                     options, out);
      } else if (whole.is_object()) {
        json_value(whole, at(first), options, out);
      } else {
        fail(at(first), "expected a JSON array of ledger entries, Opacus history items or DpEvents");
      }
    } else if (text[first] == '{') {  // JSON lines
      std::size_t pos = 0;
      int line = 0;
      while (pos <= text.size()) {
        const auto nl = text.find('\n', pos);
        const std::string l = trim_line(text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos));
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
          json_value(v, where, options, out);
        }
        if (nl == std::string::npos) break;
        pos = nl + 1;
      }
    } else {
      std::optional<Json> python;  // a list printed by Python ([(1.1, 0.01, 1000)], an Opacus history)
      try {
        python = parse_python_dp_events(text, source);
      } catch (const InputError&) {
      }
      if (!python) fail(at(*error_byte > 0 ? *error_byte - 1 : 0), "not valid JSON (" + error_what + ")");
      python_values(*python);
    }
  } else {  // plain text, one -m spec per line
    std::size_t pos = 0;
    int line = 0;
    while (pos <= text.size()) {
      const auto nl = text.find('\n', pos);
      std::string l = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
      ++line;
      if (const auto hash = l.find('#'); hash != std::string::npos) l.erase(hash);
      l = trim_line(l);
      if (!l.empty()) {
        if (l.rfind("-m ", 0) == 0) l = trim_line(l.substr(3));
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
  if (is_extended(m.kind) || m.x.k > 0) return extended_spec(e);
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
    default: break;
  }
  if (e.steps != 1) s += ",steps=" + std::to_string(e.steps);
  if (e.subsampled()) s += "," + d("q", e.q) + sampling_suffix(e.sampling);
  return s;
}

}  // namespace dpl
