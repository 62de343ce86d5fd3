// SPDX-License-Identifier: Apache-2.0
// Time per call of the product's elementary functions (accounting/numeric/portable_math.h): the binary64 versions
// the algorithms use, the long-double-based double versions the PLD uses, and glibc's double functions (whose
// variant the CPU selects) on the same arguments: 4096 points spread over a range typical of losses and draws.
#include "accounting/numeric/portable_math.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

namespace {

std::vector<double> points(double lo, double hi) {
  std::vector<double> v(4096);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = lo + (hi - lo) * (static_cast<double>(i) + 0.5) / static_cast<double>(v.size());
  return v;
}

template <double (*F)(double)>
void run(benchmark::State& state, double lo, double hi) {
  const std::vector<double> v = points(lo, hi);
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(F(v[i]));
    i = (i + 1) & 4095;
  }
}

double glibc_exp(double x) { return std::exp(x); }
double glibc_expm1(double x) { return std::expm1(x); }
double glibc_log(double x) { return std::log(x); }
double glibc_log1p(double x) { return std::log1p(x); }
double long_double_exp(double x) { return dpl::portable::exp(x); }
double long_double_log(double x) { return dpl::portable::log(x); }
double long_double_log1p(double x) { return dpl::portable::log1p(x); }
double long_double_pow(double x) { return dpl::portable::pow(x, 1.7); }

void BM_Binary64Exp(benchmark::State& s) { run<dpl::portable::binary64::exp>(s, -20, 20); }
void BM_Binary64Expm1(benchmark::State& s) { run<dpl::portable::binary64::expm1>(s, -20, 20); }
void BM_Binary64Log(benchmark::State& s) { run<dpl::portable::binary64::log>(s, 1e-3, 30); }
void BM_Binary64Log1p(benchmark::State& s) { run<dpl::portable::binary64::log1p>(s, 1e-3, 30); }
void BM_LongDoubleExp(benchmark::State& s) { run<long_double_exp>(s, -20, 20); }
void BM_LongDoubleLog(benchmark::State& s) { run<long_double_log>(s, 1e-3, 30); }
void BM_LongDoubleLog1p(benchmark::State& s) { run<long_double_log1p>(s, 1e-3, 30); }
void BM_LongDoublePow(benchmark::State& s) { run<long_double_pow>(s, 1e-3, 30); }
void BM_GlibcExp(benchmark::State& s) { run<glibc_exp>(s, -20, 20); }
void BM_GlibcExpm1(benchmark::State& s) { run<glibc_expm1>(s, -20, 20); }
void BM_GlibcLog(benchmark::State& s) { run<glibc_log>(s, 1e-3, 30); }
void BM_GlibcLog1p(benchmark::State& s) { run<glibc_log1p>(s, 1e-3, 30); }

}  // namespace

BENCHMARK(BM_Binary64Exp);
BENCHMARK(BM_Binary64Expm1);
BENCHMARK(BM_Binary64Log);
BENCHMARK(BM_Binary64Log1p);
BENCHMARK(BM_LongDoubleExp);
BENCHMARK(BM_LongDoubleLog);
BENCHMARK(BM_LongDoubleLog1p);
BENCHMARK(BM_LongDoublePow);
BENCHMARK(BM_GlibcExp);
BENCHMARK(BM_GlibcExpm1);
BENCHMARK(BM_GlibcLog);
BENCHMARK(BM_GlibcLog1p);
BENCHMARK_MAIN();
