// SPDX-License-Identifier: Apache-2.0
// Timings of the PLD accountant: the DP-SGD case (target 0.15 s), a 1,000-entry
// heterogeneous ledger (under 10 s), PLD calibration of sigma for DP-SGD, a target delta of 1e-30,
// and inputs that once took 10-15 s or crashed (each must answer in under 2 s).
#include "accounting/calibration/calibrate.h"
#include "accounting/pld/pld_accountant.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>

namespace {

void BM_DpSgdPld(benchmark::State& state) {
  const dpl::Ledger l{dpl::parse_entry("gaussian:sigma=1.1,q=0.01,steps=10000")};
  for (auto _ : state) benchmark::DoNotOptimize(dpl::compose_pld(l, dpl::Target::for_delta(1e-5)));
}
void BM_Heterogeneous1000(benchmark::State& state) {
  dpl::Ledger l;
  char spec[64];
  for (int i = 0; i < 1000; ++i) {
    std::snprintf(spec, sizeof spec, "gaussian:sigma=%.4f,q=0.01", 1.0 + i * 0.001);
    l.push_back(dpl::parse_entry(spec));
  }
  for (auto _ : state) benchmark::DoNotOptimize(dpl::compose_pld(l, dpl::Target::for_delta(1e-5)));
}
void BM_CalibrateDpSgdPld(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(
        dpl::calibrate({"gaussian:sigma=?,q=0.01,steps=10000"}, 1.0, 1e-5, dpl::AccountantKind::pld, 0));
}

void BM_DpSgdPldDelta(benchmark::State& state) {
  const dpl::Ledger l{dpl::parse_entry("gaussian:sigma=1.1,q=0.01,steps=10000")};
  const double delta = std::pow(10.0, -static_cast<double>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(dpl::compose_pld(l, dpl::Target::for_delta(delta)));
}
void BM_PldSpec(benchmark::State& state, const char* spec, bool given_delta, double target) {
  const dpl::Ledger l{dpl::parse_entry(spec)};
  const auto t = given_delta ? dpl::Target::for_delta(target) : dpl::Target::for_epsilon(target);
  for (auto _ : state) benchmark::DoNotOptimize(dpl::compose_pld(l, t));
}
BENCHMARK_CAPTURE(BM_PldSpec, sigma03_q001_steps1e4, "gaussian:sigma=0.3,q=0.01,steps=10000", true, 1e-5)
    ->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_PldSpec, sigma1_q09_steps1e3, "gaussian:sigma=1,q=0.9,steps=1000", true, 1e-5)
    ->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_PldSpec, pure_eps1e4_steps10, "pure:eps=1e4,steps=10", false, 1.0)
    ->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK(BM_DpSgdPldDelta)->Arg(5)->Arg(10)->Arg(20)->Arg(30)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_DpSgdPld)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_Heterogeneous1000)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_CalibrateDpSgdPld)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_MAIN();
