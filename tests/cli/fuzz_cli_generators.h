// SPDX-License-Identifier: Apache-2.0
// RapidCheck generators of dpledger command lines for the robustness fuzz tests: every command and its options,
// values at the edges of double (subnormals, the largest double, overflow, NaN, inf, hex, signs, junk), integers
// at the edges of 64 bits, huge counts and sizes, mechanism specs valid and malformed, every fixture file
// (tests/cli/fuzz_fixtures.h), and output files that cannot be written. A case is an argument vector; every case
// carries `--time-limit` (so that the whole run of thousands of cases fits in CI; the contract is checked
// against that limit).
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace dpl::testing::fuzz {

using Args = std::vector<std::string>;

inline rc::Gen<std::string> text(std::vector<std::string> v) { return rc::gen::elementOf(std::move(v)); }

inline std::string g17(double x) {
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", x);
  return b;
}
inline std::string g4(double x) {
  char b[40];
  std::snprintf(b, sizeof b, "%.4g", x);
  return b;
}

// A real number as typed: edges of double, ordinary magnitudes, and text that is not a finite number.
inline rc::Gen<std::string> real_text() {
  return rc::gen::weightedOneOf<std::string>(
      {{12, text({"1", "2", "0.5", "0.1", "1.1", "3", "10", "100", "1e-3", "0.8", "1.5", "5", "0.3", "20", "1e3"})},
       {2, text({"0", "-0", "-1", "-0.5", "1e-5", "1e6", "1e-12", "0.999999", "1.0000001"})},
       {3, rc::gen::map(rc::gen::inRange(-300, 301), [](int e) { return g4(std::pow(10.0, e / 10.0)); })},
       {1, rc::gen::map(rc::gen::inRange(-3080, 3081), [](int e) { return g17(std::pow(10.0, e / 10.0)); })},
       {1, text({"4.9e-324", "2.2250738585072014e-308", "2.2250738585072009e-308", "1.7976931348623157e308", "1e308",
                 "1e-300", "1e300", "1e309", "-1e309", "1e-400", "nan", "NaN", "inf", "-inf", "infinity", "0x1p-1074",
                 "0x10", "1e", "e5", ".", "+", "--1", "1..2", "1,5", " 1", "1 ", "", "abc", "1e+", "0.1e-5000",
                 "99999999999999999999999", "1_000", "١"})}});
}

inline rc::Gen<std::string> probability_text() {
  return rc::gen::weightedOneOf<std::string>(
      {{8, text({"1e-5", "1e-6", "1e-9", "0.01", "0.1", "0.5", "0.001"})},
       {2, text({"1e-12", "0.9", "1e-30", "1e-100", "1e-300", "0", "0.999999", "1"})},
       {1, real_text()}});
}

// An integer as typed: edges of 64 bits, huge counts, and text that is not an integer.
inline rc::Gen<std::string> integer_text() {
  return rc::gen::weightedOneOf<std::string>(
      {{8, text({"0", "1", "2", "3", "5", "10", "50", "100", "1000", "20000"})},
       {1, text({"-1", "1000000", "1e6", "1e9", "1e15", "1.5", "+5", "2147483648", "4294967296", "9223372036854775807",
                 "9223372036854775808", "18446744073709551615", "18446744073709551616", "-9223372036854775809",
                 "0x10", "", "x", "1e400", "99999999999999999999999999"})}});
}

// A mechanism spec for -m (valid most of the time; steps, q and sampling modifiers; malformed ones too).
inline rc::Gen<std::string> spec_text(bool allow_unknown = false) {
  auto value = rc::gen::weightedOneOf<std::string>({{4, real_text()}, {1, text({"?"})}});
  auto kv = [=](std::string k) { return rc::gen::map(allow_unknown ? value : real_text(), [k](std::string v) { return k + "=" + v; }); };
  auto modifiers = rc::gen::exec([=] {
    std::string s;
    if (*rc::gen::inRange(0, 2))
      s += ",steps=" + *rc::gen::weightedOneOf<std::string>(
                           {{6, text({"1", "10", "100", "1000", "10000", "1e6"})}, {2, integer_text()},
                            {1, allow_unknown ? text({"?"}) : integer_text()}});
    if (*rc::gen::inRange(0, 3) == 0) s += ",q=" + *rc::gen::weightedOneOf<std::string>({{4, probability_text()}, {1, real_text()}});
    if (*rc::gen::inRange(0, 5) == 0) s += ",sampling=" + *text({"poisson", "wor", "none", "x"});
    return s;
  });
  return rc::gen::weightedOneOf<std::string>(
      {{6, rc::gen::exec([=] { return "gaussian:" + *kv("sigma") + (*rc::gen::inRange(0, 3) == 0 ? "," + *kv("sens") : "") + *modifiers; })},
       {4, rc::gen::exec([=] { return "laplace:" + *kv("b") + (*rc::gen::inRange(0, 3) == 0 ? "," + *kv("sens") : "") + *modifiers; })},
       {1, rc::gen::exec([=] { return "rr:" + *kv("eps") + *modifiers; })},
       {3, rc::gen::exec([=] { return "pure:" + *kv("eps") + *modifiers; })},
       {2, rc::gen::exec([=] { return "approx:" + *kv("eps") + "," + *kv("delta") + *modifiers; })},
       {1, rc::gen::exec([=] {
          return "iteration:" + *kv("sigma") + "," + *kv("sens") + (*rc::gen::inRange(0, 4) ? ",steps=" + *integer_text() : "") +
                 (*rc::gen::inRange(0, 2) ? ",index=" + *integer_text() : "") + (*rc::gen::inRange(0, 2) ? "," + *kv("contraction") : "");
        })},
       {1, text({"gaussian", "gaussian:", "gaussian:sigma", "gaussian:sigma=", "gaussian:sigma=1,sigma=2",
                 "gaussian:sigma=1,,steps=2", "unknown:x=1", ":", "gaussian:sigma=1,foo=2", "laplace:b=?,sens=?",
                 "gaussian:sigma=1,q=0.5,sampling=wor,sampling=wor", "pure:eps=1e308,steps=9223372036854775807"})}});
}

inline rc::Gen<std::string> ledger_file(const std::vector<std::string>& large) {
  return rc::gen::weightedOneOf<std::string>(
      {{6, text({"ledger.jsonl", "ledger_array.json", "ledger.txt", "ledger_crlf.txt", "ledger_bom.jsonl", "opacus.json",
                 "dpevent.json", "many_entries.txt"})},
       {3, text({"dpevent_overflow.json", "dpevent_unknown.json", "bad_truncated.json", "bad_nan.jsonl",
                 "bad_1e400.jsonl", "bad_tiny.jsonl", "bad_null.jsonl", "bad_types.jsonl", "bad_steps.jsonl",
                 "nested_array.json", "nested_object.json", "nested_event.json", "binary.bin", "empty.txt",
                 "shard1.json", "data.csv", "/dev/null", "/dev/zero", ".", "missing.jsonl", "-"})},
       {1, text(large)}});
}

// An output file: mostly writable names in the run's directory, sometimes one that cannot be written.
inline rc::Gen<std::string> output_file(const std::string& ext) {
  return rc::gen::weightedOneOf<std::string>(
      {{8, text({"out" + ext, "out2" + ext, "sub_out" + ext})},
       {1, text({"existing.csv", "/proc/x" + ext, "missing_dir/x" + ext, ".", "", "/dev/null", "out.txt"})}});
}

inline void add(Args& a, std::initializer_list<std::string> more) { a.insert(a.end(), more); }

inline rc::Gen<Args> ledger_args(const std::vector<std::string>& large, bool allow_unknown) {
  return rc::gen::exec([=] {
    Args a;
    const int specs = *rc::gen::weightedOneOf<int>({{1, rc::gen::just(0)}, {6, rc::gen::just(1)}, {3, rc::gen::inRange(2, 4)}});
    for (int i = 0; i < specs; ++i) add(a, {"-m", *spec_text(allow_unknown)});
    if (specs == 0 || *rc::gen::inRange(0, 5) == 0) add(a, {"--ledger", *ledger_file(large)});
    return a;
  });
}

inline rc::Gen<std::string> accountant_text() {
  return text({"auto", "auto", "pure", "basic", "advanced", "optimal", "rdp", "pld", "x"});
}

inline rc::Gen<Args> compose_args(const std::vector<std::string>& large) {
  return rc::gen::exec([=] {
    Args a = {"compose"};
    const Args l = *ledger_args(large, false);
    a.insert(a.end(), l.begin(), l.end());
    if (*rc::gen::inRange(0, 10) < 6) add(a, {"--delta", *probability_text()});
    else add(a, {"--epsilon", *real_text()});
    if (*rc::gen::inRange(0, 2)) add(a, {"--accountant", *accountant_text()});
    if (*rc::gen::inRange(0, 5) == 0) {
      a.push_back("--running");
      if (*rc::gen::inRange(0, 3) == 0) add(a, {"--every", *integer_text()});
      if (*rc::gen::inRange(0, 2)) add(a, {"--csv", *output_file(".csv")});
      if (*rc::gen::inRange(0, 2)) add(a, {"--plot", *output_file(".svg")});
    }
    if (*rc::gen::inRange(0, 12) == 0) add(a, {"--curve", *output_file(".svg")});
    return a;
  });
}

inline rc::Gen<Args> rdp_args(const std::vector<std::string>& large) {
  return rc::gen::exec([=] {
    Args a = {"rdp"};
    const Args l = *ledger_args(large, false);
    a.insert(a.end(), l.begin(), l.end());
    if (*rc::gen::inRange(0, 2))
      add(a, {"--orders", *rc::gen::weightedOneOf<std::string>(
                              {{3, text({"2", "1.5,2,32", "inf", "1e7", "4096", "4097", "1.000001", "2,inf,3"})},
                               {1, real_text()},
                               {1, text({"", ",", "2,,3", "1", "0.5", "1e8", "2,nan"})}})});
    if (*rc::gen::inRange(0, 6) == 0) add(a, {"--plot", *output_file(".svg")});
    return a;
  });
}

inline rc::Gen<Args> calibrate_args(const std::vector<std::string>& large) {
  return rc::gen::exec([=] {
    Args a = {"calibrate"};
    add(a, {"-m", *rc::gen::weightedOneOf<std::string>(
                      {{4, text({"gaussian:sigma=?", "gaussian:sigma=?,q=0.01,steps=1000", "laplace:b=?,steps=10",
                                 "pure:eps=?,steps=100", "gaussian:sigma=1,steps=?", "gaussian:sigma=1.1,q=?,steps=100",
                                 "pure:eps=0.1,q=?", "approx:eps=?,delta=1e-7", "iteration:sigma=?,sens=1,steps=10",
                                 "laplace:b=?,q=0.5,sampling=wor"})},
                       {2, spec_text(true)}})});
    if (*rc::gen::inRange(0, 3) == 0) {
      const Args l = *ledger_args(large, false);
      a.insert(a.end(), l.begin(), l.end());
    }
    add(a, {"--epsilon", *real_text(), "--delta", *probability_text()});
    if (*rc::gen::inRange(0, 3) == 0) add(a, {"--accountant", *accountant_text()});
    if (*rc::gen::inRange(0, 6) == 0) add(a, {"--tolerance", *real_text()});
    return a;
  });
}

inline rc::Gen<Args> gamma_args() {
  auto axis = rc::gen::weightedOneOf<std::string>(
      {{3, real_text()},
       {2, rc::gen::exec([] { return *real_text() + ":" + *real_text() + ":" + *integer_text(); })},
       {1, text({"1:2", "1:2:3:4", "0.1:1:10", "1e-300:1e300:20", ":", "1:2:1e9"})}});
  return rc::gen::exec([=] {
    Args a = {"gamma", "--omega", *axis, "--beta", *axis};
    if (*rc::gen::inRange(0, 3)) add(a, {"--shift", *real_text()});
    if (*rc::gen::inRange(0, 4) == 0) add(a, {"--csv", *output_file(".csv")});
    if (*rc::gen::inRange(0, 4) == 0) add(a, {"--svg", *output_file(".svg")});
    return a;
  });
}

inline const std::vector<std::string>& algorithms() {
  static const std::vector<std::string> a = {
      "dgd-secret-sharing", "admm-random-aggregation", "dsgd-random-aggregation", "dsgd-random-aggregation-minmax",
      "wang-nedic", "admm", "radmm", "private-radmm", "dvp-admm", "dda", "dp-dda-node-sampling", "dp-sgd", "dp-cd",
      "admm-centralized", "admm-federated", "admm-decentralized", "admm-lasso"};
  return a;
}

inline rc::Gen<std::string> run_assignment(const std::vector<std::string>& large) {
  const std::vector<std::string> keys = {
      "K", "T", "eta", "sigma", "delta", "honest", "frac_bits", "noise", "domain", "data", "agents", "per_agent",
      "graph", "edges", "loss", "l2", "l1", "huber_delta", "synthetic_rows", "synthetic_dim", "D", "zeta", "beta0",
      "growth", "random_weights", "dual_sign", "target", "b_inf", "average_case", "gamma", "loss_precision", "eta0",
      "eta_decay", "scaling", "output", "lambda_form", "lambda_a", "lambda_c", "k0", "C", "clip", "baseline",
      "trace_every", "audit", "audit_agent", "x0_scale", "newton_tol", "alpha", "alpha_growth", "alpha_match", "phi",
      "a", "gamma_rule", "gamma0", "batch", "activation", "sampled", "epsilon", "delta0", "constant", "radius", "rows",
      "dim", "test_rows", "sampling", "q", "accountant", "audit_record", "account", "coordinates", "m", "unknown_key"};
  std::vector<std::string> words = {"on", "off", "true", "false", "random", "complete", "ring", "erdos-renyi",
                                    "logistic", "hinge", "squared", "huber", "poisson", "fixed", "cyclic", "rdp", "pld",
                                    "auto", "exact", "bound", "printed", "corrected", "synthetic", "breast_cancer",
                                    "data.csv", "data.svm", "data_ragged.csv", "data_wide.svm", "data_inf.csv",
                                    "data_one_class.csv", "data_bad.svm", "missing.csv", "/dev/zero", "t", "1", "one",
                                    "full", "edges", "nodes", "all", "last", "ergodic"};
  for (const auto& f : large) words.push_back(f);
  return rc::gen::exec([=] {
    const std::string k = *text(keys);
    const std::string v = *rc::gen::weightedOneOf<std::string>({{2, integer_text()}, {2, real_text()}, {2, text(words)}});
    return *rc::gen::inRange(0, 40) == 0 ? k : k + "=" + v;  // sometimes no '='
  });
}

inline rc::Gen<Args> run_args(const std::vector<std::string>& large) {
  return rc::gen::exec([=] {
    Args a = {"run"};
    const int kind = *rc::gen::inRange(0, 20);
    if (kind == 0) return Args{"run", "--list"};
    a.push_back(kind == 1 ? *text({"unknown-algorithm", "", "--bogus"}) : *text(algorithms()));
    const int sets = *rc::gen::inRange(0, 4);
    for (int i = 0; i < sets; ++i) add(a, {"--set", *run_assignment(large)});
    if (*rc::gen::inRange(0, 8) == 0) add(a, {"--seed", *integer_text()});
    if (*rc::gen::inRange(0, 8) == 0) a.push_back("--parameters");
    if (*rc::gen::inRange(0, 10) == 0) add(a, {"--config", *text({"run.cfg", "run_bad.cfg", "run_huge.cfg", "/dev/zero", ".", "missing.cfg"})});
    if (*rc::gen::inRange(0, 8) == 0) add(a, {"--trace", *rc::gen::weightedOneOf<std::string>({{3, output_file(".csv")}, {1, output_file(".jsonl")}})});
    if (*rc::gen::inRange(0, 10) == 0) add(a, {"--ledger-out", *output_file(".jsonl")});
    if (*rc::gen::inRange(0, 10) == 0) add(a, {"--plot", *output_file(".svg")});
    return a;
  });
}

inline rc::Gen<Args> audit_args() {
  auto mechanism = rc::gen::exec([] {
    const bool laplace = *rc::gen::inRange(0, 2);
    return std::string(laplace ? "laplace:b=" : "gaussian:sigma=") +
           *rc::gen::weightedOneOf<std::string>({{4, text({"1", "2", "0.5", "10", "100", "1e-3", "1e3", "999", "1001"})}, {1, real_text()}}) +
           (*rc::gen::inRange(0, 4) == 0 ? ",sens=" + *real_text() : "") +
           (*rc::gen::inRange(0, 10) == 0 ? ",steps=2" : "");
  });
  return rc::gen::exec([=] {
    Args a = {"audit"};
    const int kind = *rc::gen::inRange(0, 10);
    if (kind < 5) {  // a mechanism target
      a.push_back(*mechanism);
      add(a, {"--runs", *rc::gen::weightedOneOf<std::string>({{4, text({"1000", "2000", "100000", "1e6", "2", "10"})}, {1, integer_text()}, {1, real_text()}})});
      if (*rc::gen::inRange(0, 4) == 0) add(a, {"--delta", *probability_text()});
      if (*rc::gen::inRange(0, 5) == 0) add(a, {"--confidence", *probability_text()});
      if (*rc::gen::inRange(0, 5) == 0) add(a, {"--tolerance", *real_text()});
      if (*rc::gen::inRange(0, 5) == 0) add(a, {"--set", "actual_noise_factor=" + *real_text()});
      if (*rc::gen::inRange(0, 5) == 0) add(a, {"--threads", *integer_text()});
      if (*rc::gen::inRange(0, 5) == 0) add(a, {"--seed", *integer_text()});
      if (*rc::gen::inRange(0, 5) == 0) add(a, {"--shard", *text({"1/2", "2/2", "1/1", "0/1", "3/2", "1/1000000", "1/1000001", "a/b", "1/"}), "--out", *output_file(".json")});
      if (*rc::gen::inRange(0, 6) == 0) add(a, {"--plot", *output_file(".svg")});
    } else if (kind < 7) {  // merge
      add(a, {"merge"});
      const std::vector<std::string> shards = {"shard1.json", "shard2.json", "shardg1.json", "shard_runs_negative.json",
                                               "shard_runs_fraction.json", "shard_runs_huge.json", "shard_count_huge.json",
                                               "shard_count_float.json", "shard_index_zero.json", "shard_counts_big.json",
                                               "shard_thresholds.json", "shard_target.json", "shard_target2.json",
                                               "shard_confidence.json", "shard_format.json", "shard_truncated.json",
                                               "nested_array.json", "binary.bin", "/dev/zero", ".", "missing.json"};
      const int n = *rc::gen::inRange(0, 4);
      if (*rc::gen::inRange(0, 2)) add(a, {"shard1.json", "shard2.json"});
      for (int i = 0; i < n; ++i) a.push_back(*text(shards));
      if (*rc::gen::inRange(0, 6) == 0) add(a, {"--plot", *output_file(".svg")});
    } else if (kind < 8) {  // the user's samples
      add(a, {"--samples", *text({"samples_d.txt", "samples_vec.csv", "samples_bad.txt", "empty.txt", "binary.bin", "/dev/zero", "."}),
              "--neighbour-samples", *text({"samples_dp.txt", "samples_vec.csv", "samples_d.txt", "missing.txt"})});
      if (*rc::gen::inRange(0, 4)) add(a, {"--epsilon", *real_text()});
      if (*rc::gen::inRange(0, 4) == 0) add(a, {"--mu", *real_text()});
      if (*rc::gen::inRange(0, 4) == 0) add(a, {"--delta", *probability_text()});
      if (*rc::gen::inRange(0, 4) == 0) add(a, {"--projection", *text({"coord:1", "coord:2", "coord:0", "weights:1,1", "weights:0,0", "x"})});
      if (*rc::gen::inRange(0, 6) == 0) add(a, {"--plot", *output_file(".svg")});
    } else {  // an algorithm (white-box)
      a.push_back(*text({"admm-random-aggregation", "dsgd-random-aggregation", "dsgd-random-aggregation-minmax", "wang-nedic", "dp-sgd", "admm", "unknown"}));
      add(a, {"--runs", *text({"1", "2", "3", "5", "0", "-1", "1.5", "1000001"})});
      if (*rc::gen::inRange(0, 3) == 0) add(a, {"--set", *text({"K=3", "K=1", "agents=2", "sigma=0", "eta_decay=1", "noise=off", "unknown=1", "actual_noise_factor=0.5", "K=100000"})});
      if (*rc::gen::inRange(0, 6) == 0) add(a, {"--plot", *output_file(".svg")});
    }
    return a;
  });
}

inline rc::Gen<Args> check_args() {
  return rc::gen::exec([] {
    Args a = {"check"};
    const int n = *rc::gen::inRange(0, 3);
    for (int i = 0; i < n; ++i)
      a.push_back(*text({"000", "001", "002", "003", "004", "000/eq-2.6", "004/lemma-1", "001/thm-2", "003/thm-4",
                         "002/thm-IV.1", "004/thm-1", "999", "000/none", ""}));
    if (*rc::gen::inRange(0, 6)) a.push_back("--quick");
    if (*rc::gen::inRange(0, 8) == 0) a.push_back("--list");
    if (*rc::gen::inRange(0, 3) == 0)
      add(a, {"--set", *text({"bound_raise", "constant", "factor", "phi", "sensitivity_factor", "sigma_factor",
                              "sqrt_factor", "worst_case_factor", "unknown", ""}) + "=" + *real_text()});
    if (*rc::gen::inRange(0, 6) == 0) add(a, {"--seed", *integer_text()});
    if (*rc::gen::inRange(0, 6) == 0) add(a, {"--report", *output_file(".md")});
    return a;
  });
}

inline rc::Gen<Args> consensus_args() {
  return rc::gen::exec([] {
    Args a = {"consensus"};
    if (*rc::gen::inRange(0, 3) == 0) add(a, {"--model", *text({"fig3-1", "fig3-2", "x"})});
    if (*rc::gen::inRange(0, 2)) add(a, {"--graph", *text({"complete", "ring", "random", "erdos-renyi", "star"})});
    if (*rc::gen::inRange(0, 2)) add(a, {"--agents", *rc::gen::weightedOneOf<std::string>({{3, text({"2", "5", "10", "50", "100", "1000"})}, {1, integer_text()}})});
    if (*rc::gen::inRange(0, 2)) add(a, {"--edges", *rc::gen::weightedOneOf<std::string>({{3, text({"1", "5", "20", "999", "4950", "499500"})}, {1, integer_text()}})});
    if (*rc::gen::inRange(0, 3) == 0) add(a, {"--K", *integer_text()});
    if (*rc::gen::inRange(0, 3) == 0) add(a, {"--draws", *integer_text()});
    if (*rc::gen::inRange(0, 4) == 0) add(a, {"--seed", *integer_text()});
    if (*rc::gen::inRange(0, 4) == 0) add(a, {"--csv", *output_file(".csv")});
    return a;
  });
}

inline rc::Gen<Args> sweep_args() {
  return rc::gen::exec([] {
    Args a = {"sweep"};
    if (*rc::gen::inRange(0, 5) == 0) a.push_back(*text({"cyffers2023-fig1", "other"}));
    add(a, {"--seeds", *text({"1", "2", "0", "101", "100", "x"}), "--K", *text({"1", "5", "20", "0", "100000", "1e3"})});
    if (*rc::gen::inRange(0, 3) == 0) add(a, {"--csv", *output_file(".csv")});
    if (*rc::gen::inRange(0, 3) == 0) add(a, {"--svg", *output_file(".svg")});
    return a;
  });
}

inline rc::Gen<Args> misc_args() {
  return rc::gen::elementOf(std::vector<Args>{{"--version"}, {"--help"}, {"compose", "--help"}, {"audit", "--help"},
                                              {"manpage", "--out", "out.1"}, {"manpage", "--out", "/proc/x.1"},
                                              {"completion", "bash", "--out", "out.sh"}, {"completion", "zsh"},
                                              {"nosuchcommand"}, {}, {"compose"}, {"--bogus"}, {"compose", "--delta"},
                                              {"--json"}});
}

// Any command line, with `--time-limit` (the CPU time the contract is checked against) and sometimes --json,
// --quiet or a memory limit.
inline rc::Gen<Args> any_command(const std::vector<std::string>& large, const std::string& time_limit) {
  return rc::gen::exec([=] {
    Args cmd = *rc::gen::weightedOneOf<Args>({{12, compose_args(large)},
                                              {5, rdp_args(large)},
                                              {6, calibrate_args(large)},
                                              {4, gamma_args()},
                                              {8, run_args(large)},
                                              {8, audit_args()},
                                              {3, check_args()},
                                              {3, consensus_args()},
                                              {1, sweep_args()},
                                              {1, misc_args()}});
    Args a = {"--time-limit", time_limit};
    if (*rc::gen::inRange(0, 2)) {
      if (*rc::gen::inRange(0, 2)) a.push_back("--json");
      else cmd.push_back("--json");
    }
    if (*rc::gen::inRange(0, 10) == 0) a.push_back("--quiet");
    if (*rc::gen::inRange(0, 30) == 0) add(a, {"--memory-limit", *text({"100", "1e9", "0", "-5", "x"})});
    a.insert(a.end(), cmd.begin(), cmd.end());
    return a;
  });
}

// `count` cases drawn from `gen` with a fixed seed (reproducible in CI).
inline std::vector<Args> sample_cases(const rc::Gen<Args>& gen, std::uint64_t seed, int count) {
  std::vector<Args> out;
  rc::Random random(seed);
  for (int i = 0; i < count; ++i) out.push_back(gen(random.split(), 50 + i % 50).value());
  return out;
}

}  // namespace dpl::testing::fuzz
