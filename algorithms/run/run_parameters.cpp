// SPDX-License-Identifier: Apache-2.0
#include "algorithms/run/run_parameters.h"

#include "algorithms/run/assignments.h"

#include "accounting/errors.h"
#include "accounting/input_file.h"
#include "algorithms/data/trim.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace dpl::algorithms {

namespace {

// The shortest decimal that reads back as v (at most 17 significant digits), for messages.
// The shortest decimal that reads back as v (std::to_chars: "1000", "0.02", "1e+12").
std::string shortest(double v) {
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

}  // namespace

RunParameters RunParameters::from_assignments(const std::vector<std::string>& assignments) {
  RunParameters p;
  for (const auto& [key, value] : parse_assignments(assignments)) p.set(key, value);
  return p;
}

void RunParameters::merge_config_file(const std::string& path) {
  // A config file: at most 1 MB, lines of at most 64 kB (a directory or /dev/zero is refused, not read).
  InputFile in(path, "--config " + path, InputFileLimits{std::size_t{1} << 20, std::size_t{1} << 16});
  std::string line;
  int number = 0;
  std::map<std::string, std::string> read;
  while (in.next_line(line)) {
    ++number;
    const auto hash = line.find('#');
    const std::string body = trim(hash == std::string::npos ? line : line.substr(0, hash));
    if (body.empty()) continue;
    const auto eq = body.find('=');
    const std::string where = "--config " + path + " line " + std::to_string(number) + ": ";
    if (eq == std::string::npos) throw InputError(where + "'" + body + "' is not of the form key = value");
    const std::string key = trim(body.substr(0, eq));
    if (key.empty()) throw InputError(where + "'" + body + "' has an empty key");
    read[key] = trim(body.substr(eq + 1));
  }
  // Keys already present (e.g. from --set) are kept: command-line assignments override the file whatever the
  // order in which the caller merges them.
  for (auto& [k, v] : read) given_.emplace(k, v);
}

void RunParameters::set(const std::string& key, const std::string& value) { given_[key] = value; }

double RunParameters::real(const std::string& key, double def, double lo, double hi, bool lo_open, bool hi_open) {
  known_.insert(key);
  std::string range = lo_open ? "(" : "[";  // appended piecewise (GCC bug 105329, see integer())
  range += shortest(lo);
  range += ", ";
  range += shortest(hi);
  range += hi_open ? ")" : "]";
  double v = def;
  const auto it = given_.find(key);
  if (it != given_.end()) {
    const std::string& s = it->second;
    const char* b = s.c_str();
    char* end = nullptr;
    errno = 0;
    v = std::strtod(b, &end);
    if (s.empty() || end != b + s.size())
      throw InputError(key + "=" + s + " is not a number: allowed reals " + range);
    if (!std::isfinite(v) || errno == ERANGE)
      throw InputError(key + "=" + s + " is not a finite number: allowed reals " + range);
    if (v < lo || v > hi || (lo_open && v == lo) || (hi_open && v == hi))
      throw InputError(key + "=" + s + " is out of range: allowed reals " + range);
  }
  resolved_[key] = v;
  defaults_[key] = def;
  allowed_[key] = "reals " + range;
  return v;
}

std::int64_t RunParameters::integer(const std::string& key, std::int64_t def, std::int64_t lo, std::int64_t hi) {
  known_.insert(key);
  // Appended piecewise: "[" + std::to_string(...) trips GCC 12's false -Wrestrict (GCC bug 105329).
  std::string range = "[";
  range += std::to_string(lo);
  range += ", ";
  range += std::to_string(hi);
  range += "]";
  std::int64_t v = def;
  const auto it = given_.find(key);
  if (it != given_.end()) {
    const std::string& s = it->second;
    std::size_t start = (!s.empty() && s[0] == '+') ? 1 : 0;
    const auto [ptr, ec] = std::from_chars(s.data() + start, s.data() + s.size(), v);
    if (s.empty() || ec == std::errc::invalid_argument || ptr != s.data() + s.size()) {
      double as_real = 0;
      const bool is_number = !s.empty() && std::from_chars(s.data(), s.data() + s.size(), as_real).ptr == s.data() + s.size();
      throw InputError(key + "=" + s + (is_number ? " is not an integer" : " is not a number") +
                       ": allowed integers " + range);
    }
    if (ec == std::errc::result_out_of_range || v < lo || v > hi)
      throw InputError(key + "=" + s + " is out of range: allowed integers " + range);
  }
  resolved_[key] = v;
  defaults_[key] = def;
  allowed_[key] = "integers " + range;
  return v;
}

std::string RunParameters::choice(const std::string& key, const std::string& def,
                                  const std::vector<std::string>& allowed) {
  known_.insert(key);
  std::string v = def;
  const auto it = given_.find(key);
  if (it != given_.end()) {
    v = it->second;
    bool ok = false;
    for (const auto& a : allowed) ok = ok || a == v;
    if (!ok) throw InputError(key + "=" + v + " is not allowed: allowed values " + join(allowed, ", "));
  }
  resolved_[key] = v;
  defaults_[key] = def;
  allowed_[key] = "one of " + join(allowed, ", ");
  return v;
}

bool RunParameters::flag(const std::string& key, bool def) {
  known_.insert(key);
  bool v = def;
  const auto it = given_.find(key);
  if (it != given_.end()) {
    const std::string& s = it->second;
    if (s == "on" || s == "true" || s == "1" || s == "yes") {
      v = true;
    } else if (s == "off" || s == "false" || s == "0" || s == "no") {
      v = false;
    } else {
      throw InputError(key + "=" + s + " is not a flag: allowed on/off, true/false, 1/0, yes/no");
    }
  }
  resolved_[key] = v;
  defaults_[key] = def;
  allowed_[key] = "flag: on/off";
  return v;
}

std::string RunParameters::text(const std::string& key, const std::string& def) {
  known_.insert(key);
  std::string v = def;
  const auto it = given_.find(key);
  if (it != given_.end()) v = it->second;
  resolved_[key] = v;
  defaults_[key] = def;
  allowed_[key] = "text";
  return v;
}

void RunParameters::reject_unknown() const {
  for (const auto& [k, v] : given_) {
    if (known_.count(k) == 0) {
      const std::vector<std::string> keys(known_.begin(), known_.end());
      throw InputError("unknown parameter " + k + "=" + v + ": known keys are " +
                       (keys.empty() ? std::string("(none)") : join(keys, ", ")));
    }
  }
  if (describe_only_) throw ParametersDescribed{};
}

}  // namespace dpl::algorithms
