// SPDX-License-Identifier: Apache-2.0
#include "accounting/pld/loss_pair_mixture.h"

#include <algorithm>
#include <limits>
#include <memory>

namespace dpl {

namespace {

LossPair mix(std::shared_ptr<const std::vector<std::pair<double, LossPair>>> parts, double p_inf) {
  LossPair p;
  p.p_inf = p_inf;
  p.support_lo = std::numeric_limits<double>::infinity();
  p.support_hi = -std::numeric_limits<double>::infinity();
  for (const auto& [w, pair] : *parts) {
    p.p_inf += w * pair.p_inf;
    p.support_lo = std::min(p.support_lo, pair.support_lo);
    p.support_hi = std::max(p.support_hi, pair.support_hi);
  }
  // Sums of non-negative terms in long double: relative error of the terms plus ~n u_ld.
  p.survival_p = [parts](double l) {
    long double s = 0;
    for (const auto& [w, pair] : *parts) s += static_cast<long double>(w) * pair.survival_p(l);
    return static_cast<double>(s);
  };
  p.survival_q = [parts](double l) {
    long double s = 0;
    for (const auto& [w, pair] : *parts) s += static_cast<long double>(w) * pair.survival_q(l);
    return static_cast<double>(s);
  };
  p.survival_both = [parts](double l, double& sp, double& sq) {
    long double a = 0, b = 0;
    for (const auto& [w, pair] : *parts) {
      double x = 0, y = 0;
      pair.survivals(l, x, y);
      a += static_cast<long double>(w) * x;
      b += static_cast<long double>(w) * y;
    }
    sp = static_cast<double>(a);
    sq = static_cast<double>(b);
  };
  return p;
}

}  // namespace

LossPair labeled_mixture(std::vector<std::pair<double, LossPair>> parts, double extra_p_inf) {
  auto optimistic = std::make_shared<std::vector<std::pair<double, LossPair>>>();
  for (const auto& [w, pair] : parts) optimistic->emplace_back(w, pair.optimistic ? *pair.optimistic : pair);
  auto shared = std::make_shared<const std::vector<std::pair<double, LossPair>>>(std::move(parts));
  LossPair p = mix(shared, extra_p_inf);
  p.optimistic = std::make_shared<const LossPair>(mix(optimistic, 0.0));
  return p;
}

}  // namespace dpl
