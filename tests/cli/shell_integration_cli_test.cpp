// SPDX-License-Identifier: Apache-2.0
// The man page and bash completion are generated from the CLI definitions: every command and every long option
// that `--help` shows is in both, and the completion completes commands, options, mechanism names and keys.
#include "tests/cli/run_binary.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <regex>
#include <set>
#include <string>

using dpl::testing::run_dpledger;

namespace {

std::set<std::string> commands() {
  const auto r = run_dpledger("--help");
  std::set<std::string> out;
  bool in = false;
  std::istringstream s(r.out);
  std::string line;
  while (std::getline(s, line)) {
    if (line.rfind("Subcommands:", 0) == 0) { in = true; continue; }
    std::smatch m;
    if (in && std::regex_search(line, m, std::regex("^  ([a-z-]+)"))) out.insert(m[1]);
  }
  return out;
}

std::set<std::string> long_options(const std::string& help) {
  std::set<std::string> out;
  const std::regex re("--[a-z][a-z0-9-]*");
  for (auto it = std::sregex_iterator(help.begin(), help.end(), re); it != std::sregex_iterator(); ++it)
    out.insert(it->str());
  return out;
}

std::string shell(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  char buf[4096];
  while (p && fgets(buf, sizeof buf, p)) out += buf;
  if (p) pclose(p);
  return out;
}

}  // namespace

TEST(ShellIntegration, ManPageListsEveryCommandAndOption) {
  const auto man = run_dpledger("manpage");
  ASSERT_EQ(man.exit_code, 0) << man.err;
  const auto cmds = commands();
  ASSERT_GE(cmds.size(), 6u);
  for (const auto& c : cmds) {
    EXPECT_NE(man.out.find(".SS \"dpledger " + c), std::string::npos) << c;
    const auto help = run_dpledger(c + " --help");
    for (const auto& o : long_options(help.out)) {
      std::string escaped;
      for (char ch : o) escaped += ch == '-' ? std::string("\\-") : std::string(1, ch);
      EXPECT_NE(man.out.find(escaped), std::string::npos) << c << " " << o;
    }
  }
  EXPECT_NE(man.out.find(".SH EXIT STATUS"), std::string::npos);
}

TEST(ShellIntegration, BashCompletionCompletesCommandsOptionsAndMechanisms) {
  const std::string path = "/tmp/dpledger_completion_test.bash";
  ASSERT_EQ(run_dpledger("completion bash --out " + path).exit_code, 0);
  auto complete = [&](const std::string& words) {
    return shell("bash -c 'source " + path + "; COMP_WORDS=(" + words +
                 "); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); _dpledger; echo \"${COMPREPLY[*]}\"'");
  };
  EXPECT_NE(complete("dpledger comp").find("compose"), std::string::npos);
  EXPECT_NE(complete("dpledger compose --acc").find("--accountant"), std::string::npos);
  EXPECT_NE(complete("dpledger calibrate -m lap").find("laplace:"), std::string::npos);
  EXPECT_NE(complete("dpledger compose -m gaussian:sigma=1,st").find("gaussian:sigma=1,steps="), std::string::npos);
  EXPECT_EQ(complete("dpledger compose -m gaussian:bogus").find("bogus="), std::string::npos);
  // Figure names after sweep (by citation; the former short-key names are not offered).
  EXPECT_EQ(complete("dpledger sweep cyf"), "cyffers2023-fig1 \n");  // a complete word ends in a space
  EXPECT_NE(complete("dpledger sweep liu").find("liu2023-fig5"), std::string::npos);
  EXPECT_EQ(complete("dpledger sweep see"), "\n");
  for (const auto& c : commands()) EXPECT_NE(complete("dpledger " + c.substr(0, 2)).find(c), std::string::npos) << c;
  std::remove(path.c_str());
}

TEST(ShellIntegration, VersionNamesTheCommit) {
  const auto r = run_dpledger("--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(dpledger \d+\.\d+\.\d+ \((commit [0-9a-f]{7,}|unknown commit))")))
      << r.out;
}
