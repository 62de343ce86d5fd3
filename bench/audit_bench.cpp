// Audit throughput: runs (one output on D and one on D') per second per core of the built-in black-box targets,
// sampling and counting on one thread, the threshold test on the resulting counts, and white-box runs of the
// papers' algorithms (one run and its exact loss) per second per core.
#include "audit/mechanism_target.h"
#include "audit/whitebox_audit.h"

#include <benchmark/benchmark.h>

namespace {

void sample(benchmark::State& state, const char* spec) {
  const dpl::audit::MechanismTarget t = dpl::audit::make_mechanism_target(spec, {}, std::nullopt);
  dpl::audit::SamplingPlan p;
  p.runs = static_cast<std::uint64_t>(state.range(0));
  p.threads = 1;
  for (auto _ : state) {
    benchmark::DoNotOptimize(dpl::audit::sample_mechanism(t, p));
    ++p.seed;
  }
  state.counters["runs_per_s_per_core"] =
      benchmark::Counter(static_cast<double>(p.runs) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_LaplaceRuns(benchmark::State& state) { sample(state, "laplace:b=1"); }
void BM_GaussianRuns(benchmark::State& state) { sample(state, "gaussian:sigma=1"); }

void BM_ThresholdTest(benchmark::State& state) {
  const dpl::audit::MechanismTarget t = dpl::audit::make_mechanism_target("laplace:b=1", {}, std::nullopt);
  dpl::audit::SamplingPlan p;
  p.runs = 1000000;
  p.threads = 1;
  const auto counts = dpl::audit::sample_mechanism(t, p);
  for (auto _ : state) benchmark::DoNotOptimize(dpl::audit::threshold_test(counts, t.claim, 0.95, 0.1));
}

// White-box: `runs` runs of ALGORITHM with its default keys on one thread (as `dpledger audit ALGORITHM
// --threads 1`), including the 200-bit recomputation of the runs the audit reports.
void whitebox(benchmark::State& state, const char* algorithm) {
  dpl::audit::WhiteBoxPlan p;
  p.algorithm = algorithm;
  p.runs = static_cast<std::uint64_t>(state.range(0));
  p.threads = 1;
  for (auto _ : state) {
    benchmark::DoNotOptimize(dpl::audit::whitebox_audit(p));
    ++p.seed;
  }
  state.counters["runs_per_s_per_core"] =
      benchmark::Counter(static_cast<double>(p.runs) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_WhiteBoxAdmmRandomAggregation(benchmark::State& state) { whitebox(state, "admm-random-aggregation"); }
void BM_WhiteBoxDsgdRandomAggregation(benchmark::State& state) { whitebox(state, "dsgd-random-aggregation"); }
void BM_WhiteBoxDpSgd(benchmark::State& state) { whitebox(state, "dp-sgd"); }
void BM_WhiteBoxWangNedic(benchmark::State& state) { whitebox(state, "wang-nedic"); }

}  // namespace

BENCHMARK(BM_WhiteBoxAdmmRandomAggregation)->Arg(200)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK(BM_WhiteBoxDsgdRandomAggregation)->Arg(200)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK(BM_WhiteBoxDpSgd)->Arg(50)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK(BM_WhiteBoxWangNedic)->Arg(4)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK(BM_LaplaceRuns)->Arg(1 << 22)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GaussianRuns)->Arg(1 << 22)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ThresholdTest)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
