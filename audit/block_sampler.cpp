// SPDX-License-Identifier: Apache-2.0
#include "audit/block_sampler.h"

#include "accounting/errors.h"
#include "audit/worker_threads.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>

namespace dpl::audit {

// splitmix64's output function (Steele, Lea, Flood 2014) applied to a golden-ratio mix of seed and block.
std::uint64_t block_seed(std::uint64_t seed, std::uint64_t block) {
  std::uint64_t z = seed * 0x9e3779b97f4a7c15ULL + (block + 1) * 0xd1b54a32d192ed03ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void validate_plan(const SamplingPlan& p) {
  if (p.runs < 2 || p.runs > 10'000'000'000'000ULL)
    throw InputError("--runs=" + std::to_string(p.runs) + " is out of range: allowed integers [2, 1e13]");
  if (p.threads < 1 || p.threads > 1024)
    throw InputError("--threads=" + std::to_string(p.threads) + " is out of range: allowed [1, 1024]");
  if (p.shard_count < 1 || p.shard_index >= p.shard_count)
    throw InputError("--shard=" + std::to_string(p.shard_index + 1) + "/" + std::to_string(p.shard_count) +
                     " is out of range: allowed i/n with 1 <= i <= n");
}

ThresholdCounts sample_blocks(const std::vector<double>& thresholds, const SamplingPlan& plan, const FastSampler& s,
                              const std::function<void(std::uint64_t, std::uint64_t)>& progress) {
  validate_plan(plan);
  const std::uint64_t blocks = (plan.runs + kBlockRuns - 1) / kBlockRuns;
  const std::uint64_t half = plan.runs / 2;
  // This shard's blocks: shard_index, shard_index + n, ...
  const std::uint64_t mine = blocks > plan.shard_index ? (blocks - plan.shard_index + plan.shard_count - 1) / plan.shard_count : 0;
  const unsigned threads = static_cast<unsigned>(std::min<std::uint64_t>(plan.threads, std::max<std::uint64_t>(mine, 1)));
  std::atomic<std::uint64_t> next{0}, done_runs{0};
  std::uint64_t my_runs = 0;
  for (std::uint64_t m = 0; m < mine; ++m) {
    const std::uint64_t k = plan.shard_index + m * plan.shard_count;
    my_runs += std::min(kBlockRuns, plan.runs - k * kBlockRuns);
  }
  std::vector<ThresholdCounts> local(threads, ThresholdCounts(thresholds));
  auto work = [&](unsigned t) {
    std::vector<std::size_t> bd(kBlockRuns), bp(kBlockRuns);
    auto& c = local[t];
    for (std::uint64_t m; (m = next.fetch_add(1)) < mine;) {
      const std::uint64_t k = plan.shard_index + m * plan.shard_count;
      const std::uint64_t first = k * kBlockRuns, n = std::min(kBlockRuns, plan.runs - first);
      algorithms::Rng rng(block_seed(plan.seed, k));
      s.fn(s.ctx, rng, bd.data(), bp.data(), n);
      for (std::uint64_t r = 0; r < n; ++r) {
        const int h = first + r < half ? kSelection : kEstimation;
        ++c.counts[h][kD][bd[r]];
        ++c.counts[h][kDPrime][bp[r]];
      }
      done_runs.fetch_add(n, std::memory_order_relaxed);
    }
  };
  run_worker_threads(threads, work, [&] {
    if (!progress) return;
    while (done_runs.load() < my_runs) {
      progress(done_runs.load(), my_runs);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    progress(my_runs, my_runs);
  });
  ThresholdCounts total(thresholds);
  for (const auto& c : local) total.add(c);
  return total;
}

}  // namespace dpl::audit
