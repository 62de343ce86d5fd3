// SPDX-License-Identifier: Apache-2.0
// What helps a user find their way: the examples at the end of every command's --help run as written; the man page
// renders without a groff warning; a mistyped command or option names the closest one; the bash completion
// completes values (accountants, algorithms, audit targets, claim ids, mechanism keys); a sample CSV with a header
// line is read by `audit --samples`.
#include "tests/cli/run_binary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using dpl::testing::run_dpledger;

namespace {

namespace fs = std::filesystem;

std::string shell(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  char buf[4096];
  while (p && fgets(buf, sizeof buf, p)) out += buf;
  if (p) pclose(p);
  return out;
}

struct Scratch {
  fs::path dir;
  Scratch() {
    char tmpl[] = "/tmp/dpledger_usability_XXXXXX";
    dir = mkdtemp(tmpl);
  }
  ~Scratch() { fs::remove_all(dir); }
  std::string operator/(const std::string& name) const { return (dir / name).string(); }
};

std::vector<std::string> commands() {
  std::vector<std::string> out;
  std::istringstream help(run_dpledger("--help").out);
  std::string line;
  bool in = false;
  while (std::getline(help, line)) {
    if (line.rfind("Subcommands:", 0) == 0) in = true;
    else if (in && line.size() > 2 && line[0] == ' ' && line[1] == ' ' && line[2] != ' ')
      out.push_back(line.substr(2, line.find(' ', 2) - 2));
  }
  return out;
}

// The example command lines of `dpledger COMMAND --help` (the lines after "Examples:" that start with dpledger or
// a shell command feeding it).
std::vector<std::string> help_examples(const std::string& command) {
  std::vector<std::string> out;
  std::istringstream help(run_dpledger(command + " --help").out);
  std::string line;
  bool in = false;
  while (std::getline(help, line)) {
    if (line == "Examples:") in = true;
    else if (in && line.rfind("  #", 0) != 0 && line.size() > 2) out.push_back(line.substr(2));
  }
  return out;
}

}  // namespace

TEST(HelpExamples, EveryCommandHasExamplesAndEachRunsAsWritten) {
  const Scratch s;
  const std::string bin_dir = fs::path(DPLEDGER_BIN).parent_path().string();
  const auto cmds = commands();
  ASSERT_GE(cmds.size(), 8u);
  int ran = 0;
  for (const auto& c : cmds) {
    const auto examples = help_examples(c);
    EXPECT_FALSE(examples.empty()) << c << " --help shows no example";
    for (const auto& e : examples) {
      // In a scratch folder, with the dpledger under test first on PATH; `man -l` of the manpage example is
      // replaced by a groff render (no pager).
      std::string line = e;
      if (const auto m = line.find("man -l "); m != std::string::npos) line.replace(m, 7, "groff -man -Tutf8 ");
      std::ofstream(s / "example.sh") << line << "\n";
      const std::string cmd = "cd '" + s.dir.string() + "' && PATH='" + bin_dir + "':$PATH bash -o pipefail example.sh" +
                              " >/dev/null 2>" + (s / "err") + "; echo $?";
      const std::string rc = shell(cmd);
      std::ifstream err(s / "err");
      std::stringstream e_text;
      e_text << err.rdbuf();
      EXPECT_EQ(rc, "0\n") << c << ": " << e << "\n" << e_text.str();
      ++ran;
    }
  }
  EXPECT_GE(ran, 15);
}

TEST(HelpExamples, TheManPageShowsThemAndRendersWithoutWarnings) {
  const Scratch s;
  ASSERT_EQ(run_dpledger("manpage --out " + (s / "dpledger.1")).exit_code, 0);
  const std::string man = dpl::testing::read_all(s / "dpledger.1");
  EXPECT_NE(man.find(".EX\ndpledger calibrate \\-m gaussian:sigma=?,steps=100"), std::string::npos);
  // groff's warnings (cannot adjust, can't break line, ...) at the width of a terminal and of a wide one.
  for (const std::string width : {"80", "120"}) {
    const std::string warnings =
        shell("MANWIDTH=" + width + " man --warnings -l '" + (s / "dpledger.1") + "' 2>&1 >/dev/null");
    EXPECT_EQ(warnings, "") << "at width " << width;
  }
}

TEST(DidYouMean, MistypedCommandsAndOptionsNameTheClosest) {
  const auto cmd = run_dpledger("compse -m pure:eps=1");
  EXPECT_EQ(cmd.exit_code, 2);
  EXPECT_NE(cmd.err.find("'compse' is not a command; did you mean compose?"), std::string::npos) << cmd.err;
  const auto opt = run_dpledger("compose -m pure:eps=1 --dleta 1e-5");
  EXPECT_EQ(opt.exit_code, 2);
  EXPECT_NE(opt.err.find("--dleta is not an option; did you mean --delta?"), std::string::npos) << opt.err;
  // A prefix of one option names it; an option of another command is not suggested.
  EXPECT_NE(run_dpledger("calibrate --epsil 1").err.find("did you mean --epsilon?"), std::string::npos);
  // Nothing close: no guess, the list is pointed to.
  const auto far = run_dpledger("frobnicate");
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_EQ(far.err.find("did you mean"), std::string::npos) << far.err;
  EXPECT_NE(far.err.find("dpledger --help lists the commands"), std::string::npos) << far.err;
  // A value that looks like an option (a negative number) is not mistaken for one.
  EXPECT_EQ(run_dpledger("gamma --omega -1 --beta 2").err.find("is not an option"), std::string::npos);
}

TEST(Completion, CompletesValuesOfOptionsAndArguments) {
  const Scratch s;
  const std::string path = s / "dpledger.bash";
  ASSERT_EQ(run_dpledger("completion bash --out " + path).exit_code, 0);
  auto complete = [&](const std::string& words) {
    return shell("bash -c 'source " + path + "; COMP_WORDS=(" + words +
                 "); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); _dpledger; printf \"%s|\" \"${COMPREPLY[@]}\"'");
  };
  // Accountants after --accountant (not file names), in every command that has it.
  EXPECT_EQ(complete("dpledger compose --accountant \"\""), "pure|basic|advanced|optimal|rdp|pld|auto|");
  EXPECT_EQ(complete("dpledger calibrate --accountant r"), "rdp|");
  // Algorithms for run; audit targets (mechanisms, algorithms, merge); claims and papers for check.
  EXPECT_NE(complete("dpledger run wang").find("wang-nedic |"), std::string::npos);
  EXPECT_NE(complete("dpledger audit me").find("merge |"), std::string::npos);
  EXPECT_NE(complete("dpledger audit lap").find("laplace:|"), std::string::npos);
  EXPECT_NE(complete("dpledger check 000/eq-2").find("000/eq-2.6 |"), std::string::npos);
  // After the algorithm, run completes options, not another algorithm.
  EXPECT_EQ(complete("dpledger run wang-nedic wang").find("wang-nedic"), std::string::npos);
  // Mechanism keys after -m NAME:.
  EXPECT_NE(complete("dpledger compose -m gaussian:si").find("gaussian:sigma="), std::string::npos);
  // The value of an option that takes a file: files, not commands.
  std::ofstream(s / "ledger.jsonl") << "\n";
  EXPECT_NE(complete("dpledger compose --ledger " + (s / "led")).find("ledger.jsonl"), std::string::npos);
}

TEST(AuditSamples, ReadsCsvWithAHeaderLine) {
  const Scratch s;
  // pandas' to_csv: a header with an empty name for the index column, then index,value rows; and a plain header.
  {
    std::ofstream d(s / "d.csv"), dp(s / "dp.csv"), plain(s / "plain.csv");
    d << ",output\n";
    dp << ",output\n";
    plain << "output\n";
    for (int i = 0; i < 200; ++i) {
      d << i << "," << i % 10 << "\n";
      dp << i << "," << i % 10 << "\n";
      plain << i % 10 << "\n";
    }
  }
  // (The outputs are the same on D and D': the verdict is inconclusive, exit 4; what matters here is what was read.)
  const auto r = run_dpledger("audit --samples " + (s / "d.csv") + " --neighbour-samples " + (s / "dp.csv") +
                              " --epsilon 1 --delta 0");
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.out.find("'" + std::string(",output") + "' skipped, and its first (index) column"), std::string::npos)
      << r.out;
  // The same outputs with a plain one-column header: the same counts (the index column was dropped, not audited).
  const auto plain = run_dpledger("--json audit --samples " + (s / "plain.csv") + " --neighbour-samples " +
                                  (s / "plain.csv") + " --epsilon 1 --delta 0");
  const auto indexed = run_dpledger("--json audit --samples " + (s / "d.csv") + " --neighbour-samples " +
                                    (s / "dp.csv") + " --epsilon 1 --delta 0");
  EXPECT_EQ(plain.exit_code, 4) << plain.err;
  const auto j_plain = nlohmann::json::parse(plain.out), j_indexed = nlohmann::json::parse(indexed.out);
  for (const char* key : {"epsilon_lower", "event", "counts"}) {
    EXPECT_EQ(j_plain.contains(key), j_indexed.contains(key)) << key;
    if (j_plain.contains(key)) {
      EXPECT_EQ(j_plain.at(key), j_indexed.at(key)) << key;
    }
  }
  EXPECT_TRUE(j_indexed.at("headers").contains(s / "d.csv"));
  EXPECT_FALSE(j_plain.at("headers").at(s / "plain.csv").at("index_column_dropped").get<bool>());
  // A second non-numeric line is an error naming the line, not another header.
  std::ofstream(s / "bad.csv") << "output\n1\nx\n2\n";
  const auto bad = run_dpledger("audit --samples " + (s / "bad.csv") + " --neighbour-samples " + (s / "plain.csv") +
                                " --epsilon 1 --delta 0");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("line 3"), std::string::npos) << bad.err;
}
