// SPDX-License-Identifier: Apache-2.0
// Aligned plain-text tables for the default (human) output: every column as wide as its widest cell, two spaces
// between columns, so that no value of any length fuses with its neighbour.
#pragma once

#include <string>
#include <vector>

namespace dpl::presentation {

class TextTable {
 public:
  TextTable() = default;
  explicit TextTable(std::vector<std::string> header) { rows_.push_back(std::move(header)); }
  void add_row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  // The table, one line per row (the header, if any, first), each line prefixed by indent; trailing blanks removed.
  std::string str(const std::string& indent = "") const;

 private:
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace dpl::presentation
