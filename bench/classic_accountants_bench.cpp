// SPDX-License-Identifier: Apache-2.0
// Timings of the classic accountants and calibration (the speed claims of the README live here).
#include "accounting/calibration/calibrate.h"
#include "accounting/composition/compose.h"

#include <benchmark/benchmark.h>

namespace {

void run(benchmark::State& state, const std::string& spec, double delta, dpl::AccountantKind k) {
  const dpl::Ledger l{dpl::parse_entry(spec)};
  for (auto _ : state) benchmark::DoNotOptimize(compose(l, dpl::Target::for_delta(delta), k));
}

void BM_OptimalPure_k100(benchmark::State& s) { run(s, "pure:eps=0.1,steps=100", 1e-5, dpl::AccountantKind::optimal); }
void BM_OptimalPure_k1e5(benchmark::State& s) { run(s, "pure:eps=0.01,steps=100000", 1e-5, dpl::AccountantKind::optimal); }
void BM_OptimalPure_k1e6(benchmark::State& s) { run(s, "pure:eps=0.001,steps=1000000", 1e-5, dpl::AccountantKind::optimal); }
void BM_AdvancedPure_k1e6(benchmark::State& s) { run(s, "pure:eps=0.001,steps=1000000", 1e-5, dpl::AccountantKind::advanced); }
void BM_AnalyticGaussian(benchmark::State& s) { run(s, "gaussian:sigma=1", 1e-5, dpl::AccountantKind::optimal); }
void BM_CalibrateFullBatchGaussian(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(dpl::calibrate({"gaussian:sigma=?,steps=100"}, 1.0, 1e-5, dpl::AccountantKind::automatic, 0));
}

}  // namespace

BENCHMARK(BM_OptimalPure_k100)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OptimalPure_k1e5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OptimalPure_k1e6)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(BM_AdvancedPure_k1e6)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AnalyticGaussian)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CalibrateFullBatchGaussian)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_MAIN();
