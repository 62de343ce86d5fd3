// SPDX-License-Identifier: Apache-2.0
#include "cli/provenance.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace dpl::cli {

// Defined in the file the build writes from `git describe` (cmake/write_version.cmake), so that only it is
// recompiled when the commit changes.
const char* build_version();

namespace {

std::vector<std::string>& arguments_store() {
  static std::vector<std::string> args;
  return args;
}

// An argument as a POSIX shell reads it back: bare when it has only safe characters, else single-quoted.
std::string shell_quoted(const std::string& a) {
  const bool safe = !a.empty() && std::all_of(a.begin(), a.end(), [](unsigned char c) {
    return std::isalnum(c) || std::string_view("@%+=:,./_-^").find(static_cast<char>(c)) != std::string_view::npos;
  });
  if (safe) return a;
  std::string q = "'";
  for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// One line of text: control characters (a newline in an argument) become spaces.
std::string printable_one_line(std::string s) {
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return s;
}

std::string xml_escaped(const std::string& s) {
  std::string r;
  for (char c : printable_one_line(s)) {
    if (c == '&') r += "&amp;";
    else if (c == '<') r += "&lt;";
    else if (c == '>') r += "&gt;";
    else r += c;
  }
  return r;
}

std::string provenance_text() { return "dpledger " + version_string() + ": " + printable_one_line(command_line()); }

Json provenance_line_json() {
  Json j = Json::object();
  j["version"] = version_string();
  j["arguments"] = recorded_arguments();
  return j;
}

// Every non-blank line of `content` is a JSON value (JSON lines).
bool is_json_lines(const std::string& content) {
  std::size_t pos = 0;
  bool any = false;
  while (pos < content.size()) {
    const std::size_t nl = std::min(content.find('\n', pos), content.size());
    const std::string line = content.substr(pos, nl - pos);
    if (line.find_first_not_of(" \t\r") != std::string::npos) {
      if (!Json::accept(line)) return false;
      any = true;
    }
    pos = nl + 1;
  }
  return any;
}

std::string stamp_svg(const std::string& content) {
  const std::size_t open = content.find("<svg");
  const std::size_t end = open == std::string::npos ? open : content.find('>', open);
  if (end == std::string::npos) return content;
  return content.substr(0, end + 1) + "\n<metadata>" + xml_escaped(provenance_text()) + "</metadata>" +
         content.substr(end + 1);
}

}  // namespace

const std::string& version_string() {
  static const std::string v = build_version();
  return v;
}

void record_arguments(int argc, const char* const* argv) {
  auto& args = arguments_store();
  args.clear();
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
}

const std::vector<std::string>& recorded_arguments() { return arguments_store(); }

std::string command_line() {
  std::string s = "dpledger";
  for (const auto& a : recorded_arguments()) {
    s += ' ';
    s += shell_quoted(a);
  }
  return s;
}

Json with_provenance(const Json& j) {
  if (!j.is_object()) return j;
  Json out = Json::object();
  bool placed = false;
  auto place = [&] {
    out["version"] = version_string();
    out["arguments"] = recorded_arguments();
    placed = true;
  };
  if (!j.contains("command")) place();
  for (const auto& [k, v] : j.items()) {
    if (k == "version" || k == "arguments") continue;  // the provenance members are written once, here
    out[k] = v;
    if (k == "command") place();
  }
  if (!placed) place();
  return out;
}

std::string stamp_prefix(const std::string& path) {
  if (path.ends_with(".csv")) return "# " + provenance_text() + "\n";
  if (path.ends_with(".jsonl")) return provenance_line_json().dump() + "\n";
  return "";
}

std::string stamp_file(const std::string& path, const std::string& content) {
  if (path.ends_with(".svg")) return stamp_svg(content);
  if (path.ends_with(".md")) return content + (content.empty() || content.back() == '\n' ? "" : "\n") +
                                    "\nWritten by dpledger " + version_string() + ": `" + printable_one_line(command_line()) +
                                    "`\n";
  if (const std::string prefix = stamp_prefix(path); !prefix.empty()) return prefix + content;  // .csv, .jsonl
  if (content.rfind(".TH ", 0) == 0 || content.rfind(".\\\"", 0) == 0)  // roff (the man page): a comment line
    return ".\\\" " + provenance_text() + "\n" + content;
  const std::size_t first = content.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && content[first] == '{') {
    if (Json::accept(content)) {
      // One object: the members are inserted before its closing brace, as text, so every other token (a decimal
      // beyond a double's range included) stays as written.
      const Json j = Json::parse(content);
      if (j.is_object()) {
        Json p = Json::object();
        const Json provenance = provenance_line_json();
        for (const auto& [k, v] : provenance.items())
          if (!j.contains(k)) p[k] = v;
        if (p.empty()) return content;
        const std::size_t close = content.find_last_of('}');
        const std::string members = p.dump().substr(1, p.dump().size() - 2);
        return content.substr(0, close) + (j.empty() ? "" : ",") + members + content.substr(close);
      }
    }
    if (is_json_lines(content)) return provenance_line_json().dump() + "\n" + content;
  }
  if (content.compare(first == std::string::npos ? 0 : first, 4, "<svg") == 0 ||
      content.compare(first == std::string::npos ? 0 : first, 5, "<?xml") == 0)
    return stamp_svg(content);
  return "# " + provenance_text() + "\n" + content;
}

}  // namespace dpl::cli
