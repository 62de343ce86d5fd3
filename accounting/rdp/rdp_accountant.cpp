#include "accounting/rdp/rdp_accountant.h"

#include "accounting/errors.h"
#include "accounting/rdp/rdp_conversion.h"

#include <cmath>
#include <limits>

namespace dpl {

ComposedRdp::ComposedRdp(const Ledger& ledger) {
  for (const auto& e : ledger) parts_.emplace_back(make_rdp_curve(e), e.steps);
}

// Mironov 2017, Prop. 1: RDP of a composition is at most the sum. Upper bound.
Interval ComposedRdp::at(const Real& alpha) const {
  Interval s = exact(0.0);
  for (const auto& [curve, steps] : parts_) {
    const Interval v = curve->at(alpha);
    if (!is_finite(v)) return positive_infinity();
    s += exact_int(steps) * v;
  }
  return s;
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

double ComposedRdp::estimate(double alpha) const {
  double s = 0;
  for (const auto& [curve, steps] : parts_) s += static_cast<double>(steps) * curve->estimate(alpha);
  return s;
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
  // The objective: converted epsilon, or log delta.
  auto f = [&](double alpha) {
    const double r = rdp.estimate(alpha);
    if (!std::isfinite(r)) return std::numeric_limits<double>::infinity();
    return given_delta ? rdp_to_epsilon_estimate(r, alpha, target.value) : rdp_to_log_delta_estimate(r, alpha, target.value);
  };
  double best_x = -6, best_f = std::numeric_limits<double>::infinity();
  for (double x = -6; x <= 5 + 1e-9; x += 0.1) {
    const double alpha = 1 + std::pow(10.0, x);
    const double v = f(alpha);
    if (v < best_f) best_f = v, best_x = x;
    // The converted value is at least about r(alpha) (or grows like (alpha-1)(r - eps)): past the minimum, stop.
    const double r = rdp.estimate(alpha);
    if (given_delta ? r > best_f + 1 : (alpha - 1) * (r - target.value) - std::log(alpha) > best_f + 60) break;
  }
  // Golden-section search on x = log10(alpha - 1) in [best_x - 0.1, best_x + 0.1].
  double a = best_x - 0.1, b = best_x + 0.1;
  const double g = (std::sqrt(5.0) - 1) / 2;
  double c = b - g * (b - a), d = a + g * (b - a);
  auto fx = [&](double x) { return f(1 + std::pow(10.0, x)); };
  double fc = fx(c), fd = fx(d);
  for (int it = 0; it < 60 && b - a > 1e-8; ++it) {
    if (fc <= fd) {
      b = d, d = c, fd = fc;
      c = b - g * (b - a), fc = fx(c);
    } else {
      a = c, c = d, fc = fd;
      d = a + g * (b - a), fd = fx(d);
    }
  }
  const double x = fc <= fd ? c : d;
  return (fx(x) <= best_f) ? 1 + std::pow(10.0, x) : 1 + std::pow(10.0, best_x);
}

AccountingResult compose_rdp(const Ledger& ledger, const Target& target) {
  if (ledger.empty()) throw InputError("-m: at least one mechanism is required");
  if (target.given == Target::Given::delta && target.value == 0)
    throw NotApplicable("accountant 'rdp' needs --delta > 0 (use pure for delta = 0)");
  const ComposedRdp rdp(ledger);
  const double order = best_rdp_order(rdp, target);
  const Real alpha(order);
  const Interval r = rdp.at(alpha);
  AccountingResult out;
  out.accountant = "rdp";
  out.order = order;
  out.note = "Renyi DP composed additively (Mironov 2017), converted at the optimal order by the smaller of "
             "Mironov 2017 Prop. 3 and Balle et al. 2020 Thm 21";
  if (target.given == Target::Given::delta) {
    out.epsilon = rdp_to_epsilon(r, alpha, target.value);
    out.delta = exact(target.value);
  } else {
    out.epsilon = exact(target.value);
    out.delta = rdp_to_delta(r, alpha, target.value);
  }
  return out;
}

}  // namespace dpl
