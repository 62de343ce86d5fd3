// SPDX-License-Identifier: Apache-2.0
#include "audit/shard_file.h"

#include "accounting/errors.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace dpl::audit {

namespace {
constexpr const char* kFormat = "dpledger-audit-shard-1";
const char* kHalf[2] = {"selection", "estimation"};
const char* kSide[2] = {"D", "D'"};
}  // namespace

nlohmann::ordered_json to_json(const Shard& s) {
  nlohmann::ordered_json j;
  j["format"] = kFormat;
  j["version"] = s.version;
  j["target"] = s.target;
  j["set"] = s.sets;
  j["delta"] = s.delta ? nlohmann::ordered_json(*s.delta) : nlohmann::ordered_json(nullptr);
  j["runs"] = s.runs;
  j["seed"] = s.seed;
  j["shard"] = s.shard_index + 1;
  j["shards"] = s.shard_count;
  j["confidence"] = s.confidence;
  j["tolerance"] = s.tolerance;
  j["thresholds"] = s.counts.thresholds;
  for (int h = 0; h < 2; ++h)
    for (int d = 0; d < 2; ++d) j["counts"][kHalf[h]][kSide[d]] = s.counts.counts[h][d];
  return j;
}

namespace {

using Json = nlohmann::ordered_json;

const Json& field(const Json& j, const char* key, const std::string& file) {
  if (!j.contains(key)) throw InputError(file + ": malformed audit shard: missing field '" + key + "'");
  return j.at(key);
}

// A JSON unsigned integer in [lo, hi] (a negative, fractional or huge number is refused, not wrapped or cut).
std::uint64_t integer_field(const Json& j, const char* key, std::uint64_t lo, std::uint64_t hi, const std::string& file) {
  const Json& v = field(j, key, file);
  if (!v.is_number_unsigned() || v.get<std::uint64_t>() < lo || v.get<std::uint64_t>() > hi)
    throw InputError(file + ": audit shard field '" + key + "' = " + v.dump().substr(0, 40) +
                     " is out of range: allowed integers [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v.get<std::uint64_t>();
}

// A finite JSON number in the range that `ok` accepts (described by `range`).
double real_field(const Json& j, const char* key, bool (*ok)(double), const char* range, const std::string& file) {
  const Json& v = field(j, key, file);
  if (!v.is_number() || !ok(v.get<double>()))
    throw InputError(file + ": audit shard field '" + key + "' = " + v.dump().substr(0, 40) +
                     " is out of range: allowed " + range);
  return v.get<double>();
}

}  // namespace

Shard shard_from_json(const nlohmann::ordered_json& j, const std::string& file) {
  try {
    if (!j.is_object() || !j.contains("format") || j.at("format") != kFormat)
      throw InputError(file + ": not a dpledger audit shard (format " + std::string(kFormat) + ")");
    Shard s;
    if (!j.contains("version") || !j.at("version").is_string() || j.at("version").get<std::string>().empty())
      throw InputError(file + ": the shard records no dpledger version (written by an older dpledger): run it again");
    s.version = j.at("version").get<std::string>();
    if (!field(j, "target", file).is_string()) throw InputError(file + ": audit shard field 'target' is not a string");
    s.target = j.at("target").get<std::string>();
    const Json& sets = field(j, "set", file);
    if (!sets.is_object() || !std::all_of(sets.begin(), sets.end(), [](const Json& v) { return v.is_string(); }))
      throw InputError(file + ": audit shard field 'set' is not an object of strings (each --set name: value)");
    s.sets = sets.get<std::map<std::string, std::string>>();
    if (!field(j, "delta", file).is_null())
      s.delta = real_field(j, "delta", [](double d) { return d >= 0 && d < 1; }, "[0, 1) or null", file);
    s.runs = integer_field(j, "runs", 2, kMaxShardRuns, file);
    s.seed = integer_field(j, "seed", 0, UINT64_MAX, file);
    s.shard_count = integer_field(j, "shards", 1, kMaxShards, file);
    s.shard_index = integer_field(j, "shard", 1, s.shard_count, file) - 1;
    s.confidence = real_field(j, "confidence", [](double c) { return c > 0 && c < 1; }, "(0, 1)", file);
    s.tolerance = real_field(j, "tolerance", [](double t) { return t > 0 && std::isfinite(t); }, "(0, inf)", file);
    const Json& t = field(j, "thresholds", file);
    if (!t.is_array() || t.empty()) throw InputError(file + ": audit shard field 'thresholds' is not a non-empty array");
    std::vector<double> thresholds;
    thresholds.reserve(t.size());
    for (const auto& x : t) {
      if (!x.is_number() || !std::isfinite(x.get<double>()) || (!thresholds.empty() && !(x.get<double>() > thresholds.back())))
        throw InputError(file + ": audit shard field 'thresholds' is not an increasing list of finite numbers");
      thresholds.push_back(x.get<double>());
    }
    s.counts = ThresholdCounts(std::move(thresholds));
    const Json& counts = field(j, "counts", file);
    for (int h = 0; h < 2; ++h)
      for (int d = 0; d < 2; ++d) {
        const std::string name = std::string("counts.") + kHalf[h] + "." + kSide[d];
        if (!counts.is_object() || !counts.contains(kHalf[h]) || !counts.at(kHalf[h]).is_object() ||
            !counts.at(kHalf[h]).contains(kSide[d]) || !counts.at(kHalf[h]).at(kSide[d]).is_array())
          throw InputError(file + ": malformed audit shard: missing array '" + name + "'");
        const Json& a = counts.at(kHalf[h]).at(kSide[d]);
        if (a.size() != s.counts.bins()) throw InputError(file + ": " + name + " has the wrong length");
        auto& v = s.counts.counts[h][d];
        std::uint64_t sum = 0;
        for (std::size_t k = 0; k < a.size(); ++k) {
          if (!a[k].is_number_unsigned() || a[k].get<std::uint64_t>() > s.runs)
            throw InputError(file + ": " + name + " holds a count that is not an integer in [0, runs]");
          v[k] = a[k].get<std::uint64_t>();
          sum += v[k];
          if (sum > s.runs) throw InputError(file + ": " + name + " counts more outputs than the runs");
        }
      }
    return s;
  } catch (const nlohmann::json::exception& e) {
    // A field of the wrong type that the checks above missed: named by the library's id, not its raw text.
    throw InputError(file + ": malformed audit shard: a field has the wrong type or value (JSON error " +
                     std::to_string(e.id) + ")");
  }
}

void ShardMerge::add(const Shard& s, const std::string& file) {
  ++files_;
  if (!sum_) {
    sum_ = s;
    first_file_ = file;
    seen_.assign(s.shard_count, false);  // at most kMaxShards
    seen_[s.shard_index] = true;
    sum_->shard_index = 0;
    return;
  }
  const Shard& a = *sum_;
  auto differs = [&](const std::string& what) {
    return InputError("audit merge: " + file + " differs from " + first_file_ + " in " + what);
  };
  if (s.version != a.version)
    throw InputError("audit merge: " + file + " was written by dpledger " + s.version + ", " + first_file_ +
                     " by dpledger " + a.version + ": merge shards written by one version");
  if (s.target != a.target) throw differs("target");
  if (s.sets != a.sets) throw differs("--set");
  if (s.delta != a.delta) throw differs("delta");
  if (s.runs != a.runs) throw differs("runs");
  if (s.seed != a.seed) throw differs("seed");
  if (s.shard_count != a.shard_count) throw differs("the number of shards");
  if (s.confidence != a.confidence) throw differs("confidence");
  if (s.tolerance != a.tolerance) throw differs("tolerance");
  if (s.counts.thresholds != a.counts.thresholds) throw differs("thresholds");
  if (files_ > a.shard_count)
    throw InputError("audit merge: more files than the " + std::to_string(a.shard_count) + " shards (at " + file + ")");
  if (seen_[s.shard_index]) throw InputError("audit merge: " + file + " repeats shard " + std::to_string(s.shard_index + 1));
  seen_[s.shard_index] = true;
  sum_->counts.add(s.counts);
}

Shard ShardMerge::total() const {
  if (!sum_) throw InputError("audit merge: no shard files given");
  if (files_ != sum_->shard_count)
    throw InputError("audit merge: " + std::to_string(files_) + " files given for " + std::to_string(sum_->shard_count) + " shards");
  Shard total = *sum_;
  // The shards together drew every run once: runs/2 outputs per side in the selection half, the rest in the
  // estimation half (block_sampler.h). Counts that say otherwise were not written by `audit --shard`.
  const std::uint64_t half = total.runs / 2;
  for (int d = 0; d < 2; ++d)
    if (total.counts.total(kSelection, Side(d)) != half || total.counts.total(kEstimation, Side(d)) != total.runs - half)
      throw InputError("audit merge: the merged counts do not add up to the " + std::to_string(total.runs) +
                       " runs of the shards (a shard file was altered)");
  total.shard_index = 0;
  total.shard_count = 1;
  return total;
}

Shard merge_shards(const std::vector<Shard>& shards, const std::vector<std::string>& files) {
  if (shards.empty()) throw InputError("audit merge: no shard files given");
  if (shards.size() != shards.front().shard_count)
    throw InputError("audit merge: " + std::to_string(shards.size()) + " files given for " +
                     std::to_string(shards.front().shard_count) + " shards");
  ShardMerge m;
  for (std::size_t i = 0; i < shards.size(); ++i) m.add(shards[i], i < files.size() ? files[i] : "shard");
  return m.total();
}

}  // namespace dpl::audit
