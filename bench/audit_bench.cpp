// SPDX-License-Identifier: Apache-2.0
// Audit throughput: runs (one output on D and one on D') per second per core of the built-in black-box targets,
// sampling and counting on one thread, the threshold test on the resulting counts, and the audits of the papers'
// algorithms. An algorithm's runs/s/core is the number of runs of one whole audit (`dpledger audit ALGORITHM
// --threads 1`: the claim run, its certified curve, the runs and both tests) at its default --runs, divided by the
// audit's wall time on one thread (the Time column; CPU is the process's CPU time, which includes the PLD
// accountant's helper thread). admm-random-aggregation also at 20000 runs; the exact-loss audits (--exact-loss) at
// their default 1000 runs (wang-nedic at 20).
#include "audit/algorithm_audit.h"
#include "audit/mechanism_target.h"
#include "audit/whitebox_audit.h"

#include <benchmark/benchmark.h>

#include <ctime>

#include <string>
#include <vector>

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

// An algorithm audit (as `dpledger audit ALGORITHM --threads 1`) of `runs` runs (0: its default), the claim run
// and its curve included: runs per second of wall time on one thread, and per second of the process's CPU time
// (runs_per_cpu_s: what a core gives when the machine is shared).
void algorithm(benchmark::State& state, const char* name, std::uint64_t runs) {
  dpl::audit::AlgorithmAuditPlan p;
  p.algorithm = name;
  p.runs = runs ? runs : dpl::audit::algorithm_audit_default_runs(name);
  p.threads = 1;
  const std::clock_t cpu_start = std::clock();
  for (auto _ : state) {
    benchmark::DoNotOptimize(dpl::audit::algorithm_audit(p));
    ++p.seed;
  }
  const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  const double total = static_cast<double>(p.runs) * static_cast<double>(state.iterations());
  state.SetLabel(std::string(name) + " runs=" + std::to_string(p.runs));
  state.counters["runs_per_s_per_core"] = benchmark::Counter(total, benchmark::Counter::kIsRate);
  state.counters["runs_per_cpu_s"] = cpu > 0 ? total / cpu : 0.0;
}

// Argument: the index in auditable_algorithms(), then the runs (0: the default).
void BM_AlgorithmAudit(benchmark::State& state) {
  const auto names = dpl::audit::auditable_algorithms();
  algorithm(state, names[static_cast<std::size_t>(state.range(0))].c_str(), static_cast<std::uint64_t>(state.range(1)));
}

// The algorithms with a per-run exact loss (safe to call while benchmarks register: the library's list is a
// function-local static).
const std::vector<std::string>& exact_loss_algorithms() {
  static const std::vector<std::string> v = dpl::audit::known_density_algorithms();
  return v;
}

// The per-run exact-loss audits (--exact-loss), one thread: runs per second of wall time. Argument: the index in
// exact_loss_algorithms(), then the runs (0: the default 1000). wang-nedic's runs each account their own
// 10,000-message ledger (about 0.7 s of certified arithmetic a run): measured at 20 runs.
void BM_ExactLoss(benchmark::State& state) {
  const auto& names = exact_loss_algorithms();
  dpl::audit::WhiteBoxPlan p;
  p.algorithm = names[static_cast<std::size_t>(state.range(0))];
  if (state.range(1) > 0) p.runs = static_cast<std::uint64_t>(state.range(1));
  p.threads = 1;
  for (auto _ : state) {
    benchmark::DoNotOptimize(dpl::audit::whitebox_audit(p));
    ++p.seed;
  }
  state.SetLabel(p.algorithm + " --exact-loss runs=" + std::to_string(p.runs));
  state.counters["runs_per_s_per_core"] =
      benchmark::Counter(static_cast<double>(p.runs) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void exact_loss_arguments(benchmark::internal::Benchmark* b) {
  const auto& names = exact_loss_algorithms();
  for (std::size_t i = 0; i < names.size(); ++i) b->Args({static_cast<std::int64_t>(i), names[i] == "wang-nedic" ? 20 : 0});
}

}  // namespace

BENCHMARK(BM_AlgorithmAudit)
    ->ArgsProduct({benchmark::CreateDenseRange(0, static_cast<int>(dpl::audit::auditable_algorithms().size()) - 1, 1), {0}})
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime()
    ->Iterations(1);
BENCHMARK(BM_AlgorithmAudit)->Args({0, 20000})->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime()->Iterations(1);
BENCHMARK(BM_ExactLoss)
    ->Apply(exact_loss_arguments)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime()
    ->Iterations(1);
BENCHMARK(BM_LaplaceRuns)->Arg(1 << 22)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GaussianRuns)->Arg(1 << 22)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ThresholdTest)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
