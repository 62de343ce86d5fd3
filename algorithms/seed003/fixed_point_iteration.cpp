// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed003/fixed_point_iteration.h"

#include "accounting/errors.h"

#include <string>
#include <vector>

namespace dpl::algorithms::seed003 {

namespace {

void validate(const Eigen::VectorXd& u0, const FixedPointConfig& c) {
  if (c.block_dim < 1 || u0.size() == 0 || u0.size() % c.block_dim != 0)
    throw InputError("block_dim=" + std::to_string(c.block_dim) + " must divide dim(u)=" + std::to_string(u0.size()));
  if (!(c.lambda > 0 && c.lambda <= 1))
    throw InputError("lambda=" + std::to_string(c.lambda) + " is out of range: allowed reals (0, 1]");
  if (!(c.sigma >= 0) || !std::isfinite(c.sigma))
    throw InputError("sigma=" + std::to_string(c.sigma) + " is out of range: allowed reals [0, inf)");
  if (c.iterations < 0) throw InputError("iterations must be >= 0");
  const auto blocks = static_cast<int>(u0.size() / c.block_dim);
  if (c.activation == BlockActivation::poisson && !(c.q > 0 && c.q <= 1))
    throw InputError("q=" + std::to_string(c.q) + " is out of range: allowed reals (0, 1]");
  if (c.activation == BlockActivation::fixed_size && (c.active_count < 1 || c.active_count > blocks))
    throw InputError("active_count=" + std::to_string(c.active_count) + " is out of range: allowed integers [1, " +
                     std::to_string(blocks) + "]");
}

}  // namespace

// Seed 003 Algorithm 1 (exact update, with the block dimension for the noise: docs/cyffers2023.md sec. 1).
FixedPointRun private_fixed_point_iteration(const Eigen::VectorXd& u0, BlockOperator& R, const FixedPointConfig& cfg,
                                            Rng& rng, const PostMap& post, const Observer& observe) {
  validate(u0, cfg);
  const int d = cfg.block_dim;
  const auto blocks = static_cast<int>(u0.size() / d);
  FixedPointRun run;
  run.u = u0;
  run.touches.assign(static_cast<std::size_t>(blocks), 0);
  Eigen::VectorXd r(u0.size()), noise, first_draw;
  std::vector<bool> drawn;  // reuse_noise: which blocks have their first draw
  if (cfg.reuse_noise) {
    first_draw.setZero(u0.size());
    drawn.assign(static_cast<std::size_t>(blocks), false);
  }
  std::vector<int> active, written, pool(static_cast<std::size_t>(blocks));
  for (int b = 0; b < blocks; ++b) pool[static_cast<std::size_t>(b)] = b;
  for (std::int64_t k = 0; k < cfg.iterations; ++k) {
    active.clear();
    if (cfg.activation == BlockActivation::all) {
      active = pool;
    } else if (cfg.activation == BlockActivation::poisson) {
      for (int b = 0; b < blocks; ++b)
        if (rng.uniform01() < cfg.q) active.push_back(b);
    } else {  // partial Fisher-Yates: a uniform subset of active_count blocks
      for (int j = 0; j < cfg.active_count; ++j) {
        const auto pick = j + static_cast<int>(rng.uniform_int(static_cast<std::uint64_t>(blocks - j)));
        std::swap(pool[static_cast<std::size_t>(j)], pool[static_cast<std::size_t>(pick)]);
        active.push_back(pool[static_cast<std::size_t>(j)]);
      }
    }
    // The noise vector the observer sees: zero outside this step's active blocks (only last step's are reset).
    if (cfg.observe_noise) {
      if (noise.size() != u0.size()) noise.setZero(u0.size());
      for (int b : written) noise.segment(static_cast<Eigen::Index>(b) * d, d).setZero();
      written.clear();
    }
    if (!active.empty()) {
      R.evaluate(run.u, active, k, r);
      for (int b : active) {
        ++run.touches[static_cast<std::size_t>(b)];
        if (cfg.observe_noise) written.push_back(b);
        const bool reuse = cfg.reuse_noise && drawn[static_cast<std::size_t>(b)];
        if (cfg.reuse_noise) drawn[static_cast<std::size_t>(b)] = true;
        for (int l = b * d; l < (b + 1) * d; ++l) {
          const double eta = reuse ? first_draw(l) : cfg.sigma > 0 ? cfg.sigma * rng.gaussian() : 0.0;
          if (cfg.reuse_noise) first_draw(l) = eta;
          if (cfg.observe_noise) noise(l) = eta;
          run.u(l) += cfg.lambda * (r(l) + eta - run.u(l));
        }
      }
    }
    if (cfg.observe_noise) cfg.observe_noise(k, noise);
    run.active = active;
    if (post) post(run.u);
    if (observe) observe(k + 1, run);
  }
  return run;
}

}  // namespace dpl::algorithms::seed003
