// SPDX-License-Identifier: Apache-2.0
// Timings of the RDP accountant (the DP-SGD case of the README).
#include "accounting/composition/compose.h"
#include "accounting/rdp/rdp_accountant.h"
#include "accounting/rdp/rdp_subsampled_gaussian.h"

#include <benchmark/benchmark.h>

namespace {

const dpl::Ledger kDpSgd{dpl::parse_entry("gaussian:sigma=1.1,q=0.01,steps=10000")};

void BM_DpSgdCompose(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(dpl::compose_rdp(kDpSgd, dpl::Target::for_delta(1e-5)));
}
void BM_DpSgdOrderSearchOnly(benchmark::State& state) {
  const dpl::ComposedRdp rdp(kDpSgd);
  for (auto _ : state) benchmark::DoNotOptimize(dpl::best_rdp_order(rdp, dpl::Target::for_delta(1e-5)));
}
void BM_DpSgdCertifiedAtOrder(benchmark::State& state) {
  const dpl::ComposedRdp rdp(kDpSgd);
  for (auto _ : state) benchmark::DoNotOptimize(rdp.at(dpl::Real(4.671447211487244)));
}
void BM_MillionStepsHeterogeneous(benchmark::State& state) {
  const dpl::Ledger l{dpl::parse_entry("gaussian:sigma=1.1,q=0.01,steps=1000000"),
                      dpl::parse_entry("laplace:b=30,q=0.001,steps=1000000")};
  for (auto _ : state) benchmark::DoNotOptimize(dpl::compose_rdp(l, dpl::Target::for_delta(1e-6)));
}

// n distinct subsampled-Gaussian entries (targets: 100 in <= 20 ms, 1,000 in <= 0.2 s).
dpl::Ledger distinct_ledger(int n) {
  dpl::Ledger l;
  for (int i = 0; i < n; ++i)
    l.push_back(dpl::parse_entry("gaussian:sigma=" + std::to_string(0.8 + 2.0 * i / n) + ",sens=1.3,q=" +
                                 std::to_string(0.005 + 0.02 * ((i * 7) % n) / n) + ",steps=100"));
  return l;
}
void BM_DistinctSteps(benchmark::State& state) {
  const dpl::Ledger l = distinct_ledger(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(dpl::compose_rdp(l, dpl::Target::for_delta(1e-5)));
}

void BM_FractionalExcessFast(benchmark::State& state) {
  const dpl::SubsampledGaussianRdp c(0.01, 1.1, 1.0);
  for (auto _ : state) benchmark::DoNotOptimize(c.fractional_excess_fast(4.671447181922566));
}
void BM_IntegerExcessFast(benchmark::State& state) {
  const dpl::SubsampledGaussianRdp c(0.01, 1.1, 1.0);
  for (auto _ : state) benchmark::DoNotOptimize(c.integer_excess_fast(5));
}
void BM_CertifiedFastAtOrder(benchmark::State& state) {
  const dpl::SubsampledGaussianRdp c(0.01, 1.1, 1.0);
  for (auto _ : state) benchmark::DoNotOptimize(c.certified_at(4.671447181922566));
}

}  // namespace

BENCHMARK(BM_DpSgdCompose)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DpSgdOrderSearchOnly)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DpSgdCertifiedAtOrder)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MillionStepsHeterogeneous)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DistinctSteps)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FractionalExcessFast)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_IntegerExcessFast)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CertifiedFastAtOrder)->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
