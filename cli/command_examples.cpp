// SPDX-License-Identifier: Apache-2.0
#include "cli/command_examples.h"

#include <map>

namespace dpl::cli {

const std::vector<CommandExample>& command_examples(const std::string& command) {
  static const std::map<std::string, std::vector<CommandExample>> examples = {
      {"compose",
       {{"epsilon of DP-SGD (noise 1.1, sampling rate 0.01, 10000 steps) at delta 1e-5, by the RDP accountant",
         "dpledger compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5 --accountant rdp"},
        {"delta at epsilon 2 of two Gaussian mechanisms composed",
         "dpledger compose -m gaussian:sigma=10,steps=1000 -m gaussian:sigma=5,sens=2 --epsilon 2"},
        {"100 pure 0.1-DP steps by advanced composition",
         "dpledger compose -m pure:eps=0.1,steps=100 --delta 1e-5 --accountant advanced"},
        {"an Opacus accountant history from standard input, with the running budget after each entry",
         "echo '[[1.1, 0.01, 1000], [0.8, 0.02, 500]]' | dpledger compose --ledger - --delta 1e-5 --running "
         "--accountant rdp"}}},
      {"rdp",
       {{"the Renyi-DP curve of 1000 subsampled Gaussian steps at three orders",
         "dpledger rdp -m gaussian:sigma=1.1,q=0.01,steps=1000 --orders 1.5,2,10"}}},
      {"calibrate",
       {{"the smallest noise multiplier for epsilon 1 at delta 1e-5 after 100 steps",
         "dpledger calibrate -m gaussian:sigma=?,steps=100 --epsilon 1 --delta 1e-5"},
        {"the largest number of pure 0.1-DP steps within epsilon 5",
         "dpledger calibrate -m pure:eps=0.1,steps=? --epsilon 5 --delta 1e-5"}}},
      {"gamma",
       {{"the exact average-case gamma at one point", "dpledger gamma --omega 1 --beta 2"},
        {"a grid written as CSV and as a heat map",
         "dpledger gamma --omega 0.1:1:4 --beta 2:10:3 --csv gamma.csv --svg gamma.svg"}}},
      {"consensus",
       {{"random against fixed mixing matrices on the figure 3-2 model, as CSV",
         "dpledger consensus --model fig3-2 --edges 40 --csv consensus.csv"}}},
      {"run",
       {{"list the algorithms", "dpledger run --list"},
        {"every parameter of one algorithm, with its default and range", "dpledger run wang-nedic --parameters"},
        {"a run with a seed and one parameter changed",
         "dpledger run dgd-secret-sharing --seed 7 --set sigma=0.2 --set honest=3"}}},
      {"sweep",
       {{"regenerate a paper figure as CSV and SVG (about a minute with 10 seeds)",
         "dpledger sweep cyffers2023-fig1 --seeds 1 --K 20 --csv fig1.csv --svg fig1.svg"}}},
      {"audit",
       {{"audit the Laplace mechanism's claim (PASS; with --set actual_noise_factor=0.5, half the noise, it is a "
         "VIOLATION, exit 3)",
         "dpledger audit laplace:b=1 --runs 100000 --seed 1"},
        {"audit in two shards (on two machines), then merge them",
         "dpledger audit laplace:b=1 --runs 100000 --shard 1/2 --out s1.json && "
         "dpledger audit laplace:b=1 --runs 100000 --shard 2/2 --out s2.json && dpledger audit merge s1.json s2.json"},
        {"audit your own mechanism's outputs on D and D' (one number per line; here Laplace noise of scale 1 on 0 "
         "and on 1, drawn by awk) against its claimed epsilon (PASS at 1; a VIOLATION, exit 3, at 0.5)",
         "awk 'BEGIN{srand(1); for(i=0;i<20000;i++){u=rand()-0.5; print (u<0?1:-1)*log(1-2*(u<0?-u:u))}}' > d.txt && "
         "awk 'BEGIN{srand(2); for(i=0;i<20000;i++){u=rand()-0.5; print 1+(u<0?1:-1)*log(1-2*(u<0?-u:u))}}' > d2.txt && "
         "dpledger audit --samples d.txt --neighbour-samples d2.txt --epsilon 1 --delta 0"}}},
      {"check",
       {{"list the papers' claims without running them", "dpledger check --list"},
        {"check one claim", "dpledger check 000/eq-2.6 --quick"}}},
      {"manpage", {{"read the manual without installing it", "dpledger manpage --out dpledger.1 && man -l dpledger.1"}}},
      {"completion",
       {{"complete commands, options and values in this shell", "source <(dpledger completion bash)"}}},
  };
  static const std::vector<CommandExample> none;
  const auto it = examples.find(command);
  return it == examples.end() ? none : it->second;
}

std::string examples_help_text(const std::string& command) {
  const auto& ex = command_examples(command);
  if (ex.empty()) return "";
  std::string s = "Examples:\n";
  for (const auto& e : ex) s += "  # " + e.what + "\n  " + e.command + "\n";
  return s;
}

}  // namespace dpl::cli
