// SPDX-License-Identifier: Apache-2.0
#include "cli/did_you_mean.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

namespace dpl::cli {
namespace {

// Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions).
std::size_t edit_distance(const std::string& a, const std::string& b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::App* s : app.get_subcommands([](const CLI::App* a) { return !a->get_name().empty(); }))
    out.push_back(s->get_name());
  return out;
}

const CLI::App* command_named(const CLI::App& app, const std::string& name) {
  for (const CLI::App* s : app.get_subcommands([](const CLI::App* a) { return !a->get_name().empty(); }))
    if (s->get_name() == name) return s;
  return nullptr;
}

// "--delta", "-m", ... of an app, and whether each takes a value.
struct OptionName {
  std::string name;
  bool takes_value;
};
std::vector<OptionName> option_names(const CLI::App& app) {
  std::vector<OptionName> out;
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_positional()) continue;
    const bool value = o->get_items_expected_min() > 0;  // a flag (--json, -q) takes none: the command may follow
    for (const auto& s : o->get_snames()) out.push_back({"-" + s, value});
    for (const auto& l : o->get_lnames()) out.push_back({"--" + l, value});
  }
  return out;
}

bool is_number(const std::string& s) {
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return !s.empty() && end == s.c_str() + s.size();
}

std::string suggestion(const std::string& typed, const std::vector<std::string>& names) {
  const std::string close = closest_name(typed, names);
  return close.empty() ? "" : "; did you mean " + close + "?";
}

}  // namespace

std::string closest_name(const std::string& typed, const std::vector<std::string>& names) {
  if (typed.empty()) return "";
  std::vector<std::string> prefixed;
  for (const auto& n : names)
    if (n.size() > typed.size() && n.compare(0, typed.size(), typed) == 0) prefixed.push_back(n);
  if (prefixed.size() == 1 && typed.find_first_not_of('-') != std::string::npos) return prefixed.front();
  std::string best;
  std::size_t best_d = std::numeric_limits<std::size_t>::max();
  bool tie = false;
  for (const auto& n : names) {
    const std::size_t d = edit_distance(typed, n);
    if (d < best_d) {
      best_d = d;
      best = n;
      tie = false;
    } else if (d == best_d && n != best) {
      tie = true;
    }
  }
  const std::size_t bare = typed.size() - std::min(typed.size(), typed.find_first_not_of('-'));
  const std::size_t allowed = bare <= 4 ? 1 : 2;
  if (best_d == 0 || best_d > allowed || tie) return "";
  return best;
}

std::string unknown_word_message(const CLI::App& root, int argc, const char* const* argv) {
  const auto root_options = option_names(root);
  const CLI::App* command = nullptr;
  std::vector<OptionName> options = root_options;
  bool value_next = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") break;
    if (value_next) {  // the value of the option before
      value_next = false;
      continue;
    }
    if (a.size() > 1 && a[0] == '-' && !is_number(a)) {
      const std::string name = a.substr(0, a.find('='));
      const auto known = std::find_if(options.begin(), options.end(), [&](const OptionName& o) { return o.name == name; });
      if (known == options.end()) {
        if (name == "-h" || name == "--help" || name == "--help-all" || name == "--version") continue;
        if (name.size() > 2 && name[1] != '-') continue;  // -xvalue: a short option with its value attached
        std::vector<std::string> candidates;
        for (const auto& o : options) candidates.push_back(o.name);
        const std::string where = command ? "dpledger " + command->get_name() : "dpledger";
        return where + ": " + name + " is not an option" + suggestion(name, candidates) + " (" + where +
               " --help lists the options)";
      }
      value_next = known->takes_value && a.find('=') == std::string::npos;
      continue;
    }
    if (command) continue;  // a positional argument of the command
    command = command_named(root, a);
    if (!command)
      return "dpledger: '" + a + "' is not a command" + suggestion(a, command_names(root)) +
             " (dpledger --help lists the commands)";
    options = option_names(*command);
    options.insert(options.end(), root_options.begin(), root_options.end());
  }
  return "";
}

}  // namespace dpl::cli
