// Audit throughput: runs (one output on D and one on D') per second per core of the built-in black-box targets,
// sampling and counting on one thread, the threshold test on the resulting counts, and the audits of the papers'
// algorithms (runs per second per core at their defaults; admm-random-aggregation also at 20000 runs).
#include "audit/algorithm_audit.h"
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

// An algorithm audit (as `dpledger audit ALGORITHM --threads 1`) of `runs` runs, the claim run and its curve
// included: runs per second per core.
void algorithm(benchmark::State& state, const char* name) {
  dpl::audit::AlgorithmAuditPlan p;
  p.algorithm = name;
  p.runs = static_cast<std::uint64_t>(state.range(0));
  p.threads = 1;
  for (auto _ : state) {
    benchmark::DoNotOptimize(dpl::audit::algorithm_audit(p));
    ++p.seed;
  }
  state.counters["runs_per_s_per_core"] =
      benchmark::Counter(static_cast<double>(p.runs) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_AlgorithmAudit(benchmark::State& state) {
  const auto names = dpl::audit::auditable_algorithms();
  const std::string& name = names[static_cast<std::size_t>(state.range(1))];
  state.SetLabel(name);
  algorithm(state, name.c_str());
}

// The per-run exact-loss audit of seed 000 (--exact-loss).
void BM_ExactLossAdmmRandomAggregation(benchmark::State& state) {
  dpl::audit::WhiteBoxPlan p;
  p.algorithm = "admm-random-aggregation";
  p.runs = static_cast<std::uint64_t>(state.range(0));
  p.threads = 1;
  for (auto _ : state) {
    benchmark::DoNotOptimize(dpl::audit::whitebox_audit(p));
    ++p.seed;
  }
  state.counters["runs_per_s_per_core"] =
      benchmark::Counter(static_cast<double>(p.runs) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK(BM_AlgorithmAudit)
    ->ArgsProduct({{1000}, benchmark::CreateDenseRange(0, static_cast<int>(dpl::audit::auditable_algorithms().size()) - 1, 1)})
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->Iterations(1);
BENCHMARK(BM_AlgorithmAudit)->Args({20000, 0})->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->Iterations(1);
BENCHMARK(BM_ExactLossAdmmRandomAggregation)->Arg(200)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK(BM_LaplaceRuns)->Arg(1 << 22)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GaussianRuns)->Arg(1 << 22)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ThresholdTest)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
