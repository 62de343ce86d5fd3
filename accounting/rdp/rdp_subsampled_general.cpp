// SPDX-License-Identifier: Apache-2.0
#include "accounting/rdp/rdp_subsampled_general.h"

#include "accounting/numeric/portable_distributions.h"
#include "accounting/numeric/portable_math.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace dpl {

namespace {

// Orders above this use the unsampled curve (a valid, looser bound): the theorems' sums are O(a) evaluations.
constexpr std::int64_t kMaxIntegerOrder = 2048;
// The float64 estimate that guides the order search evaluates the subsampled sum (O(a) interval operations) only
// up to this order, above it the unsampled curve: the search then stays below it, which keeps one subsampled
// pure/approx step from costing tens of seconds. Any order gives a valid bound; only the choice is affected.
constexpr std::int64_t kMaxEstimatedOrder = 256;


}  // namespace

// Zhu and Wang 2019, Thm 6 (upper bound): 1/(a-1) log( (1-q)^{a-1}(aq - q + 1) + C(a,2) q^2 (1-q)^{a-2} e^{eps(2)}
// + 3 sum_{l=3}^{a} C(a,l) (1-q)^{a-l} q^l e^{(l-1) eps(l)} ).
Interval SubsampledGeneralRdp::poisson_integer(std::int64_t a) const {
  const Interval q = exact(q_), p = 1 - q, A = exact_int(a);
  Interval sum = pow(p, exact_int(a - 1)) * (A * q - q + 1);
  Interval binom = A * (A - 1) / 2;  // C(a, 2)
  sum += binom * q * q * pow(p, exact_int(a - 2)) * exp(base_->at(Real(2)));
  for (std::int64_t l = 3; l <= a; ++l) {
    binom *= exact_int(a - l + 1) / exact_int(l);
    sum += 3 * binom * pow(p, exact_int(a - l)) * pow(q, exact_int(l)) * exp(exact_int(l - 1) * base_->at(Real(l)));
  }
  return log(sum) / exact_int(a - 1);
}

// Wang, Balle and Kasiviswanathan 2019, Thm 9 (upper bound): 1/(a-1) log(1 + q^2 C(a,2) min{4(e^{eps(2)}-1),
// e^{eps(2)} min{2, (e^{eps(inf)}-1)^2}} + sum_{j=3}^{a} q^j C(a,j) e^{(j-1) eps(j)} min{2, (e^{eps(inf)}-1)^j}).
Interval SubsampledGeneralRdp::wor_integer(std::int64_t a) const {
  const Interval q = exact(q_), A = exact_int(a);
  const Interval e_inf = base_->at_infinity();
  const bool finite_inf = is_finite(e_inf);
  const Interval em1_inf = finite_inf ? expm1(e_inf) : positive_infinity();
  auto capped = [&](std::int64_t j) {  // min{2, (e^{eps(inf)} - 1)^j}
    if (!finite_inf) return exact(2.0);
    return imin(exact(2.0), pow(em1_inf, exact_int(j)));
  };
  const Interval e2 = base_->at(Real(2));
  Interval binom = A * (A - 1) / 2;
  Interval sum = 1 + q * q * binom * imin(4 * expm1(e2), exp(e2) * capped(2));
  for (std::int64_t j = 3; j <= a; ++j) {
    binom *= exact_int(a - j + 1) / exact_int(j);
    sum += pow(q, exact_int(j)) * binom * exp(exact_int(j - 1) * base_->at(Real(j))) * capped(j);
  }
  return log(sum) / exact_int(a - 1);
}

Interval SubsampledGeneralRdp::integer_bound(std::int64_t a) const {
  const Interval plain = base_->at(Real(a));
  if (a > kMaxIntegerOrder) return plain;
  const Interval sub = scheme_ == Scheme::poisson ? poisson_integer(a) : wor_integer(a);
  return hi(sub) <= hi(plain) ? sub : plain;
}

// Fractional a: (a-1) eps(a) is convex in a for every pair of distributions (van Erven and Harremoes 2014,
// Thm 11), so it lies below the chord between floor(a) and ceil(a) (upper bound); for 1 < a < 2, eps(a) <= eps(2)
// (monotone in a, ibid. Thm 3).
Interval SubsampledGeneralRdp::at(const Real& alpha) const {
  const Interval plain = base_->at(alpha);
  if (alpha == floor(alpha)) return integer_bound(alpha.convert_to<std::int64_t>());
  if (alpha < 2) {
    const Interval two = integer_bound(2);
    return hi(two) <= hi(plain) ? two : plain;
  }
  const std::int64_t lo_order = floor(alpha).convert_to<std::int64_t>();
  const Interval a = exact_real(alpha), l = exact_int(lo_order), h = exact_int(lo_order + 1);
  const Interval w = a - l;  // weight of the upper order
  const Interval chord = ((1 - w) * (l - 1) * integer_bound(lo_order) + w * (h - 1) * integer_bound(lo_order + 1)) / (a - 1);
  return hi(chord) <= hi(plain) ? chord : plain;
}

Interval SubsampledGeneralRdp::at_infinity() const { return base_->at_infinity(); }

double SubsampledGeneralRdp::evaluation_work(double alpha) const {
  const double a = std::ceil(alpha);
  if (a > static_cast<double>(kMaxIntegerOrder)) return base_->evaluation_work(alpha);
  return 300 * (alpha == a ? a : 2 * a) + base_->evaluation_work(alpha);
}

// The same two theorems in float64 (log-sum-exp of the terms, binomials by lgamma, the base curve's own estimates):
// an estimate for the order search only (the certified value is integer_bound's). The 200-bit sums cost ~1 ms per
// order here, and a search visits ~50 orders.
double SubsampledGeneralRdp::integer_estimate(std::int64_t a) const {
  const double plain = base_->estimate(static_cast<double>(a));
  if (a > kMaxEstimatedOrder) return plain;
  const double q = q_, lq = portable::binary64::log(q), l1q = portable::binary64::log1p(-q), ad = static_cast<double>(a);
  auto log_binom = [&](double k) { return portable::log_gamma(ad + 1) - portable::log_gamma(k + 1) - portable::log_gamma(ad - k + 1); };
  double top = -std::numeric_limits<double>::infinity();
  std::vector<double> logs;
  auto add = [&](double l) {
    logs.push_back(l);
    top = std::max(top, l);
  };
  const double e2 = base_->estimate(2);
  if (scheme_ == Scheme::poisson) {
    add((ad - 1) * l1q + portable::binary64::log(ad * q - q + 1));
    add(log_binom(2) + 2 * lq + (ad - 2) * l1q + e2);
    for (std::int64_t l = 3; l <= a; ++l) {
      const double ld = static_cast<double>(l);
      add(portable::binary64::log(3.0) + log_binom(ld) + (ad - ld) * l1q + ld * lq + (ld - 1) * base_->estimate(ld));
    }
  } else {
    const Interval inf_bound = base_->at_infinity();
    const double e_inf = is_finite(inf_bound) ? hi_up(inf_bound) : std::numeric_limits<double>::infinity();
    // log min{2, (e^{eps(inf)} - 1)^j}
    auto log_capped = [&](double j) {
      return std::isfinite(e_inf) ? std::min(portable::binary64::log(2.0), j * portable::binary64::log(portable::binary64::expm1(e_inf))) : portable::binary64::log(2.0);
    };
    add(0.0);
    add(2 * lq + log_binom(2) + std::min(portable::binary64::log(4 * portable::binary64::expm1(e2)), e2 + log_capped(2)));
    for (std::int64_t j = 3; j <= a; ++j) {
      const double jd = static_cast<double>(j);
      add(jd * lq + log_binom(jd) + (jd - 1) * base_->estimate(jd) + log_capped(jd));
    }
  }
  if (!std::isfinite(top)) return plain;
  double sum = 0;
  for (const double l : logs) sum += portable::binary64::exp(l - top);
  return std::min(plain, (top + portable::binary64::log(sum)) / (ad - 1));
}

double SubsampledGeneralRdp::estimate(double alpha) const {
  if (alpha == std::floor(alpha)) return integer_estimate(static_cast<std::int64_t>(alpha));
  if (alpha < 2) return std::min(base_->estimate(alpha), integer_estimate(2));
  const auto l = static_cast<std::int64_t>(std::floor(alpha));
  const double w = alpha - static_cast<double>(l);
  const double chord = ((1 - w) * (l - 1) * integer_estimate(l) + w * l * integer_estimate(l + 1)) / (alpha - 1);
  return std::min(chord, base_->estimate(alpha));
}

}  // namespace dpl
