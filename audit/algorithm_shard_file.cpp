// SPDX-License-Identifier: Apache-2.0
#include "audit/algorithm_shard_file.h"

#include "accounting/errors.h"

#include <cmath>
#include <cstdint>

namespace dpl::audit {

namespace {

using Json = nlohmann::ordered_json;
constexpr const char* kAlgorithmShardFormat = "dpledger-algorithm-audit-shard-1";
constexpr std::uint64_t kMaxAlgorithmShardRuns = 10'000'000;  // as --runs for an algorithm
constexpr std::uint64_t kMaxAlgorithmShards = 1'000'000;

// A statistic as JSON: a number when finite, else the string "inf", "-inf" or "nan" (JSON has no infinities).
Json algorithm_shard_number(double x) {
  if (std::isfinite(x)) return x;
  return std::isnan(x) ? "nan" : x > 0 ? "inf" : "-inf";
}

double algorithm_shard_number_of(const Json& v, const std::string& what, const std::string& file) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s == "inf") return INFINITY;
    if (s == "-inf") return -INFINITY;
    if (s == "nan") return NAN;
  }
  throw InputError(file + ": algorithm audit shard field '" + what + "' holds a value that is not a number");
}

const Json& algorithm_shard_field(const Json& j, const char* key, const std::string& file) {
  if (!j.contains(key)) throw InputError(file + ": malformed algorithm audit shard: missing field '" + key + "'");
  return j.at(key);
}

std::uint64_t algorithm_shard_integer(const Json& j, const char* key, std::uint64_t lo, std::uint64_t hi,
                                      const std::string& file) {
  const Json& v = algorithm_shard_field(j, key, file);
  if (!v.is_number_unsigned() || v.get<std::uint64_t>() < lo || v.get<std::uint64_t>() > hi)
    throw InputError(file + ": algorithm audit shard field '" + key + "' = " + v.dump().substr(0, 40) +
                     " is out of range: allowed integers [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v.get<std::uint64_t>();
}

std::string algorithm_shard_string(const Json& j, const char* key, const std::string& file) {
  const Json& v = algorithm_shard_field(j, key, file);
  if (!v.is_string()) throw InputError(file + ": algorithm audit shard field '" + key + "' is not a string");
  return v.get<std::string>();
}

std::vector<std::string> algorithm_shard_strings(const Json& j, const char* key, const std::string& file) {
  const Json& v = algorithm_shard_field(j, key, file);
  if (!v.is_array()) throw InputError(file + ": algorithm audit shard field '" + key + "' is not a list of strings");
  std::vector<std::string> out;
  for (const auto& x : v) {
    if (!x.is_string()) throw InputError(file + ": algorithm audit shard field '" + key + "' is not a list of strings");
    out.push_back(x.get<std::string>());
  }
  return out;
}

// The number of runs of shard `index` of `count` among `runs`: runs index, index + count, ...
std::uint64_t algorithm_shard_runs(std::uint64_t runs, std::uint64_t index, std::uint64_t count) {
  return index >= runs ? 0 : (runs - index + count - 1) / count;
}

}  // namespace

bool is_algorithm_shard(const Json& j) {
  return j.is_object() && j.contains("format") && j.at("format") == kAlgorithmShardFormat;
}

Json to_json(const AlgorithmShard& s) {
  Json j;
  j["format"] = kAlgorithmShardFormat;
  j["version"] = s.version;
  j["algorithm"] = s.algorithm;
  j["set"] = s.sets;
  j["inject"] = s.injects;
  j["test"] = s.test;
  j["claim"] = s.claim;
  j["runs"] = s.runs;
  j["seed"] = s.seed;
  j["shard"] = s.shard_index + 1;
  j["shards"] = s.shard_count;
  j["confidence"] = s.confidence;
  const AlgorithmAuditRecords& r = s.records;
  j["noise_family"] = r.gamma_norm ? "gamma-norm" : r.laplace ? "laplace" : "gaussian";
  if (s.shard_index == 0) j["releases_per_run"] = r.releases_per_run;  // run 0's fact
  Json d = Json::array(), dp = Json::array(), id = Json::array(), idp = Json::array(), e = Json::array(),
       n = Json::array();
  for (std::uint64_t i = s.shard_index; i < s.runs; i += s.shard_count) {
    d.push_back(algorithm_shard_number(r.stat_d[i]));
    dp.push_back(algorithm_shard_number(r.stat_dprime[i]));
    id.push_back(algorithm_shard_number(r.increments_d[i]));
    idp.push_back(algorithm_shard_number(r.increments_dprime[i]));
    e.push_back(algorithm_shard_number(r.energy[i]));
    n.push_back(r.draws[i]);
  }
  j["records"] = Json{{"stat_d", d},           {"stat_dprime", dp},    {"increments_d", id},
                      {"increments_dprime", idp}, {"noise_energy", e}, {"noise_draws", n}};
  return j;
}

AlgorithmShard algorithm_shard_from_json(const Json& j, const std::string& file) {
  try {
    if (!is_algorithm_shard(j))
      throw InputError(file + ": not a dpledger algorithm audit shard (format " + std::string(kAlgorithmShardFormat) + ")");
    AlgorithmShard s;
    s.version = algorithm_shard_string(j, "version", file);
    if (s.version.empty()) throw InputError(file + ": the shard records no dpledger version: run it again");
    s.algorithm = algorithm_shard_string(j, "algorithm", file);
    s.sets = algorithm_shard_strings(j, "set", file);
    s.injects = algorithm_shard_strings(j, "inject", file);
    s.test = algorithm_shard_string(j, "test", file);
    s.claim = algorithm_shard_string(j, "claim", file);
    s.runs = algorithm_shard_integer(j, "runs", 4, kMaxAlgorithmShardRuns, file);
    s.seed = algorithm_shard_integer(j, "seed", 0, UINT64_MAX, file);
    s.shard_count = algorithm_shard_integer(j, "shards", 1, std::min(kMaxAlgorithmShards, s.runs), file);
    s.shard_index = algorithm_shard_integer(j, "shard", 1, s.shard_count, file) - 1;
    const Json& c = algorithm_shard_field(j, "confidence", file);
    if (!c.is_number() || !(c.get<double>() > 0 && c.get<double>() < 1))
      throw InputError(file + ": algorithm audit shard field 'confidence' is out of range: allowed (0, 1)");
    s.confidence = c.get<double>();
    AlgorithmAuditRecords& r = s.records;
    const std::string family = algorithm_shard_string(j, "noise_family", file);
    if (family != "gaussian" && family != "laplace" && family != "gamma-norm")
      throw InputError(file + ": algorithm audit shard field 'noise_family' is not gaussian, laplace or gamma-norm");
    r.laplace = family != "gaussian";
    r.gamma_norm = family == "gamma-norm";
    if (s.shard_index == 0) r.releases_per_run = algorithm_shard_integer(j, "releases_per_run", 0, UINT64_MAX, file);
    const Json& rec = algorithm_shard_field(j, "records", file);
    const std::uint64_t mine = algorithm_shard_runs(s.runs, s.shard_index, s.shard_count);
    const char* names[6] = {"stat_d",       "stat_dprime",  "increments_d",
                            "increments_dprime", "noise_energy", "noise_draws"};
    for (const char* name : names)
      if (!rec.is_object() || !rec.contains(name) || !rec.at(name).is_array() || rec.at(name).size() != mine)
        throw InputError(file + ": algorithm audit shard field 'records." + name + "' is not a list of the shard's " +
                         std::to_string(mine) + " runs");
    r.assign_zeros(s.runs);
    for (std::uint64_t k = 0; k < mine; ++k) {
      const std::uint64_t i = s.shard_index + k * s.shard_count;
      r.stat_d[i] = algorithm_shard_number_of(rec.at("stat_d")[k], "records.stat_d", file);
      r.stat_dprime[i] = algorithm_shard_number_of(rec.at("stat_dprime")[k], "records.stat_dprime", file);
      r.increments_d[i] = algorithm_shard_number_of(rec.at("increments_d")[k], "records.increments_d", file);
      r.increments_dprime[i] =
          algorithm_shard_number_of(rec.at("increments_dprime")[k], "records.increments_dprime", file);
      r.energy[i] = algorithm_shard_number_of(rec.at("noise_energy")[k], "records.noise_energy", file);
      const Json& n = rec.at("noise_draws")[k];
      if (!n.is_number_unsigned())
        throw InputError(file + ": algorithm audit shard field 'records.noise_draws' holds a value that is not a count");
      r.draws[i] = n.get<std::uint64_t>();
    }
    return s;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(file + ": malformed algorithm audit shard: a field has the wrong type or value (JSON error " +
                     std::to_string(e.id) + ")");
  }
}

void AlgorithmShardMerge::add(const AlgorithmShard& s, const std::string& file) {
  ++files_;
  if (!sum_) {
    sum_ = s;
    first_file_ = file;
    seen_.assign(s.shard_count, false);
    seen_[s.shard_index] = true;
    return;
  }
  AlgorithmShard& a = *sum_;
  auto differs = [&](const std::string& what) {
    return InputError("audit merge: " + file + " differs from " + first_file_ + " in " + what);
  };
  if (s.version != a.version)
    throw InputError("audit merge: " + file + " was written by dpledger " + s.version + ", " + first_file_ +
                     " by dpledger " + a.version + ": merge shards written by one version");
  if (s.algorithm != a.algorithm) throw differs("the algorithm");
  if (s.sets != a.sets) throw differs("--set");
  if (s.injects != a.injects) throw differs("--inject");
  if (s.test != a.test) throw differs("--test");
  if (s.claim != a.claim) throw differs("--claim");
  if (s.runs != a.runs) throw differs("runs");
  if (s.seed != a.seed) throw differs("seed");
  if (s.shard_count != a.shard_count) throw differs("the number of shards");
  if (s.confidence != a.confidence) throw differs("confidence");
  if (files_ > a.shard_count)
    throw InputError("audit merge: more files than the " + std::to_string(a.shard_count) + " shards (at " + file + ")");
  if (seen_[s.shard_index]) throw InputError("audit merge: " + file + " repeats shard " + std::to_string(s.shard_index + 1));
  seen_[s.shard_index] = true;
  AlgorithmAuditRecords& r = a.records;
  for (std::uint64_t i = s.shard_index; i < s.runs; i += s.shard_count) {
    r.stat_d[i] = s.records.stat_d[i];
    r.stat_dprime[i] = s.records.stat_dprime[i];
    r.increments_d[i] = s.records.increments_d[i];
    r.increments_dprime[i] = s.records.increments_dprime[i];
    r.energy[i] = s.records.energy[i];
    r.draws[i] = s.records.draws[i];
  }
  r.laplace = r.laplace || s.records.laplace;
  r.gamma_norm = r.gamma_norm || s.records.gamma_norm;
  if (s.shard_index == 0) r.releases_per_run = s.records.releases_per_run;
}

AlgorithmShard AlgorithmShardMerge::total() const {
  if (!sum_) throw InputError("audit merge: no shard files given");
  if (files_ != sum_->shard_count)
    throw InputError("audit merge: " + std::to_string(files_) + " files given for " + std::to_string(sum_->shard_count) +
                     " shards");
  AlgorithmShard total = *sum_;
  total.shard_index = 0;
  total.shard_count = 1;
  return total;
}

}  // namespace dpl::audit
