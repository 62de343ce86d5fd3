// SPDX-License-Identifier: Apache-2.0
#include "audit/user_samples.h"

#include "accounting/errors.h"
#include "accounting/input_file.h"
#include "accounting/numeric/decimal.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>

namespace dpl::audit {

Projection parse_projection(const std::string& text) {
  Projection p;
  p.text = text;
  if (text.empty()) return p;
  auto bad = [&] {
    return InputError("--projection=" + text + " is not valid: allowed coord:K (1-based column) or weights:w1,w2,...");
  };
  if (text.rfind("coord:", 0) == 0) {
    const std::string k = text.substr(6);
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(k.c_str(), &end, 10);
    if (k.empty() || *end != '\0' || errno != 0 || v < 1 || v > 1'000'000 || k[0] == '-') throw bad();
    p.coordinate = v;
  } else if (text.rfind("weights:", 0) == 0) {
    std::string rest = text.substr(8);
    std::size_t pos = 0;
    while (pos <= rest.size()) {
      const std::size_t c = std::min(rest.find(',', pos), rest.size());
      const std::string item = rest.substr(pos, c - pos);
      char* end = nullptr;
      const double w = std::strtod(item.c_str(), &end);
      if (item.empty() || *end != '\0' || !std::isfinite(w)) throw bad();
      p.weights.push_back(w);
      pos = c + 1;
    }
    if (std::all_of(p.weights.begin(), p.weights.end(), [](double w) { return w == 0; }))
      throw InputError("--projection=" + text + ": the weights are all zero");
  } else {
    throw bad();
  }
  return p;
}

std::optional<std::vector<double>> sample_row_of(const std::string& line) {
  std::vector<double> row;
  const char* s = line.c_str();
  while (true) {
    while (*s == ' ' || *s == '\t') ++s;
    if (*s == '\0') break;
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(s, &end);
    if (end == s || !std::isfinite(v)) return std::nullopt;
    row.push_back(v);
    s = end;
    const char* before = s;
    while (*s == ' ' || *s == '\t') ++s;
    if (*s == ',')
      ++s;  // comma separated
    else if (*s != '\0' && s == before)  // neither a separator nor the end right after a number
      return std::nullopt;
  }
  return row;
}

namespace {

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\"");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\"") - b + 1);
}

}  // namespace

std::vector<std::vector<double>> read_sample_rows(const std::string& path, std::size_t max_rows, SampleHeader* header) {
  // At most 256 MB and max_rows rows (each row is kept: about 60 bytes), lines of at most 1 MB; a directory or a
  // device that never ends is refused.
  InputFile in(path, "sample file " + path, InputFileLimits{std::size_t{256} << 20, std::size_t{1} << 20});
  std::vector<std::vector<double>> rows;
  std::string line;
  std::size_t lineno = 0;
  bool header_read = false, drop_index = false;
  while (in.next_line(line)) {
    ++lineno;
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos) continue;  // blank line
    if (line[first] == '#') continue;          // a comment (numpy.savetxt's header, dpledger's provenance line)
    if (rows.size() >= max_rows)
      throw InputError("sample file " + path + " has more than " + std::to_string(max_rows) + " rows: allowed at most that");
    auto row = sample_row_of(line);
    if (!row && rows.empty() && !header_read) {
      // A header line of column names (pandas' to_csv writes one, after an empty name for its index column,
      // which is then dropped from every row).
      header_read = true;
      const std::string first_cell = trimmed(line.substr(0, line.find(',')));
      drop_index = first_cell.empty() && line.find(',') != std::string::npos;
      if (header) {
        header->line = line;
        header->index_column_dropped = drop_index;
      }
      continue;
    }
    if (!row)
      throw InputError("sample file " + path + " line " + std::to_string(lineno) + ": '" + line +
                       "' is not a list of finite numbers");
    if (drop_index) {
      if (row->size() < 2)
        throw InputError("sample file " + path + " line " + std::to_string(lineno) +
                         ": the header names an index column and a value, the line has one value");
      row->erase(row->begin());
    }
    if (!rows.empty() && row->size() != rows.front().size())
      throw InputError("sample file " + path + " line " + std::to_string(lineno) + " has " + std::to_string(row->size()) +
                       " values, the first row has " + std::to_string(rows.front().size()) + " (ragged file)");
    rows.push_back(std::move(*row));
  }
  if (rows.size() < 2) throw InputError("sample file " + path + " has " + std::to_string(rows.size()) + " samples: allowed at least 2");
  return rows;
}

double project_row(const std::vector<double>& row, const Projection& p, const std::string& source) {
  const std::size_t dim = row.size();
  if (p.coordinate > 0) {
    if (p.coordinate > dim)
      throw InputError("--projection=" + p.text + " is out of range for " + source + ": allowed coord:1..coord:" + std::to_string(dim));
    return row[p.coordinate - 1];
  }
  if (!p.weights.empty()) {
    if (p.weights.size() != dim)
      throw InputError("--projection=" + p.text + " has " + std::to_string(p.weights.size()) + " weights, " + source +
                       " has " + std::to_string(dim) + " columns");
    double s = 0;
    for (std::size_t i = 0; i < dim; ++i) s += p.weights[i] * row[i];
    if (!std::isfinite(s)) throw InputError("--projection=" + p.text + " overflows on a row of " + source);
    return s;
  }
  if (dim != 1)
    throw InputError(source + " has " + std::to_string(dim) + " columns: give --projection coord:K or weights:w1,...");
  return row[0];
}

std::vector<double> project(const std::vector<std::vector<double>>& rows, const Projection& p, const std::string& path) {
  std::vector<double> out;
  out.reserve(rows.size());
  for (const auto& r : rows) out.push_back(project_row(r, p, path));
  return out;
}

ThresholdCounts user_sample_counts(const std::vector<double>& d, const std::vector<double>& dprime, std::size_t candidates) {
  if (d.size() < 2 || dprime.size() < 2) throw InputError("audit: each sample file needs at least 2 samples");
  const std::size_t hd = d.size() / 2, hp = dprime.size() / 2;
  std::vector<double> pooled(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(hd));
  pooled.insert(pooled.end(), dprime.begin(), dprime.begin() + static_cast<std::ptrdiff_t>(hp));
  std::sort(pooled.begin(), pooled.end());
  std::vector<double> t;
  const std::size_t m = pooled.size();
  const std::size_t c = std::min(candidates, m);
  for (std::size_t i = 0; i < c; ++i) t.push_back(pooled[c == 1 ? 0 : i * (m - 1) / (c - 1)]);
  t.erase(std::unique(t.begin(), t.end()), t.end());
  ThresholdCounts counts(t);
  for (std::size_t i = 0; i < d.size(); ++i) ++counts.counts[i < hd ? kSelection : kEstimation][kD][bin_of(t, d[i])];
  for (std::size_t i = 0; i < dprime.size(); ++i)
    ++counts.counts[i < hp ? kSelection : kEstimation][kDPrime][bin_of(t, dprime[i])];
  return counts;
}

}  // namespace dpl::audit
