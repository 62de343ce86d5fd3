// SPDX-License-Identifier: Apache-2.0
#include "accounting/pld/loss_pair_atoms.h"

#include "accounting/numeric/portable_math.h"
#include "accounting/numeric/double_word.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>

namespace dpl {

namespace {

constexpr double kKeptAtoms = 1 << 16;
constexpr double kCells = 1 << 18;

// The smallest power of two >= x (x > 0).
double dyadic_at_least(double x) {
  int e = 0;
  const double m = std::frexp(x, &e);  // x = m 2^e, m in [0.5, 1)
  return m == 0.5 ? x : std::ldexp(1.0, e);
}

// A discrete pair: atoms at losses[i] (ascending, exact doubles) with suffix sums of their P- and Q-masses.
struct AtomTable {
  std::vector<double> losses, sp, sq;  // sp[i] = sum_{j >= i} P_j, rounded once from a double-word sum
};

// Merges (index, mass) pairs with equal indices, sorted; the table of suffix sums (double words, rounded once).
std::shared_ptr<const AtomTable> table_of(std::vector<std::pair<std::int64_t, DoubleWord>> v, double g) {
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  auto t = std::make_shared<AtomTable>();
  std::vector<DoubleWord> pm;
  for (const auto& [k, m] : v) {
    if (m.hi <= 0) continue;
    if (!t->losses.empty() && t->losses.back() == static_cast<double>(k) * g) {
      pm.back() = pm.back() + m;
    } else {
      t->losses.push_back(static_cast<double>(k) * g);
      pm.push_back(m);
    }
  }
  const std::size_t n = t->losses.size();
  t->sp.assign(n + 1, 0.0);
  t->sq.assign(n + 1, 0.0);
  DoubleWord sp(0.0), sq(0.0);
  for (std::size_t i = n; i-- > 0;) {
    sp = sp + pm[i];
    // Q-mass e^{-L} P of the atom: one long-double exp (a few u_ld) and product.
    const long double qm = portable::exp(-static_cast<long double>(t->losses[i])) * static_cast<long double>(pm[i]);
    sq = sq + DoubleWord(qm);
    t->sp[i] = sp.hi;
    t->sq[i] = sq.hi;
  }
  return t;
}

LossPair pair_of(std::shared_ptr<const AtomTable> t, double p_inf) {
  LossPair p;
  if (t->losses.empty()) {
    // Only the dropped mass: one atom at loss 0 carrying nothing keeps the discretisation's support finite.
    p.survival_p = [](double) { return 0.0; };
    p.survival_q = [](double) { return 0.0; };
    p.support_lo = p.support_hi = 0;
    p.p_inf = p_inf;
    return p;
  }
  // P(L > l): the suffix sum from the first atom above l.
  auto index = [t](double l) {
    return static_cast<std::size_t>(std::upper_bound(t->losses.begin(), t->losses.end(), l) - t->losses.begin());
  };
  p.survival_p = [t, index](double l) { return t->sp[index(l)]; };
  p.survival_q = [t, index](double l) { return t->sq[index(l)]; };
  p.survival_both = [t, index](double l, double& sp, double& sq) {
    const std::size_t i = index(l);
    sp = t->sp[i];
    sq = t->sq[i];
  };
  p.support_lo = t->losses.front();
  p.support_hi = t->losses.back();
  p.p_inf = p_inf;
  return p;
}

// Neumaier's compensated addition of x to (sum, comp).
void neumaier(double& sum, double& comp, double x) {
  const double t = sum + x;
  comp += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
  sum = t;
}

}  // namespace

LossAtoms::LossAtoms(double lo, double hi, double count) : lo_(lo) {
  if (!(lo <= hi) || !std::isfinite(lo) || !std::isfinite(hi)) throw std::invalid_argument("internal: LossAtoms range");
  const double range = std::max(hi - lo, 1e-300);
  use_cells_ = count > kKeptAtoms;
  if (use_cells_) {
    g_ = dyadic_at_least(range / kCells);
    base_ = static_cast<std::int64_t>(std::floor(lo / g_)) - 1;
    cells_.assign(static_cast<std::size_t>(std::floor(hi / g_) - std::floor(lo / g_)) + 4, Cell{});
  } else {
    // Fine enough to keep distinct losses apart, coarse enough for exact int64 indices.
    g_ = std::max(0x1p-40, dyadic_at_least(std::max(std::abs(lo), std::abs(hi)) * 0x1p-50));
    atoms_.reserve(static_cast<std::size_t>(std::max(0.0, count)));
  }
  inv_g_ = 1 / g_;  // exact: a power of two
}

void LossAtoms::add(double loss, double err, double mass) {
  if (!(mass > 0)) return;
  // loss +- err is rounded once (half an ulp of its magnitude) and the product by 1/g is exact: err grows by an
  // ulp of |loss| + err so that ceil/floor land at or beyond the true bounds.
  const double e = err + (std::fabs(loss) + err) * 0x1p-52 + 1e-300;
  // ceil and floor by truncation (inline; |values| < 2^62 by the choice of g).
  const double vu = (loss + e) * inv_g_, vd = (loss - e) * inv_g_;
  auto tu = static_cast<std::int64_t>(vu), td = static_cast<std::int64_t>(vd);
  const std::int64_t up = tu + (static_cast<double>(tu) < vu), down = td - (static_cast<double>(td) > vd);
  if (!use_cells_) {
    atoms_.push_back({up, down, mass});
    return;
  }
  const auto n = static_cast<std::int64_t>(cells_.size());
  const std::int64_t iu = up - base_, id = down - base_;
  if (iu < 0 || iu >= n || id < 0 || id >= n)
    throw std::logic_error("internal: LossAtoms atom at loss " + std::to_string(loss) + " outside its range from " +
                           std::to_string(lo_));
  Cell& cu = cells_[static_cast<std::size_t>(iu)];
  neumaier(cu.up_sum, cu.up_comp, mass);
  Cell& cd = cells_[static_cast<std::size_t>(id)];
  neumaier(cd.down_sum, cd.down_comp, mass);
}

LossPair LossAtoms::finish(double dropped) const {
  std::vector<std::pair<std::int64_t, DoubleWord>> up, down;
  auto dw = [](double sum, double comp) {
    DoubleWord d;
    double_word::two_sum(sum, comp, d.hi, d.lo);
    return d;
  };
  if (use_cells_) {
    for (std::size_t i = 0; i < cells_.size(); ++i) {
      const Cell& c = cells_[i];
      if (c.up_sum > 0) up.emplace_back(base_ + static_cast<std::int64_t>(i), dw(c.up_sum, c.up_comp));
      if (c.down_sum > 0) down.emplace_back(base_ + static_cast<std::int64_t>(i), dw(c.down_sum, c.down_comp));
    }
  } else {
    for (const auto& a : atoms_) {
      up.emplace_back(a.up, DoubleWord(a.mass));
      down.emplace_back(a.down, DoubleWord(a.mass));
    }
  }
  LossPair pessimistic = pair_of(table_of(std::move(up), g_), std::max(0.0, dropped));
  pessimistic.optimistic = std::make_shared<const LossPair>(pair_of(table_of(std::move(down), g_), 0.0));
  return pessimistic;
}

}  // namespace dpl
