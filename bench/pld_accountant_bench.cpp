// Timings of the PLD accountant: the DP-SGD case (issue #4: under 1 s), a 1,000-entry heterogeneous ledger
// (under 10 s), and PLD calibration of sigma for DP-SGD.
#include "accounting/calibration/calibrate.h"
#include "accounting/pld/pld_accountant.h"

#include <benchmark/benchmark.h>

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

}  // namespace

BENCHMARK(BM_DpSgdPld)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_Heterogeneous1000)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_CalibrateDpSgdPld)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_MAIN();
