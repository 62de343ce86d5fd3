#include "audit/shard_file.h"

#include "accounting/errors.h"

#include <algorithm>

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

Shard shard_from_json(const nlohmann::ordered_json& j, const std::string& file) {
  try {
    if (!j.is_object() || j.value("format", "") != kFormat)
      throw InputError(file + ": not a dpledger audit shard (format " + std::string(kFormat) + ")");
    Shard s;
    if (!j.contains("version") || !j.at("version").is_string() || j.at("version").get<std::string>().empty())
      throw InputError(file + ": the shard records no dpledger version (written by an older dpledger): run it again");
    s.version = j.at("version").get<std::string>();
    s.target = j.at("target").get<std::string>();
    s.sets = j.at("set").get<std::map<std::string, std::string>>();
    if (!j.at("delta").is_null()) s.delta = j.at("delta").get<double>();
    s.runs = j.at("runs").get<std::uint64_t>();
    s.seed = j.at("seed").get<std::uint64_t>();
    const auto idx = j.at("shard").get<std::uint64_t>();
    s.shard_count = j.at("shards").get<std::uint64_t>();
    if (idx < 1 || idx > s.shard_count) throw InputError(file + ": shard " + std::to_string(idx) + " is not in 1.." + std::to_string(s.shard_count));
    s.shard_index = idx - 1;
    s.confidence = j.at("confidence").get<double>();
    s.tolerance = j.at("tolerance").get<double>();
    s.counts = ThresholdCounts(j.at("thresholds").get<std::vector<double>>());
    for (int h = 0; h < 2; ++h)
      for (int d = 0; d < 2; ++d) {
        auto v = j.at("counts").at(kHalf[h]).at(kSide[d]).get<std::vector<std::uint64_t>>();
        if (v.size() != s.counts.bins()) throw InputError(file + ": counts." + kHalf[h] + "." + kSide[d] + " has the wrong length");
        s.counts.counts[h][d] = std::move(v);
      }
    return s;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(file + ": malformed audit shard: " + e.what());
  }
}

Shard merge_shards(const std::vector<Shard>& shards, const std::vector<std::string>& files) {
  if (shards.empty()) throw InputError("audit merge: no shard files given");
  const Shard& a = shards.front();
  std::vector<bool> seen(a.shard_count, false);
  if (shards.size() != a.shard_count)
    throw InputError("audit merge: " + std::to_string(shards.size()) + " files given for " + std::to_string(a.shard_count) + " shards");
  Shard total = a;
  total.counts = ThresholdCounts(a.counts.thresholds);
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const Shard& s = shards[i];
    auto differs = [&](const std::string& what) {
      return InputError("audit merge: " + files[i] + " differs from " + files[0] + " in " + what);
    };
    if (s.version != a.version)
      throw InputError("audit merge: " + files[i] + " was written by dpledger " + s.version + ", " + files[0] +
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
    if (seen[s.shard_index]) throw InputError("audit merge: " + files[i] + " repeats shard " + std::to_string(s.shard_index + 1));
    seen[s.shard_index] = true;
    total.counts.add(s.counts);
  }
  total.shard_index = 0;
  total.shard_count = 1;
  return total;
}

}  // namespace dpl::audit
