// SPDX-License-Identifier: Apache-2.0
// Timings of one Clopper-Pearson bound (both ends, alpha 0.025) by portable_distributions' beta quantiles (the same
// bits on every CPU; what the audits use) and by Boost.Math's incomplete-beta inverses (double computed in long double
// through glibc's x87 expl/logl: what the audits used), for n = 10^3 ... 10^9 with k spread over [0, n].
#include "accounting/numeric/portable_distributions.h"

#include <benchmark/benchmark.h>
#include <boost/math/special_functions/beta.hpp>

#include <cstdint>

namespace {

constexpr int kCounts = 64;

std::uint64_t count(std::uint64_t n, int i) { return 1 + (n - 2) * static_cast<std::uint64_t>(i) / (kCounts - 1); }

void BM_PortableClopperPearson(benchmark::State& state) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  int i = 0;
  for (auto _ : state) {
    const std::uint64_t k = count(n, i++ % kCounts);
    const auto lower = dpl::portable::beta_quantile(k, n - k + 1, 0.025L).x;
    const auto upper = dpl::portable::beta_quantile(n - k, k + 1, 0.025L).y;
    benchmark::DoNotOptimize(lower);
    benchmark::DoNotOptimize(upper);
  }
}

void BM_BoostClopperPearson(benchmark::State& state) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  int i = 0;
  for (auto _ : state) {
    const std::uint64_t k = count(n, i++ % kCounts);
    const double lower = boost::math::ibeta_inv(static_cast<double>(k), static_cast<double>(n - k + 1), 0.025);
    const double upper = boost::math::ibetac_inv(static_cast<double>(k + 1), static_cast<double>(n - k), 0.025);
    benchmark::DoNotOptimize(lower);
    benchmark::DoNotOptimize(upper);
  }
}

}  // namespace

BENCHMARK(BM_PortableClopperPearson)->RangeMultiplier(1000)->Range(1000, 1000000000);
BENCHMARK(BM_BoostClopperPearson)->RangeMultiplier(1000)->Range(1000, 1000000000);
BENCHMARK_MAIN();
