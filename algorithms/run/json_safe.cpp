// SPDX-License-Identifier: Apache-2.0
#include "algorithms/run/json_safe.h"

#include <cmath>

namespace dpl::algorithms {

namespace {

// Length of the valid UTF-8 sequence starting at s[i] (RFC 3629: no overlongs, no surrogates, <= U+10FFFF), or 0.
std::size_t utf8_length(const std::string& s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c == 0xE0) n = 3, lo = 0xA0;
  else if (c >= 0xE1 && c <= 0xEC) n = 3;
  else if (c == 0xED) n = 3, hi = 0x9F;
  else if (c >= 0xEE && c <= 0xEF) n = 3;
  else if (c == 0xF0) n = 4, lo = 0x90;
  else if (c >= 0xF1 && c <= 0xF3) n = 4;
  else if (c == 0xF4) n = 4, hi = 0x8F;
  else return 0;
  if (i + n > s.size()) return 0;
  if (b(i + 1) < lo || b(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
  return n;
}

}  // namespace

std::string valid_utf8(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_length(s, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(s, i, n);
      i += n;
    }
  }
  return out;
}

Json json_safe(const Json& j) {
  if (j.is_number_float()) {
    const double v = j.get<double>();
    if (std::isfinite(v)) return j;
    return Json(std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
  }
  if (j.is_string()) return Json(valid_utf8(j.get<std::string>()));
  if (j.is_array()) {
    Json out = Json::array();
    for (const auto& e : j) out.push_back(json_safe(e));
    return out;
  }
  if (j.is_object()) {
    Json out = Json::object();
    for (auto it = j.begin(); it != j.end(); ++it) out[valid_utf8(it.key())] = json_safe(it.value());
    return out;
  }
  return j;
}

}  // namespace dpl::algorithms
