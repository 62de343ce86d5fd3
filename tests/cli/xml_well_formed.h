// SPDX-License-Identifier: Apache-2.0
// A small XML well-formedness check for the SVG files the CLI writes (no dependency): every tag closed in order,
// attribute values quoted, no raw '<' or stray '&' in text or attributes, exactly one root element.
#pragma once

#include <cctype>
#include <string>
#include <vector>

namespace dpl::testing {

// Empty when `doc` is well-formed; otherwise what is wrong and where (byte offset).
inline std::string xml_well_formed_error(const std::string& doc) {
  std::vector<std::string> open;
  int roots = 0;
  auto entity_ok = [&](std::size_t at) {
    for (const char* e : {"&amp;", "&lt;", "&gt;", "&apos;", "&quot;"})
      if (doc.compare(at, std::string(e).size(), e) == 0) return true;
    return false;
  };
  std::size_t i = 0;
  while (i < doc.size()) {
    const char c = doc[i];
    if (c == '&' && !entity_ok(i)) return "stray '&' at " + std::to_string(i);
    if (c == '>') return "stray '>' at " + std::to_string(i);
    if (c != '<') {
      if (open.empty() && c != '\n' && c != ' ' && c != '\t' && c != '\r') return "text outside the root at " + std::to_string(i);
      ++i;
      continue;
    }
    if (doc.compare(i, 2, "<?") == 0 || doc.compare(i, 4, "<!--") == 0) {
      const std::size_t end = doc.find(doc[i + 1] == '?' ? "?>" : "-->", i);
      if (end == std::string::npos) return "unterminated declaration or comment at " + std::to_string(i);
      i = end + 2;
      continue;
    }
    const bool closing = i + 1 < doc.size() && doc[i + 1] == '/';
    std::size_t j = i + (closing ? 2 : 1);
    std::string name;
    while (j < doc.size() && (std::isalnum(static_cast<unsigned char>(doc[j])) || doc[j] == ':' || doc[j] == '-' || doc[j] == '_'))
      name += doc[j++];
    if (name.empty()) return "tag without a name at " + std::to_string(i);
    bool self_closing = false;
    for (;;) {
      while (j < doc.size() && std::isspace(static_cast<unsigned char>(doc[j]))) ++j;
      if (j >= doc.size()) return "unterminated tag <" + name + "> at " + std::to_string(i);
      if (doc[j] == '>') { ++j; break; }
      if (doc.compare(j, 2, "/>") == 0 && !closing) { self_closing = true; j += 2; break; }
      if (closing) return "attributes in the closing tag </" + name + ">";
      std::string attr;
      while (j < doc.size() && doc[j] != '=' && !std::isspace(static_cast<unsigned char>(doc[j])) && doc[j] != '>') attr += doc[j++];
      if (attr.empty() || j >= doc.size() || doc[j] != '=') return "attribute without a value in <" + name + "> at " + std::to_string(j);
      ++j;
      if (j >= doc.size() || (doc[j] != '\'' && doc[j] != '"')) return "unquoted attribute " + attr + " in <" + name + ">";
      const char q = doc[j++];
      const std::size_t end = doc.find(q, j);
      if (end == std::string::npos) return "unterminated attribute " + attr;
      for (std::size_t k = j; k < end; ++k) {
        if (doc[k] == '<') return "raw '<' in attribute " + attr + " at " + std::to_string(k);
        if (doc[k] == '&' && !entity_ok(k)) return "stray '&' in attribute " + attr + " at " + std::to_string(k);
      }
      j = end + 1;
    }
    if (closing) {
      if (open.empty() || open.back() != name) return "</" + name + "> does not close <" + (open.empty() ? "" : open.back()) + ">";
      open.pop_back();
    } else if (!self_closing) {
      if (open.empty()) ++roots;
      open.push_back(name);
    } else if (open.empty()) {
      ++roots;
    }
    i = j;
  }
  if (!open.empty()) return "<" + open.back() + "> is never closed";
  if (roots != 1) return "expected one root element, found " + std::to_string(roots);
  return "";
}

}  // namespace dpl::testing
