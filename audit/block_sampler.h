// SPDX-License-Identifier: Apache-2.0
// Deterministic parallel sampling for audits: the runs are cut into fixed blocks of kBlockRuns, block k draws
// from its own xoshiro256** stream seeded from (seed, k), and the per-thread counts are integers added at the
// end, so the counts for a seed are identical whatever the thread count, and shards (blocks k = i mod n) add
// up to the unsharded counts exactly.
#pragma once

#include "audit/threshold_counts.h"
#include "algorithms/rng/portable_rng.h"

#include <cstdint>
#include <functional>

namespace dpl::audit {

inline constexpr std::uint64_t kBlockRuns = 1u << 16;

struct SamplingPlan {
  std::uint64_t runs = 0;         // runs on EACH side of the pair; the first runs/2 select, the rest estimate
  std::uint64_t seed = 0;
  unsigned threads = 1;           // >= 1
  std::uint64_t shard_index = 0;  // this shard takes the blocks k with k mod shard_count == shard_index
  std::uint64_t shard_count = 1;
};

// The seed of block k's stream: splitmix64's finaliser of a mix of (seed, k), so neighbouring blocks and seeds
// get unrelated streams.
std::uint64_t block_seed(std::uint64_t seed, std::uint64_t block);


// A run sampler that is a plain function pointer plus a context, for speed in the inner loop.
struct FastSampler {
  void (*fn)(const void* ctx, algorithms::Rng& rng, std::size_t* bins_d, std::size_t* bins_dprime, std::size_t n);
  const void* ctx;
};

// Samples the plan's blocks with `plan.threads` threads; `progress(done_runs, total_runs)` is called from the
// calling thread about ten times a second (may be empty). Returns the counts over `thresholds`.
ThresholdCounts sample_blocks(const std::vector<double>& thresholds, const SamplingPlan& plan, const FastSampler& s,
                              const std::function<void(std::uint64_t, std::uint64_t)>& progress);

// Throws InputError unless runs >= 2 (each half of each side non-empty) and <= 1e13, threads in [1, 1024],
// shard_index < shard_count.
void validate_plan(const SamplingPlan& plan);

}  // namespace dpl::audit
