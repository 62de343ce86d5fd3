// Users' own outputs: one number, or one vector (comma or blank separated) per line, from their implementation
// run on D and on D'; a projection the user names turns vectors into numbers; candidate thresholds come from
// the selection half only (the first half of each file), counts from both halves.
#pragma once

#include "audit/threshold_counts.h"

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

// Reads the rows of a sample file (at most max_rows); throws InputError naming the file and line for an
// unreadable file, a non-numeric or non-finite entry, or a row whose length differs from the first.
std::vector<std::vector<double>> read_sample_rows(const std::string& path, std::size_t max_rows = 10'000'000);

// Applies the projection to every row; throws InputError if it does not fit the dimension.
std::vector<double> project(const std::vector<std::vector<double>>& rows, const Projection& p, const std::string& path);

// Counts over candidate thresholds = up to `candidates` quantiles of the pooled first halves of both files.
// Each file needs at least 2 samples.
ThresholdCounts user_sample_counts(const std::vector<double>& d, const std::vector<double>& dprime,
                                   std::size_t candidates = 256);

}  // namespace dpl::audit
