// SPDX-License-Identifier: Apache-2.0
// The files the command-line fuzz tests hand to dpledger: valid and malformed instances of every format it reads
// (ledger files in all four formats, audit shards, data sets, config files, sample files), nested JSON, numbers
// beyond a double, binary garbage, and a few large files. The small ones are copied into each run's own directory
// (so that a run that writes over one, or leaves a file beside them, is seen); the large ones are shared, read
// only, under absolute paths.
#pragma once

#include "tests/cli/run_binary.h"

#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace dpl::testing {

using FixtureFiles = std::vector<std::pair<std::string, std::string>>;

inline std::string repeat(const std::string& s, int n) {
  std::string out;
  out.reserve(s.size() * static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

// A shard of a real audit (`audit TARGET --runs R --shard i/n --out FILE`), written by the binary itself.
inline std::string real_shard(const std::string& target, int i, int n) {
  char tmpl[] = "/tmp/dpledger_shard_XXXXXX";
  const std::string dir = mkdtemp(tmpl);
  const std::string file = dir + "/s.json";
  const RunResult r = run_dpledger(target + " --runs 2000 --seed 3 --shard " + std::to_string(i) + "/" +
                                   std::to_string(n) + " --out " + file);
  std::string text = r.exit_code == 0 ? read_all(file) : "";
  std::remove(file.c_str());
  rmdir(dir.c_str());
  return text;
}

// `text` with the first occurrence of `from` replaced by `to` (a crafted variant of a valid file).
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

inline FixtureFiles small_fixtures() {
  FixtureFiles f;
  // Ledger files: JSON lines, JSON array, text specs, Opacus history, dp_accounting event trees.
  f.push_back({"ledger.jsonl", "{\"mechanism\":\"gaussian\",\"sigma\":1.1,\"q\":0.01,\"steps\":1000}\n"
                               "{\"mechanism\":\"laplace\",\"b\":2,\"sens\":0.5,\"steps\":3}\n"
                               "{\"mechanism\":\"approx\",\"eps\":1,\"delta\":1e-6,\"q\":0.2,\"sampling\":\"wor\"}\n"});
  f.push_back({"ledger_array.json", "[{\"mechanism\":\"pure\",\"eps\":0.1,\"steps\":20},\n {\"name\":\"rr\",\"eps\":0.5}]"});
  f.push_back({"ledger.txt", "# comment\ngaussian:sigma=2,steps=10\n-m laplace:b=1   # trailing\n\n"});
  f.push_back({"ledger_crlf.txt", "pure:eps=0.2,steps=3\r\ngaussian:sigma=3\r\n"});
  f.push_back({"ledger_bom.jsonl", "\xEF\xBB\xBF{\"mechanism\":\"gaussian\",\"sigma\":2}\n"});
  f.push_back({"opacus.json", "[[1.1, 0.01, 100], [0.8, 0.02, 50]]"});
  f.push_back({"dpevent.json",
               "{\"module_name\":\"dp_accounting.dp_event\",\"class_name\":\"SelfComposedDpEvent\",\"count\":100,"
               "\"event\":{\"class_name\":\"PoissonSampledDpEvent\",\"sampling_probability\":0.01,"
               "\"event\":{\"class_name\":\"GaussianDpEvent\",\"noise_multiplier\":1.2}}}"});
  f.push_back({"dpevent_overflow.json",
               repeat("{\"class_name\":\"SelfComposedDpEvent\",\"count\":1000000000,\"event\":", 5) +
                   "{\"class_name\":\"LaplaceDpEvent\",\"noise_multiplier\":1}" + repeat("}", 5)});
  f.push_back({"dpevent_unknown.json", "{\"class_name\":\"NonPrivateDpEvent\"}"});
  f.push_back({"bad_truncated.json", "[{\"mechanism\":\"gaussian\",\"sigma\":1"});
  f.push_back({"bad_nan.jsonl", "{\"mechanism\":\"gaussian\",\"sigma\":NaN}\n"});
  f.push_back({"bad_1e400.jsonl", "{\"mechanism\":\"gaussian\",\"sigma\":1e400}\n"});
  f.push_back({"bad_tiny.jsonl", "{\"mechanism\":\"laplace\",\"b\":4.9e-324}\n"});
  f.push_back({"bad_null.jsonl", "{\"mechanism\":\"gaussian\",\"sigma\":null,\"steps\":-3}\n"});
  f.push_back({"bad_types.jsonl", "{\"mechanism\":5,\"sigma\":\"x\",\"q\":[1]}\n"});
  f.push_back({"bad_steps.jsonl", "{\"mechanism\":\"pure\",\"eps\":1,\"steps\":1e300}\n"});
  f.push_back({"nested_array.json", repeat("[", 5000) + repeat("]", 5000)});
  f.push_back({"nested_object.json", repeat("{\"a\":", 3000) + "1" + repeat("}", 3000)});
  f.push_back({"nested_event.json", repeat("{\"class_name\":\"ComposedDpEvent\",\"events\":[", 150) +
                                        "{\"class_name\":\"GaussianDpEvent\",\"noise_multiplier\":2}" + repeat("]}", 150)});
  f.push_back({"binary.bin", std::string("\x00\x01\xff\xfe{[\"\\\x80\x81\n\x00", 12) + repeat("\xc3\x28", 50)});
  f.push_back({"empty.txt", ""});
  f.push_back({"many_entries.txt", repeat("pure:eps=0.001,steps=2\n", 3000)});
  // Audit shards: a real pair, and crafted variants of it.
  const std::string s1 = real_shard("audit laplace:b=1", 1, 2), s2 = real_shard("audit laplace:b=1", 2, 2);
  f.push_back({"shard1.json", s1});
  f.push_back({"shard2.json", s2});
  f.push_back({"shardg1.json", real_shard("audit gaussian:sigma=2", 1, 1)});
  f.push_back({"shard_runs_negative.json", replaced(s1, "\"runs\":2000", "\"runs\":-4000")});
  f.push_back({"shard_runs_fraction.json", replaced(s1, "\"runs\":2000", "\"runs\":4000.5")});
  f.push_back({"shard_runs_huge.json", replaced(s1, "\"runs\":2000", "\"runs\":18446744073709551615")});
  f.push_back({"shard_count_huge.json", replaced(s1, "\"shards\":2", "\"shards\":20000000000")});
  f.push_back({"shard_count_float.json", replaced(s1, "\"shards\":2", "\"shards\":2e10")});
  f.push_back({"shard_index_zero.json", replaced(s1, "\"shard\":1", "\"shard\":0")});
  f.push_back({"shard_counts_big.json", replaced(s1, "[0,", "[99999999999999,")});
  f.push_back({"shard_thresholds.json", replaced(s1, "\"thresholds\":[", "\"thresholds\":[1e308,")});
  f.push_back({"shard_target.json", replaced(s1, "laplace:b=1", "laplace:b=1e-300")});
  f.push_back({"shard_target2.json", replaced(s1, "laplace:b=1", "laplace:b=1e6")});
  f.push_back({"shard_confidence.json", replaced(s1, "\"confidence\":0.95", "\"confidence\":1.5")});
  f.push_back({"shard_format.json", replaced(s1, "dpledger-audit-shard-1", "other")});
  f.push_back({"shard_truncated.json", s1.substr(0, s1.size() / 2)});
  // Data sets (a label in the last column) and LibSVM files.
  std::string csv = "x1,x2,x3,label\n";
  for (int i = 0; i < 40; ++i)
    csv += std::to_string(i % 7 * 0.1) + "," + std::to_string(i % 5 - 2) + "," + std::to_string(i * 0.01) + "," +
           std::to_string(i % 2) + "\n";
  f.push_back({"data.csv", csv});
  f.push_back({"data_ragged.csv", "1,2,3\n4,5\n"});
  f.push_back({"data_header_only.csv", "a,b,c\n"});
  f.push_back({"data_nonnumeric.csv", "1,2,0\n3,x,1\n"});
  f.push_back({"data_inf.csv", "1,2,0\n3,1e400,1\n"});
  f.push_back({"data_one_class.csv", "1,2,1\n3,4,1\n5,6,1\n"});
  f.push_back({"data.svm", "1 1:0.5 3:1\n0 2:1.5\n1 1:0.1 2:0.2 3:0.3\n0 3:2\n"});
  f.push_back({"data_bad.svm", "1 3:0.5 1:1\n"});
  f.push_back({"data_wide.svm", "1 100000000:1\n0 1:1\n"});
  // Config files for `run --config`.
  f.push_back({"run.cfg", "# a run\nK = 5\nagents = 3\n"});
  f.push_back({"run_bad.cfg", "nonsense line\n"});
  f.push_back({"run_huge.cfg", "K = 99999999999999999999\nT = 1e9\n"});
  // Sample files for `audit --samples`.
  std::string d, dp;
  for (int i = 0; i < 400; ++i) {
    d += std::to_string((i * 37 % 101) / 25.0 - 2) + "\n";
    dp += std::to_string((i * 53 % 103) / 25.0 - 1) + "\n";
  }
  f.push_back({"samples_d.txt", d});
  f.push_back({"samples_dp.txt", dp});
  f.push_back({"samples_vec.csv", "1,2\n3,4\n5,6\n7,8\n"});
  f.push_back({"samples_bad.txt", "1\n2\nthree\n"});
  // An existing file that an output option may name: it must be replaced whole or left as it is.
  f.push_back({"existing.csv", "this file existed before\n"});
  return f;
}

// Large files, made once and shared read only (absolute paths): dpledger must refuse or handle them within its
// limits.
struct LargeFixtures {
  std::string dir;
  LargeFixtures() {
    char tmpl[] = "/tmp/dpledger_fuzz_large_XXXXXX";
    dir = mkdtemp(tmpl);
    {
      std::ofstream f(dir + "/distinct_100k.jsonl");
      for (int i = 0; i < 100000; ++i) f << "{\"mechanism\":\"gaussian\",\"sigma\":" << 1 + i * 1e-6 << "}\n";
    }
    {
      std::ofstream f(dir + "/subsampled_300.jsonl");
      for (int i = 0; i < 300; ++i) f << "{\"mechanism\":\"gaussian\",\"sigma\":" << 1 + i * 1e-3 << ",\"q\":0.01}\n";
    }
    {
      std::ofstream f(dir + "/subsampled_3000.jsonl");  // near-identical but distinct
      f.precision(17);
      for (int i = 0; i < 3000; ++i) f << "{\"mechanism\":\"gaussian\",\"sigma\":" << 1 + i * 1e-9 << ",\"q\":0.01}\n";
    }
    {
      std::ofstream f(dir + "/gaussians_1000.jsonl");
      for (int i = 0; i < 1000; ++i) f << "{\"mechanism\":\"gaussian\",\"sigma\":" << 1 + i * 1e-3 << "}\n";
    }
    {
      std::ofstream f(dir + "/pure_4000.jsonl");
      for (int i = 0; i < 4000; ++i) f << "{\"mechanism\":\"pure\",\"eps\":" << 0.001 + i * 1e-6 << "}\n";
    }
    {
      std::ofstream f(dir + "/huge_line.csv");
      f << repeat("1,", 1500000) << "1\n";
    }
    {
      std::ofstream f(dir + "/nested_1m.json");
      f << repeat("[", 1000000) << repeat("]", 1000000);
    }
  }
  ~LargeFixtures() {
    for (const char* n : {"distinct_100k.jsonl", "subsampled_300.jsonl", "huge_line.csv", "nested_1m.json",
                          "subsampled_3000.jsonl", "gaussians_1000.jsonl", "pure_4000.jsonl"})
      std::remove((dir + "/" + n).c_str());
    rmdir(dir.c_str());
  }
  LargeFixtures(const LargeFixtures&) = delete;
  LargeFixtures& operator=(const LargeFixtures&) = delete;
  std::string at(const std::string& name) const { return dir + "/" + name; }
  // The files the generators draw from (the others serve the review's inputs).
  std::vector<std::string> files() const {
    return {dir + "/distinct_100k.jsonl", dir + "/subsampled_300.jsonl", dir + "/huge_line.csv", dir + "/nested_1m.json"};
  }
};

}  // namespace dpl::testing
