// SPDX-License-Identifier: Apache-2.0
// Reading a user's file within limits, before anything is parsed or allocated from it: a directory is refused, a
// file larger than its limit (or a device that never ends, such as /dev/zero) stops at the limit, a line longer
// than its limit stops at that line, and JSON nested deeper than its limit is refused before a recursive parser
// or printer meets it. Every refusal is an InputError naming the file, the limit and how far the file went.
#pragma once

#include <cstddef>
#include <string>

namespace dpl {

struct InputFileLimits {
  std::size_t max_bytes = std::size_t{64} << 20;  // the whole file
  std::size_t max_line = std::size_t{1} << 20;    // one line (without its newline)
};

// Ledger files, shard files, sample files, config files: 64 MB, lines up to 1 MB.
inline constexpr InputFileLimits kDefaultInputFileLimits{};
// JSON objects and arrays nested deeper than this are refused (a DpEvent tree needs about 10 levels).
inline constexpr int kMaxJsonDepth = 200;

// Reads a file line by line within `limits`. `what` names the file in messages (e.g. "--ledger data.jsonl");
// `path` "-" is standard input.
class InputFile {
 public:
  InputFile(const std::string& path, std::string what, InputFileLimits limits = kDefaultInputFileLimits);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  // The next line without its '\n' (and without a '\r' before it); false at the end of the file.
  bool next_line(std::string& line);
  // Everything not yet returned, as it is (bounded by max_bytes only).
  std::string read_all();
  // 1-based number of the line last returned.
  std::size_t line_number() const { return line_number_; }

 private:
  bool fill();
  int fd_ = -1;
  bool owns_fd_ = false;
  std::string what_;
  InputFileLimits limits_;
  std::string buffer_;
  std::size_t pos_ = 0;
  std::size_t total_ = 0;
  std::size_t line_number_ = 0;
  bool eof_ = false;
};

// The whole file (at most limits.max_bytes; no line limit, for formats such as a JSON array on one line).
std::string read_input_file(const std::string& path, const std::string& what,
                            InputFileLimits limits = kDefaultInputFileLimits);

// Throws InputError naming `what` when the JSON text nests objects/arrays deeper than `max_depth` (strings are
// skipped; the text need not be valid JSON).
void check_json_depth(const std::string& text, const std::string& what, int max_depth = kMaxJsonDepth);

}  // namespace dpl
