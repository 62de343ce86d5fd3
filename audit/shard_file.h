// SPDX-License-Identifier: Apache-2.0
// Partial audit counts as JSON (`dpledger audit --shard i/n --out FILE`) and their exact merge: a shard records
// everything that determines its counts (target, --set, delta, runs, seed, thresholds, shard i of n), and the
// merge refuses shards that disagree on any of it, repeat a shard, or miss one.
#pragma once

#include "audit/threshold_counts.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dpl::audit {

struct Shard {
  std::string version;  // the dpledger that wrote it ("0.1.0 (commit ...)"): shards of one audit share it
  std::string target;
  std::map<std::string, std::string> sets;
  std::optional<double> delta;       // as given (absent: the target's default)
  std::uint64_t runs = 0, seed = 0;
  std::uint64_t shard_index = 0, shard_count = 1;  // 0-based index
  double confidence = 0.95, tolerance = 0.1;
  ThresholdCounts counts;
};

nlohmann::ordered_json to_json(const Shard& s);
// Throws InputError naming the file and the field for a malformed shard.
Shard shard_from_json(const nlohmann::ordered_json& j, const std::string& file);

// Limits of a shard file, checked when it is read: runs as for --runs, shards as for --shard.
inline constexpr std::uint64_t kMaxShardRuns = 10'000'000'000'000ULL;  // 1e13
inline constexpr std::uint64_t kMaxShards = 1'000'000;

// Merges the shards of one audit one file at a time (only the running sum of the counts is kept): each shard must
// agree with the first on everything that determines its counts (the dpledger version that wrote it included),
// no shard may repeat, and `total()` needs
// exactly one complete set. Throws InputError naming the file and the field.
class ShardMerge {
 public:
  void add(const Shard& s, const std::string& file);
  Shard total() const;

 private:
  std::optional<Shard> sum_;
  std::string first_file_;
  std::vector<bool> seen_;
  std::size_t files_ = 0;
};

// Adds shards 0..n-1 of one audit; throws InputError when they do not form exactly one complete set, or were
// written by different versions of dpledger (the message names both).
Shard merge_shards(const std::vector<Shard>& shards, const std::vector<std::string>& files);

}  // namespace dpl::audit
