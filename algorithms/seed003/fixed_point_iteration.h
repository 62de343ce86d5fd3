// SPDX-License-Identifier: Apache-2.0
// Seed 003 Algorithm 1 (Cyffers, Bellet and Basu): the private, block-coordinate, lambda-relaxed fixed-point
// iteration u_{k+1,b} = u_{k,b} + rho_{k,b} lambda (R_b(u_k) + e_{k,b} + eta_{k+1,b} - u_{k,b}),
// eta ~ N(0, sigma^2 I) per block, followed by an optional data-independent map P (e.g. the prox of an l1
// term: the proximal variant; post-processing of each step, non-expansive).
#pragma once

#include "algorithms/rng/portable_rng.h"

#include <Eigen/Dense>

#include <cstdint>
#include <functional>
#include <vector>

namespace dpl::algorithms::seed003 {

// Which blocks an iteration updates: every block, each with probability q (Poisson), or a uniform subset of
// `active_count` blocks (fixed size; active_count 1 is seed 003 Algorithm 4's walk on the complete graph).
enum class BlockActivation { all, poisson, fixed_size };

// The operator R (plus the error e_k) of Algorithm 1. evaluate() writes R_b(u) + e_{k,b} into out's blocks for
// every b in `active` (other blocks of out are not read). It may keep state between calls (e.g. a running mean).
class BlockOperator {
 public:
  virtual ~BlockOperator() = default;
  virtual void evaluate(const Eigen::VectorXd& u, const std::vector<int>& active, std::int64_t k, Eigen::VectorXd& out) = 0;
};

struct FixedPointConfig {
  std::int64_t iterations = 1;
  int block_dim = 1;     // every block has this many coordinates; B = dim(u) / block_dim
  double lambda = 1;     // relaxation in (0, 1]
  double sigma = 0;      // std of eta per coordinate
  BlockActivation activation = BlockActivation::all;
  double q = 1;          // Poisson activation probability
  int active_count = 1;  // fixed-size activation
  // Optional (white-box audits): sees, at step k = 0..K-1, the noise eta drawn for every active block (entries
  // of inactive blocks are 0), before the relaxation and post-map.
  std::function<void(std::int64_t k, const Eigen::VectorXd& eta)> observe_noise;
  // An audit's injected fault (end_to_end_audit.h, reuse-noise): each block's first noise draw is reused at every
  // later step it is active, where the ledger composes independent draws.
  bool reuse_noise = false;
};

struct FixedPointRun {
  Eigen::VectorXd u;
  std::vector<std::int64_t> touches;  // per block: iterations in which it was active
  std::vector<int> active;            // the blocks the last step updated
};

using PostMap = std::function<void(Eigen::VectorXd& u)>;
// Sees the state after step k: run.u and run.touches so far.
using Observer = std::function<void(std::int64_t k, const FixedPointRun& run)>;

// Runs cfg.iterations steps from u0 (validated: sizes, lambda in (0,1], q in (0,1], 1 <= active_count <= B).
// `observe` (optional) sees the run after each step (k = 1..K).
FixedPointRun private_fixed_point_iteration(const Eigen::VectorXd& u0, BlockOperator& R, const FixedPointConfig& cfg,
                                            Rng& rng, const PostMap& post = {}, const Observer& observe = {});

}  // namespace dpl::algorithms::seed003
