// SPDX-License-Identifier: Apache-2.0
// Timings of radix2_fft (radix2_fft.h) in double, long double and double words (the PLD's extended precision)
// for n = 2^12 ... 2^20, reported per n log2 n
// (the unit of the work limits in pld_work_budget.cpp). Each iteration copies the fixed input back, then transforms
// it (the copy is included: repeated in-place transforms would overflow).
#include "accounting/numeric/double_word.h"
#include "accounting/pld/radix2_fft.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstddef>
#include <random>

namespace {

template <typename T>
void BM_Radix2Fft(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const bool inverse = state.range(1) != 0;
  dpl::ComplexArray<T> input, x;
  input.resize(n);
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (std::size_t i = 0; i < n; ++i) {
    input.re[i] = T(u(rng));
    input.im[i] = T(u(rng));
  }
  x = input;
  dpl::radix2_fft(x, inverse);  // the twiddle table is built outside the timed loop
  for (auto _ : state) {
    x.re = input.re;
    x.im = input.im;
    dpl::radix2_fft(x, inverse);
    benchmark::DoNotOptimize(x.re.data());
    benchmark::DoNotOptimize(x.im.data());
    benchmark::ClobberMemory();
  }
  const double nlogn = static_cast<double>(n) * std::log2(static_cast<double>(n));
  // Seconds per n log2 n (printed with an SI prefix: "1.8n" is 1.8 ns).
  state.counters["per_nlog2n"] =
      benchmark::Counter(nlogn, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void sizes(benchmark::internal::Benchmark* b) {
  for (int inverse = 0; inverse <= 1; ++inverse)
    for (long n = 1 << 12; n <= 1 << 20; n *= 2) b->Args({n, inverse});
}

}  // namespace

BENCHMARK(BM_Radix2Fft<double>)->Apply(sizes)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Radix2Fft<long double>)->Apply(sizes)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Radix2Fft<dpl::DoubleWord>)->Apply(sizes)->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
