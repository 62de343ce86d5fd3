// SPDX-License-Identifier: Apache-2.0
#include "audit/canary_scores.h"

#include "accounting/errors.h"
#include "accounting/input_file.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

namespace dpl::audit {

namespace {

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  const auto b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}

bool parse_number(const std::string& cell, double& x) {
  const std::string c = trim(cell);
  if (c.empty()) return false;
  std::size_t used = 0;
  try {
    x = std::stod(c, &used);
  } catch (const std::exception&) {
    return false;
  }
  return used == c.size();
}

[[noreturn]] void bad(const std::string& path, std::size_t line, const std::string& what) {
  throw InputError("--canary-scores=" + path + " line " + std::to_string(line) + ": " + what +
                   " (expected `score,included` or {\"score\": s, \"included\": 0|1})");
}

bool parse_included(const std::string& cell, bool& included) {
  const std::string c = trim(cell);
  if (c == "1" || c == "true" || c == "1.0") return included = true, true;
  if (c == "0" || c == "false" || c == "0.0") return included = false, true;
  return false;
}

}  // namespace

std::vector<CanaryScore> parse_canary_scores(const std::string& text, const std::string& path, std::size_t max_canaries) {
  std::vector<CanaryScore> out;
  std::istringstream in(text);
  std::string raw;
  std::size_t line = 0;
  bool first_content = true;
  while (std::getline(in, raw)) {
    ++line;
    const std::string s = trim(raw);
    if (s.empty() || s[0] == '#') continue;
    if (out.size() >= max_canaries)
      throw InputError("--canary-scores=" + path + " has more than " + std::to_string(max_canaries) +
                       " canaries: allowed at most that many lines");
    CanaryScore c;
    if (s[0] == '{') {
      nlohmann::json j;
      try {
        j = nlohmann::json::parse(s);
      } catch (const std::exception&) {
        bad(path, line, "not a JSON object");
      }
      if (!j.is_object() || !j.contains("score") || !j.contains("included")) bad(path, line, "missing score or included");
      if (!j["score"].is_number()) bad(path, line, "score is not a number");
      c.score = j["score"].get<double>();
      const auto& inc = j["included"];
      if (inc.is_boolean()) c.included = inc.get<bool>();
      else if (inc.is_number() && (inc.get<double>() == 0 || inc.get<double>() == 1)) c.included = inc.get<double>() == 1;
      else bad(path, line, "included must be 0, 1, true or false");
    } else {
      const auto comma = s.find(',');
      double x = 0;
      const bool number = comma != std::string::npos && parse_number(s.substr(0, comma), x);
      if (first_content && !number) {  // a header: the first line, its first cell not a number
        first_content = false;
        continue;
      }
      if (comma == std::string::npos || s.find(',', comma + 1) != std::string::npos)
        bad(path, line, "not two comma-separated cells");
      bool included = false;
      const bool flag = parse_included(s.substr(comma + 1), included);
      if (!number || !flag) {
        bad(path, line, !number ? "the score is not a number" : "included must be 0, 1, true or false");
      }
      c.score = x;
      c.included = included;
    }
    first_content = false;
    if (!std::isfinite(c.score)) bad(path, line, "the score is not finite");
    out.push_back(c);
  }
  std::size_t in_count = 0;
  for (const auto& c : out) in_count += c.included;
  if (in_count == 0 || in_count == out.size())
    throw InputError("--canary-scores=" + path + " has " + std::to_string(in_count) + " included and " +
                     std::to_string(out.size() - in_count) + " excluded canaries: the audit needs at least one of each");
  return out;
}

std::vector<CanaryScore> read_canary_scores(const std::string& path, std::size_t max_canaries) {
  // Within the input files' limits (64 MB, lines of 1 MB; a device such as /dev/zero stops at them).
  return parse_canary_scores(read_input_file(path, "--canary-scores " + path), path, max_canaries);
}

}  // namespace dpl::audit
