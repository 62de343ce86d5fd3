// SPDX-License-Identifier: Apache-2.0
#include "accounting/rdp/rdp_accountant.h"

#include "accounting/errors.h"
#include "accounting/numeric/infinity.h"
#include "accounting/numeric/portable_math.h"
#include "accounting/pld/pld_parallel.h"
#include "accounting/rdp/rdp_conversion.h"

#include <boost/math/tools/minima.hpp>

#include <cmath>
#include <map>
#include <tuple>
#include <limits>

namespace dpl {

namespace {

constexpr double kMaxFractionalOrder = 256;
// Above this many distinct curves the order search takes fewer, parabolic steps (Brent), and the sums over the
// curves run in two halves on the two threads (pld_parallel.h).
constexpr std::size_t kManyCurves = 8;
constexpr std::size_t kParallelCurves = 64;

// f(part) summed over [from, to) of the parts, in two halves on the two threads when there are many.
template <typename T, typename F>
T sum_parts(std::size_t count, const T& zero, const F& f) {
  auto range = [&](std::size_t from, std::size_t to) {
    T s = zero;
    for (std::size_t i = from; i < to; ++i) s += f(i);
    return s;
  };
  if (count < kParallelCurves) return range(0, count);
  T first = zero, second = zero;
  run_pair([&] { first = range(0, count / 2); }, [&] { second = range(count / 2, count); });
  return first + second;
}

// Everything that determines an entry's per-step curve.
using CurveKey = std::tuple<double, int, int, double, double, double, double, double, std::int64_t, std::int64_t, double,
                            ExtendedParameters>;
CurveKey curve_key(const LedgerEntry& e) {
  const Mechanism& m = e.mechanism;
  return {e.q, static_cast<int>(e.sampling), static_cast<int>(m.kind), m.sigma, m.sens, m.b, m.eps, m.delta,
          m.iterations, m.index, m.contraction, m.x};
}

}  // namespace

ComposedRdp::ComposedRdp(const Ledger& ledger) {
  std::map<CurveKey, std::size_t> index;  // curve -> its part
  for (const auto& e : ledger) {
    const auto [it, fresh] = index.try_emplace(curve_key(e), parts_.size());
    std::int64_t total = 0;
    if (!fresh && !__builtin_add_overflow(parts_[it->second].second, e.steps, &total)) {
      parts_[it->second].second = total;
      continue;
    }
    parts_.emplace_back(make_rdp_curve(e), e.steps);
  }
}

// Mironov 2017, Prop. 1: RDP of a composition is at most the sum. Upper bound. (An infinite part makes the
// sum +inf: hi() stays an upper bound.)
Interval ComposedRdp::at(const Real& alpha) const {
  const Interval s = sum_parts(parts_.size(), exact(0.0), [&](std::size_t i) {
    const Interval v = parts_[i].first->at(alpha);
    return is_finite(v) ? exact_int(parts_[i].second) * v : positive_infinity();
  });
  return is_finite(s) ? s : positive_infinity();
}

Interval ComposedRdp::certified_at(double alpha) const {
  const Interval s = sum_parts(parts_.size(), exact(0.0), [&](std::size_t i) {
    const Interval v = parts_[i].first->certified_at(alpha);
    return is_finite(v) ? exact_int(parts_[i].second) * v : positive_infinity();
  });
  return is_finite(s) ? s : positive_infinity();
}

Interval ComposedRdp::at_infinity() const {
  Interval s = exact(0.0);
  for (const auto& [curve, steps] : parts_) {
    const Interval v = curve->at_infinity();
    if (!is_finite(v)) return positive_infinity();
    s += exact_int(steps) * v;
  }
  return s;
}

std::vector<double> ComposedRdp::upper_at_integer_orders(const std::vector<std::int64_t>& orders) const {
  std::vector<std::vector<double>> per_curve(parts_.size());
  auto range = [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) per_curve[i] = parts_[i].first->upper_at_integer_orders(orders);
  };
  if (parts_.size() < kParallelCurves) range(0, parts_.size());
  else run_pair([&] { range(0, parts_.size() / 2); }, [&] { range(parts_.size() / 2, parts_.size()); });
  std::vector<double> out(orders.size());
  for (std::size_t g = 0; g < orders.size(); ++g) {
    Interval s = exact(0.0);
    bool finite = true;
    for (std::size_t i = 0; i < parts_.size() && finite; ++i) {
      finite = std::isfinite(per_curve[i][g]);
      if (finite) s += exact_int(parts_[i].second) * exact(per_curve[i][g]);
    }
    out[g] = finite ? hi_up(s) : std::numeric_limits<double>::infinity();
  }
  return out;
}

double ComposedRdp::evaluation_work(const std::vector<double>& orders) const {
  double w = 0;
  for (const auto& part : parts_)
    for (const double a : orders) w += std::isfinite(a) ? part.first->evaluation_work(a) : 10;
  return w;
}

double ComposedRdp::estimate(double alpha) const {
  return sum_parts(parts_.size(), 0.0, [&](std::size_t i) {
    return static_cast<double>(parts_[i].second) * parts_[i].first->estimate(alpha);
  });
}

std::optional<Rational> ComposedRdp::exact_at(double alpha) const {
  Rational s(0);
  for (const auto& [curve, steps] : parts_) {
    const auto v = curve->exact_at(alpha);
    if (!v) return std::nullopt;
    s += Rational(steps) * *v;
  }
  return s;
}

double best_rdp_order(const ComposedRdp& rdp, const Target& target) {
  const bool given_delta = target.given == Target::Given::delta;
  // The objective from the summed float64 curve: converted epsilon, or log delta.
  auto objective = [&](double alpha, double r) {
    if (!std::isfinite(r)) return std::numeric_limits<double>::infinity();
    return given_delta ? rdp_to_epsilon_estimate(r, alpha, target.value) : rdp_to_log_delta_estimate(r, alpha, target.value);
  };
  auto fx = [&](double x) {
    const double alpha = 1 + portable::pow(10.0, x);
    return objective(alpha, rdp.estimate(alpha));
  };
  // Scan x = log10(alpha - 1) over [-6, 5] in steps of 0.25 (0.5 with many curves, where every evaluation sums them
  // all), stopping past the minimum.
  const bool many = rdp.distinct_curves() > kManyCurves;
  const double step = many ? 0.5 : 0.25;
  double best_x = -6, best_f = std::numeric_limits<double>::infinity();
  for (int k = 0; -6 + step * k <= 5; ++k) {
    const double x = -6 + step * k, alpha = 1 + portable::pow(10.0, x);
    const double r = rdp.estimate(alpha), v = objective(alpha, r);
    if (v < best_f) best_f = v, best_x = x;
    // The converted value is at least about r(alpha) (or grows like (alpha-1)(r - eps)): past the minimum, stop.
    if (given_delta ? r > best_f + 1 : (alpha - 1) * (r - target.value) - portable::binary64::log(alpha) > best_f + 60) break;
  }
  double a = best_x - step, b = best_x + step;
  if (many) {
    // Brent's method (parabolic steps, golden-section fallback; Boost.Math) to about 1e-6 in x: ~10 evaluations
    // instead of ~27 (the converted bound is flat to second order at its minimum).
    std::uintmax_t iterations = 40;
    const auto [x, fbest] = boost::math::tools::brent_find_minima(fx, a, b, 21, iterations);
    return fbest <= best_f ? 1 + portable::pow(10.0, x) : 1 + portable::pow(10.0, best_x);
  }
  // Golden-section search on x in [best_x - step, best_x + step] down to a width of 1e-6 (a relative change of
  // about 2e-6 in alpha: the converted bound is flat to second order there).
  const double g = (std::sqrt(5.0) - 1) / 2;
  double c = b - g * (b - a), d = a + g * (b - a);
  double fc = fx(c), fd = fx(d);
  for (int it = 0; it < 60 && b - a > 1e-6; ++it) {
    if (fc <= fd) {
      b = d, d = c, fd = fc;
      c = b - g * (b - a), fc = fx(c);
    } else {
      a = c, c = d, fc = fd;
      d = a + g * (b - a), fd = fx(d);
    }
  }
  const double x = fc <= fd ? c : d, fbest = std::min(fc, fd);
  return fbest <= best_f ? 1 + portable::pow(10.0, x) : 1 + portable::pow(10.0, best_x);
}

double rdp_epsilon_estimate(const Ledger& ledger, double delta) {
  const ComposedRdp rdp(ledger);
  const Target target = Target::for_delta(delta);
  const double alpha = best_rdp_order(rdp, target), r = rdp.estimate(alpha);
  return std::isfinite(r) ? rdp_to_epsilon_estimate(r, alpha, delta) : std::numeric_limits<double>::infinity();
}

AccountingResult compose_rdp(const Ledger& ledger, const Target& target) {
  if (ledger.empty()) throw InputError("-m: at least one mechanism is required");
  if (target.given == Target::Given::delta && target.value == 0)
    throw NotApplicable("accountant 'rdp' needs --delta > 0 (use pure for delta = 0)");
  const ComposedRdp rdp(ledger);
  const double best = best_rdp_order(rdp, target);
  // Certify at the order found, and at its two integer neighbours (the binomial sums cost microseconds, the
  // fractional series ~0.1 ms per distinct curve, its tail accelerated: docs/rdp_fractional_tail.md). The smallest
  // certified bound is reported, with its order.
  std::vector<double> candidates;
  // Above order 256 the fractional series costs 0.15-0.5 s per curve (MPFR erfc per term, ~alpha terms) and the
  // gain over the better integer neighbour is small (measured: 8e-6 relative at order 1156, 4e-9 at 177): only the
  // integer neighbours are certified there (each still a valid upper bound).
  if (best != std::floor(best) && best <= kMaxFractionalOrder) candidates.push_back(best);
  if (best < 5e6) {
    candidates.push_back(std::max(2.0, std::floor(best)));
    candidates.push_back(std::max(2.0, std::ceil(best)));
  }
  if (candidates.empty()) candidates.push_back(best);
  const bool given_delta = target.given == Target::Given::delta;
  auto convert = [&](double order) {
    const Interval r = rdp.certified_at(order);
    return given_delta ? rdp_to_epsilon(r, Real(order), target.value) : rdp_to_delta(r, Real(order), target.value);
  };
  double order = candidates.front();
  Interval bound = convert(order);
  for (std::size_t i = 1; i < candidates.size(); ++i) {
    if (candidates[i] == candidates[i - 1]) continue;
    const Interval b = convert(candidates[i]);
    if (hi(b) < hi(bound)) bound = b, order = candidates[i];
  }
  // Order infinity: a composition whose Renyi divergence of order infinity is at most e_inf is e_inf-DP (the max
  // divergence), so (e_inf, delta)-DP for every delta and delta(eps) = 0 for eps >= e_inf (Mironov 2017, Prop. 3 as
  // alpha grows). Upper bound; reported where it is below the finite orders' (a pure run at a tiny delta).
  const Interval pure = rdp.at_infinity();
  if (is_finite(pure)) {
    if (given_delta && hi(pure) < hi(bound)) bound = pure, order = kInf;
    else if (!given_delta && Real(target.value) >= hi(pure) && hi(bound) > 0) bound = exact(0.0), order = kInf;
  }
  AccountingResult out;
  out.accountant = "rdp";
  out.order = order;
  out.note = "Renyi DP composed additively (Mironov 2017), converted at the optimal order by the smaller of "
             "Mironov 2017 Prop. 3 and Balle et al. 2020 Thm 21";
  if (target.given == Target::Given::delta) {
    out.epsilon = bound;
    // An epsilon beyond the binary64 range (noise 1e-300) is reported as +inf: still an upper bound, and one
    // every output format can carry.
    if (hi(out.epsilon) > Real(std::numeric_limits<double>::max())) out.epsilon = positive_infinity();
    out.delta = exact(target.value);
  } else {
    out.epsilon = exact(target.value);
    out.delta = bound;
  }
  return out;
}

}  // namespace dpl
