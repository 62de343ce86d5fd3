// SPDX-License-Identifier: Apache-2.0
// Provenance: every JSON object printed and every file written names the dpledger version (with the commit) and
// the command's arguments, in the file's own syntax; files dpledger writes read back (the provenance line is not a
// ledger entry); `audit merge` refuses shards written by another version.
#include "tests/cli/run_binary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

using dpl::testing::read_all;
using dpl::testing::run_dpledger;

namespace {

namespace fs = std::filesystem;

// A scratch folder the commands write into (relative --out paths, as a user types them).
struct Scratch {
  fs::path dir;
  Scratch() {
    char tmpl[] = "/tmp/dpledger_provenance_XXXXXX";
    dir = mkdtemp(tmpl);
  }
  ~Scratch() { fs::remove_all(dir); }
  std::string operator/(const std::string& name) const { return (dir / name).string(); }
  dpl::testing::RunResult run(const std::string& args) const {
    return run_dpledger("--quiet " + args);  // absolute paths below; the binary runs in the test's folder
  }
};

std::string version() {
  const auto v = run_dpledger("--version");
  return v.out.substr(std::string("dpledger ").size(), v.out.find('\n') - std::string("dpledger ").size());
}

}  // namespace

TEST(Provenance, VersionNamesTheCommitBuilt) {
  EXPECT_TRUE(std::regex_match(version(), std::regex(R"(\d+\.\d+\.\d+ \((commit [0-9a-f]{7,}(-dirty)?|unknown commit)\))")))
      << version();
}

TEST(Provenance, EveryJsonObjectNamesTheVersionAndArguments) {
  for (const std::string args : {"--json compose -m gaussian:sigma=1.1,q=0.01,steps=100 --delta 1e-5",
                                 "--json calibrate -m gaussian:sigma=?,steps=10 --epsilon 1 --delta 1e-5",
                                 "--json gamma --omega 1 --beta 2", "--json --version", "--json check --list"}) {
    const auto r = run_dpledger(args);
    ASSERT_EQ(r.exit_code, 0) << args << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j.at("version"), version()) << args;
    std::string joined;
    for (const auto& a : j.at("arguments")) {
      if (!joined.empty()) joined += ' ';
      joined += a.get<std::string>();
    }
    EXPECT_EQ(joined, args) << args;
  }
}

TEST(Provenance, EveryWrittenFileTypeCarriesIt) {
  const Scratch s;
  const std::string v = version();
  ASSERT_EQ(s.run("gamma --omega 0.1:1:3 --beta 2:4:2 --csv " + (s / "g.csv") + " --svg " + (s / "g.svg")).exit_code, 0);
  ASSERT_EQ(s.run("compose -m gaussian:sigma=1,steps=10 --delta 1e-5 --running --csv " + (s / "c.csv") + " --plot " +
                  (s / "c.svg"))
                .exit_code,
            0);
  ASSERT_EQ(s.run("run dgd-secret-sharing --seed 1 --trace " + (s / "t.jsonl") + " --ledger-out " + (s / "l.jsonl")).exit_code, 0);
  ASSERT_EQ(s.run("audit laplace:b=1 --runs 2000 --shard 1/2 --out " + (s / "s1.json")).exit_code, 0);
  ASSERT_EQ(s.run("check 000/eq-2.6 --quick --report " + (s / "r.md")).exit_code, 0);
  ASSERT_EQ(s.run("manpage --out " + (s / "m.1")).exit_code, 0);
  ASSERT_EQ(s.run("completion bash --out " + (s / "c.bash")).exit_code, 0);

  // Line formats: the first line.
  const std::string comment = "# dpledger " + v + ": dpledger --quiet ";
  EXPECT_EQ(read_all(s / "g.csv").rfind(comment + "gamma --omega 0.1:1:3", 0), 0u) << read_all(s / "g.csv").substr(0, 200);
  EXPECT_EQ(read_all(s / "c.csv").rfind(comment + "compose -m", 0), 0u);
  EXPECT_EQ(read_all(s / "c.bash").rfind(comment + "completion bash", 0), 0u);
  EXPECT_EQ(read_all(s / "m.1").rfind(".\\\" dpledger " + v + ": dpledger --quiet manpage", 0), 0u);
  for (const std::string f : {"t.jsonl", "l.jsonl"}) {
    const std::string text = read_all(s / f);
    const auto first = nlohmann::json::parse(text.substr(0, text.find('\n')));
    EXPECT_EQ(first.at("version"), v) << f;
    EXPECT_EQ(first.at("arguments").at(0), "--quiet") << f;
    EXPECT_EQ(first.size(), 2u) << f;
  }
  // SVG: a <metadata> element right after <svg ...>.
  for (const std::string f : {"g.svg", "c.svg"}) {
    const std::string svg = read_all(s / f);
    EXPECT_TRUE(std::regex_search(svg, std::regex("<svg[^>]*>\\n<metadata>dpledger " + std::regex_replace(v, std::regex(R"([()])"), R"(\$&)") +
                                                  ": dpledger --quiet ")))
        << f << svg.substr(0, 300);
  }
  // The shard: members of its one object.
  const auto shard = nlohmann::json::parse(read_all(s / "s1.json"));
  EXPECT_EQ(shard.at("version"), v);
  EXPECT_EQ(shard.at("arguments").at(1), "audit");
  // The Markdown report: a last line.
  const std::string md = read_all(s / "r.md");
  EXPECT_NE(md.find("\nWritten by dpledger " + v + ": `dpledger --quiet check 000/eq-2.6"), std::string::npos);

  // What dpledger writes, it reads: the ledger with its provenance line composes as the run's own accounting.
  const auto back = run_dpledger("compose --ledger " + (s / "l.jsonl") + " --delta 1e-5");
  EXPECT_EQ(back.exit_code, 0) << back.err;
}

TEST(Provenance, ArgumentsAreQuotedAsAShellReadsThemBack) {
  const Scratch s;
  ASSERT_EQ(s.run("gamma --omega 1:2:2 --beta 2 --csv '" + (s / "a b.csv") + "'").exit_code, 0);
  const std::string first = read_all(s / "a b.csv").substr(0, read_all(s / "a b.csv").find('\n'));
  EXPECT_NE(first.find("--csv '" + (s / "a b.csv") + "'"), std::string::npos) << first;
}

TEST(Provenance, MergeRefusesShardsOfAnotherVersion) {
  const Scratch s;
  for (const std::string k : {"1", "2"})
    ASSERT_EQ(s.run("audit laplace:b=1 --runs 20000 --shard " + k + "/2 --out " + (s / ("s" + k + ".json"))).exit_code, 0);
  const auto same = run_dpledger("audit merge " + (s / "s1.json") + " " + (s / "s2.json"));
  EXPECT_EQ(same.exit_code, 0) << same.err;
  EXPECT_NE(same.out.find("written by dpledger " + version()), std::string::npos) << same.out;

  // The same shard as another build wrote it: refused, both versions named.
  auto j = nlohmann::ordered_json::parse(read_all(s / "s2.json"));
  j["version"] = "0.0.9 (commit 0123456789ab)";
  std::ofstream(s / "s2.json") << j.dump();
  const auto other = run_dpledger("audit merge " + (s / "s1.json") + " " + (s / "s2.json"));
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(other.err.find("0.0.9 (commit 0123456789ab)"), std::string::npos) << other.err;
  EXPECT_NE(other.err.find(version()), std::string::npos) << other.err;

  // A shard that records no version (an older dpledger) is refused too.
  j.erase("version");
  std::ofstream(s / "s2.json") << j.dump();
  const auto none = run_dpledger("audit merge " + (s / "s1.json") + " " + (s / "s2.json"));
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("no dpledger version"), std::string::npos) << none.err;
}
