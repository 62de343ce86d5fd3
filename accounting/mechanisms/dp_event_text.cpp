// SPDX-License-Identifier: Apache-2.0
#include "accounting/mechanisms/dp_event_text.h"

#include "accounting/errors.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <set>

namespace dpl {
namespace {

using Json = nlohmann::json;

// The fields of every DpEvent class of dp_accounting 0.6 (dp_accounting/dp_event.py), in declaration order:
// attr.asdict writes all of them, defaults included.
struct EventClass {
  const char* name;
  std::vector<std::string> fields;
};
const std::vector<EventClass>& event_classes() {
  static const std::vector<EventClass> classes = {
      {"NoOpDpEvent", {}},
      {"NonPrivateDpEvent", {}},
      {"UnsupportedDpEvent", {}},
      {"RandomizedResponseDpEvent", {"noise_parameter", "num_buckets"}},
      {"EpsilonDeltaDpEvent", {"epsilon", "delta"}},
      {"GaussianDpEvent", {"noise_multiplier"}},
      {"LaplaceDpEvent", {"noise_multiplier"}},
      {"DiscreteLaplaceDpEvent", {"noise_parameter", "sensitivity"}},
      {"DiscreteGaussianDpEvent", {"sigma", "sensitivity", "dimension"}},
      {"SelfComposedDpEvent", {"event", "count"}},
      {"ComposedDpEvent", {"events"}},
      {"PoissonSampledDpEvent", {"sampling_probability", "event"}},
      {"SampledWithReplacementDpEvent", {"source_dataset_size", "sample_size", "event"}},
      {"SampledWithoutReplacementDpEvent", {"source_dataset_size", "sample_size", "event"}},
      {"SingleEpochTreeAggregationDpEvent", {"noise_multiplier", "step_counts"}},
      {"RepeatAndSelectDpEvent", {"event", "mean", "shape"}},
      {"MixtureOfGaussiansDpEvent", {"standard_deviation", "sensitivities", "sampling_probs"}},
      {"ZCDpEvent", {"rho", "xi"}},
      {"ExponentialMechanismDpEvent", {"epsilon"}},
      {"PermuteAndFlipDpEvent", {"epsilon"}},
      {"TruncatedSubsampledGaussianDpEvent",
       {"dataset_size", "sampling_probability", "truncated_batch_size", "noise_multiplier"}},
  };
  return classes;
}

std::set<std::string> keys_of(const Json& o) {
  std::set<std::string> k;
  for (const auto& [key, v] : o.items()) k.insert(key);
  return k;
}

std::vector<std::string> classes_with_fields(const std::set<std::string>& keys) {
  std::vector<std::string> out;
  for (const auto& c : event_classes())
    if (std::set<std::string>(c.fields.begin(), c.fields.end()) == keys) out.emplace_back(c.name);
  return out;
}

std::string joined(const std::vector<std::string>& v, const std::string& last_sep) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i == 0 ? "" : i + 1 == v.size() ? last_sep : ", ") + v[i];
  return s;
}

// A recursive-descent reader of the Python literals that repr() and print() write.
class PythonReader {
 public:
  PythonReader(const std::string& text, const std::string& source) : t_(text), source_(source) {}

  Json all() {
    std::vector<Json> values;
    skip();
    while (i_ < t_.size()) {
      values.push_back(value(0));
      skip();
      if (i_ < t_.size() && t_[i_] == ',') {  // a trailing comma between top-level values
        ++i_;
        skip();
      }
    }
    if (values.empty()) fail("no value");
    if (values.size() == 1) return values.front();
    return Json(values);
  }

 private:
  const std::string& t_;
  const std::string& source_;
  std::size_t i_ = 0;

  [[noreturn]] void fail(const std::string& msg) const {
    const int line = 1 + static_cast<int>(std::count(t_.begin(), t_.begin() + static_cast<std::ptrdiff_t>(std::min(i_, t_.size())), '\n'));
    std::string near = t_.substr(std::min(i_, t_.size()), 30);
    std::replace(near.begin(), near.end(), '\n', ' ');
    throw InputError(source_ + ":" + std::to_string(line) + ": not a Python DpEvent text (repr or dict): " + msg +
                     (near.empty() ? " at the end" : " at '" + near + "'"));
  }

  void skip() {
    while (i_ < t_.size()) {
      if (std::isspace(static_cast<unsigned char>(t_[i_]))) ++i_;
      else if (t_[i_] == '#') {  // a Python comment line
        while (i_ < t_.size() && t_[i_] != '\n') ++i_;
      } else break;
    }
  }

  bool eat(char c) {
    skip();
    if (i_ < t_.size() && t_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }

  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }

  std::string identifier() {
    skip();
    const std::size_t b = i_;
    while (i_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[i_])) || t_[i_] == '_' || t_[i_] == '.')) ++i_;
    return t_.substr(b, i_ - b);
  }

  Json number() {
    const std::size_t b = i_;
    if (t_[i_] == '-' || t_[i_] == '+') ++i_;
    bool integer = true;
    while (i_ < t_.size() && (std::isdigit(static_cast<unsigned char>(t_[i_])) || t_[i_] == '.' || t_[i_] == 'e' ||
                              t_[i_] == 'E' || t_[i_] == '_' ||
                              ((t_[i_] == '-' || t_[i_] == '+') && (t_[i_ - 1] == 'e' || t_[i_ - 1] == 'E')))) {
      if (!std::isdigit(static_cast<unsigned char>(t_[i_])) && t_[i_] != '_') integer = false;
      ++i_;
    }
    std::string tok = t_.substr(b, i_ - b);
    tok.erase(std::remove(tok.begin(), tok.end(), '_'), tok.end());
    char* end = nullptr;
    errno = 0;
    if (integer) {
      const long long v = std::strtoll(tok.c_str(), &end, 10);
      if (end == tok.c_str() + tok.size() && errno == 0 && !tok.empty()) return Json(static_cast<std::int64_t>(v));
      errno = 0;
    }
    const double d = std::strtod(tok.c_str(), &end);
    if (tok.empty() || end != tok.c_str() + tok.size() || !std::isfinite(d)) fail("'" + tok + "' is not a finite number");
    return Json(d);
  }

  Json string_literal() {
    const char q = t_[i_++];
    std::string s;
    while (i_ < t_.size() && t_[i_] != q) {
      if (t_[i_] == '\\' && i_ + 1 < t_.size()) ++i_;
      s += t_[i_++];
    }
    if (i_ >= t_.size()) fail("unterminated string");
    ++i_;
    return Json(s);
  }

  // The items of a list, tuple or call up to `close`; keyword arguments go to `kw` (calls only).
  std::vector<Json> items(char close, int depth, Json* kw) {
    std::vector<Json> out;
    while (!eat(close)) {
      skip();
      if (kw) {  // name=value?
        const std::size_t b = i_;
        const std::string name = identifier();
        if (!name.empty() && eat('=')) {
          (*kw)[name] = value(depth + 1);
          if (!eat(',')) {
            expect(close);
            break;
          }
          continue;
        }
        i_ = b;
      }
      out.push_back(value(depth + 1));
      if (!eat(',')) {
        expect(close);
        break;
      }
    }
    return out;
  }

  Json value(int depth) {
    if (depth > 200) fail("nesting deeper than 200 levels");
    skip();
    if (i_ >= t_.size()) fail("expected a value");
    const char c = t_[i_];
    if (c == '{') {
      ++i_;
      Json o = Json::object();
      while (!eat('}')) {
        skip();
        if (i_ >= t_.size()) fail("unterminated dict");
        const Json key = t_[i_] == '\'' || t_[i_] == '"' ? string_literal() : value(depth + 1);
        expect(':');
        o[key.is_string() ? key.get<std::string>() : key.dump()] = value(depth + 1);
        if (!eat(',')) {
          expect('}');
          break;
        }
      }
      return o;
    }
    if (c == '[' || c == '(') {
      ++i_;
      return Json(items(c == '[' ? ']' : ')', depth, nullptr));
    }
    if (c == '\'' || c == '"') return string_literal();
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.') return number();
    const std::size_t at = i_;
    const std::string name = identifier();
    if (name.empty()) fail("unexpected character");
    if (name == "True" || name == "False") return Json(name == "True");
    if (name == "None") return Json(nullptr);
    if (name == "inf" || name == "nan") fail("'" + name + "' is not a finite number");
    if (!eat('(')) {
      i_ = at;
      fail("'" + name + "' is not a value");
    }
    Json kw = Json::object();
    const std::vector<Json> args = items(')', depth, &kw);
    const std::string base = name.substr(name.find_last_of('.') == std::string::npos ? 0 : name.find_last_of('.') + 1);
    // numpy scalars (numpy 2 prints np.float64(0.5)) and float()/int(): the number itself.
    static const std::set<std::string> scalars = {"float64", "float32", "float16", "float_", "longdouble", "int64",
                                                  "int32", "int16", "int8", "uint64", "uint32", "uint16", "uint8",
                                                  "int_", "float", "int"};
    if (scalars.count(base)) {
      if (args.size() != 1 || !kw.empty() || !args[0].is_number()) fail(name + "(...) must hold one number");
      return args[0];
    }
    if (!args.empty()) fail(name + "(...) has positional arguments: a DpEvent repr names every field");
    Json o = Json::object();
    o["class_name"] = base;
    for (const auto& [k, v] : kw.items()) o[k] = v;
    return o;
  }
};

}  // namespace

bool looks_like_python_dp_events(const std::string& text) {
  std::size_t i = text.find_first_not_of(" \t\r\n[(");
  while (i != std::string::npos && text[i] == '#') {  // Python comment lines before the first value
    const std::size_t nl = text.find('\n', i);
    i = nl == std::string::npos ? nl : text.find_first_not_of(" \t\r\n[(", nl);
  }
  if (i == std::string::npos) return false;
  if (text[i] == '{') {  // a dict printed by Python: single-quoted keys
    const std::size_t k = text.find_first_not_of(" \t\r\n", i + 1);
    return k != std::string::npos && text[k] == '\'';
  }
  std::size_t j = i;
  while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_' || text[j] == '.')) ++j;
  const std::string name = text.substr(i, j - i);
  return name.size() > 7 && name.compare(name.size() - 7, 7, "DpEvent") == 0 && j < text.size() && text[j] == '(';
}

Json parse_python_dp_events(const std::string& text, const std::string& source) {
  return PythonReader(text, source).all();
}

bool is_asdict_dp_event(const Json& o) {
  return o.is_object() && !o.contains("class_name") && !classes_with_fields(keys_of(o)).empty();
}

const std::vector<std::string>& ambiguous_asdict_classes() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& c : event_classes()) {
      const std::set<std::string> f(c.fields.begin(), c.fields.end());
      if (classes_with_fields(f).size() > 1) v.emplace_back(c.name);
    }
    return v;
  }();
  return names;
}

Json dp_event_from_asdict(const Json& dict, const std::vector<std::string>& meant, const std::string& where) {
  if (!dict.is_object()) throw InputError(where + ": a DpEvent dict (attr.asdict) must be an object, got " + dict.dump().substr(0, 80));
  if (dict.contains("class_name")) return dict;  // already named (to_named_tuple form, or a repr)
  const std::set<std::string> keys = keys_of(dict);
  std::vector<std::string> candidates = classes_with_fields(keys);
  if (candidates.size() > 1) {
    std::vector<std::string> chosen;
    for (const auto& c : candidates)
      if (std::find(meant.begin(), meant.end(), c) != meant.end()) chosen.push_back(c);
    if (chosen.size() == 1) candidates = chosen;
  }
  const std::string shown = dict.dump().substr(0, 80);
  if (candidates.empty())
    throw InputError(where + ": " + shown + " (an attr.asdict dict) has the fields of no dp_accounting DpEvent class");
  if (candidates.size() > 1)
    throw InputError(where + ": " + shown + " (an attr.asdict dict) may be a " + joined(candidates, " or a ") +
                     ", which have the same fields: name the one meant with --asdict-class " + candidates.front() +
                     " (or write repr(event), which names every class)");
  Json out = Json::object();
  out["class_name"] = candidates.front();
  for (const auto& [k, v] : dict.items()) {
    if (k == "event") out[k] = dp_event_from_asdict(v, meant, where);
    else if (k == "events" && v.is_array()) {
      Json a = Json::array();
      for (const auto& e : v) a.push_back(dp_event_from_asdict(e, meant, where));
      out[k] = a;
    } else out[k] = v;
  }
  return out;
}

}  // namespace dpl
