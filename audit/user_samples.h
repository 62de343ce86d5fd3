// SPDX-License-Identifier: Apache-2.0
// Users' own outputs: one number, or one vector (comma or blank separated) per line, from their implementation
// run on D and on D'; a projection the user names turns vectors into numbers; candidate thresholds come from
// the selection half only (the first half of each file), counts from both halves.
#pragma once

#include "audit/threshold_counts.h"

#include <optional>
#include <string>
#include <vector>

namespace dpl::audit {

// "coord:K" (1-based column) or "weights:w1,w2,..." (dot product); empty: the file must be one column.
struct Projection {
  std::size_t coordinate = 0;        // 1-based, 0 = unused
  std::vector<double> weights;       // empty = unused
  std::string text;
};
Projection parse_projection(const std::string& text);

// The header line of a sample file, if it has one.
struct SampleHeader {
  std::string line;                   // empty: no header
  bool index_column_dropped = false;  // its first name is empty (pandas' index column): the first value of every row is dropped
};

// The numbers of one output line (comma or blank separated), or nothing if it is not a list of finite numbers.
std::optional<std::vector<double>> sample_row_of(const std::string& line);

// Reads the rows of a sample file (at most max_rows); throws InputError naming the file and line for an
// unreadable file, a non-numeric or non-finite entry, or a row whose length differs from the first. Lines starting
// with # are comments; a first line that is not numbers is a header of column names (CSV as pandas writes it),
// described in *header when given.
inline constexpr std::size_t kMaxSampleRows = 10'000'000;
std::vector<std::vector<double>> read_sample_rows(const std::string& path, std::size_t max_rows = kMaxSampleRows,
                                                  SampleHeader* header = nullptr);

// Applies the projection to one row; throws InputError naming `source` if it does not fit the row's dimension.
double project_row(const std::vector<double>& row, const Projection& p, const std::string& source);
// Applies the projection to every row; throws InputError if it does not fit the dimension.
std::vector<double> project(const std::vector<std::vector<double>>& rows, const Projection& p, const std::string& path);

// Counts over candidate thresholds = up to `candidates` quantiles of the pooled first halves of both files.
// Each file needs at least 2 samples.
ThresholdCounts user_sample_counts(const std::vector<double>& d, const std::vector<double>& dprime,
                                   std::size_t candidates = 256);

}  // namespace dpl::audit
