// SPDX-License-Identifier: Apache-2.0
// The parameters of a reference-algorithm run: user overrides (`--set key=value`, `--config FILE`) checked
// against the algorithm's declared keys, each with a default and an allowed range; the resolved values are
// recorded for the run's JSON. Unknown keys, malformed values and out-of-range values throw InputError naming
// the key, the value and the allowed range.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace dpl::algorithms {

class AuditProbe;

using Json = nlohmann::ordered_json;

// Thrown by reject_unknown() in describe-only mode, once every key has been declared: the caller then reads
// resolved(), defaults() and allowed() instead of running (not an error; not derived from std::exception).
struct ParametersDescribed {};

class RunParameters {
 public:
  RunParameters() = default;
  // From "key=value" strings (later ones override earlier ones); throws InputError on a missing '='.
  static RunParameters from_assignments(const std::vector<std::string>& assignments);
  // A config file: one "key = value" per line, '#' comments, blank lines ignored; throws InputError (file,
  // line) when unreadable or malformed. Assignments given later (e.g. --set) override it.
  void merge_config_file(const std::string& path);
  void set(const std::string& key, const std::string& value);

  // Declared reads: each records the resolved value (default filled in) and marks the key as known.
  // Reals: finite, in [lo, hi] (open ends when lo_open/hi_open).
  double real(const std::string& key, double def, double lo, double hi, bool lo_open = false, bool hi_open = false);
  // Integers in [lo, hi].
  std::int64_t integer(const std::string& key, std::int64_t def, std::int64_t lo, std::int64_t hi);
  // One of `allowed`.
  std::string choice(const std::string& key, const std::string& def, const std::vector<std::string>& allowed);
  // on/off, true/false, 1/0, yes/no.
  bool flag(const std::string& key, bool def);
  // Free text (e.g. a data path).
  std::string text(const std::string& key, const std::string& def);

  // After all reads: throws InputError naming the first user key no read declared (with the known keys); then,
  // in describe-only mode, throws ParametersDescribed.
  void reject_unknown() const;
  const Json& resolved() const { return resolved_; }
  // Every declared key's default and allowed values (e.g. "integers [1, 100000]"), in declaration order.
  const Json& defaults() const { return defaults_; }
  const Json& allowed() const { return allowed_; }
  // Describe-only mode: the run stops at reject_unknown(), before any long work.
  void set_describe_only(bool on) { describe_only_ = on; }
  // The audit's hook (audit_probe.h), or nullptr: a run with one is an audit run (lean: no trace, no accounting).
  void set_audit_probe(AuditProbe* p) { probe_ = p; }
  AuditProbe* audit_probe() const { return probe_; }

 private:
  std::map<std::string, std::string> given_;
  std::set<std::string> known_;
  Json resolved_ = Json::object();
  Json defaults_ = Json::object();
  Json allowed_ = Json::object();
  bool describe_only_ = false;
  AuditProbe* probe_ = nullptr;
};

}  // namespace dpl::algorithms
