// SPDX-License-Identifier: Apache-2.0
// Canary scores of one training run: for each canary, the attack's score (higher = more likely included) and
// whether the canary was in fact included. Read from CSV (`score,included`, with or without a header line) or
// JSON lines ({"score": s, "included": 0|1|true|false}).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace dpl::audit {

struct CanaryScore {
  double score = 0;
  bool included = false;
};

// Reads FILE (format by content: a line starting with '{' is JSON lines, otherwise CSV); at most max_canaries, and
// at most the input files' 64 MB (accounting/input_file.h: about 3 million lines of `score,included`).
// Throws InputError naming the file and line for an unreadable file, a malformed line, a non-finite score, an
// `included` other than 0/1/true/false, too many lines, or a file with no canary included or none excluded.
std::vector<CanaryScore> read_canary_scores(const std::string& path, std::size_t max_canaries = 10'000'000);

// The same from text (path names the source in messages).
std::vector<CanaryScore> parse_canary_scores(const std::string& text, const std::string& path,
                                             std::size_t max_canaries = 10'000'000);

}  // namespace dpl::audit
