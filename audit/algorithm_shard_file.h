// SPDX-License-Identifier: Apache-2.0
// Shards of an algorithm audit (`dpledger audit ALGORITHM --shard i/n --out FILE`) and their exact merge: a shard
// records everything that determines its runs (algorithm, --set, --inject, test, claim, runs, seed, confidence,
// shard i of n, the dpledger that wrote it) and the records of its runs i-1, i-1+n, ... (each run's statistics
// on D and D' and its noise-check energy, as exact doubles); the merge refuses shards that disagree on any of it,
// repeat a shard or miss one, and gathers every run's record, on which `audit merge` makes the decision the
// unsharded audit of the same seed makes.
#pragma once

#include "audit/algorithm_audit.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace dpl::audit {

struct AlgorithmShard {
  std::string version;  // the dpledger that wrote it ("0.1.0 (commit ...)"): shards of one audit share it
  std::string algorithm;
  std::vector<std::string> sets, injects;  // --set and --inject as given
  std::string test, claim;                 // --test and --claim (their names)
  std::uint64_t runs = 0, seed = 0;
  std::uint64_t shard_index = 0, shard_count = 1;  // 0-based index
  double confidence = 0.95;
  AlgorithmAuditRecords records;  // full-length vectors; only this shard's runs are read or written
};

// Whether `j` is an algorithm audit shard (its format field), as opposed to a mechanism audit's.
bool is_algorithm_shard(const nlohmann::ordered_json& j);
nlohmann::ordered_json to_json(const AlgorithmShard& s);
// Throws InputError naming the file and the field for a malformed shard.
AlgorithmShard algorithm_shard_from_json(const nlohmann::ordered_json& j, const std::string& file);

// Merges the shards of one algorithm audit one file at a time: each must agree with the first on everything that
// determines its runs, none may repeat, and `total()` needs exactly one complete set. Throws InputError naming the
// file and the field.
class AlgorithmShardMerge {
 public:
  void add(const AlgorithmShard& s, const std::string& file);
  AlgorithmShard total() const;

 private:
  std::optional<AlgorithmShard> sum_;
  std::string first_file_;
  std::vector<bool> seen_;
  std::size_t files_ = 0;
};

}  // namespace dpl::audit
