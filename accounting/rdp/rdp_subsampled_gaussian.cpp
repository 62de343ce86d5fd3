#include "accounting/rdp/rdp_subsampled_gaussian.h"

#include <boost/math/special_functions/binomial.hpp>

#include <cmath>
#include <limits>

namespace dpl {

namespace {

Interval point(const Real& x) { return make_interval(x, x); }

// Above this many series terms we stop and keep the (larger, still rigorous) tail bound.
constexpr std::int64_t kMaxTerms = 40000;
// The series stops once its proven tail is below this fraction of the sum (invisible at 15 printed digits even
// after 10^6 compositions); the tail is added to the enclosure either way.
constexpr double kTailRelTol = 1e-21;

double log_add(double a, double b) {
  if (a == -std::numeric_limits<double>::infinity()) return b;
  if (b == -std::numeric_limits<double>::infinity()) return a;
  if (a < b) std::swap(a, b);
  return a + std::log1p(std::exp(b - a));
}

// log Phi(x) in double, without underflow (Mills ratio asymptotics below -30).
double log_phi(double x) {
  if (x > -30) return std::log(0.5 * std::erfc(-x / std::sqrt(2.0)));
  return -x * x / 2 - std::log(-x) - 0.5 * std::log(2 * M_PI) + std::log1p(-1 / (x * x));
}

}  // namespace

// MTZ 2019, Sec. 3.2 (exact): all terms positive; linear domain (the MPFR exponent range is widened in
// interval.cpp), terms by the recursion t_{k+1} = t_k (a-k)/(k+1) q/(1-q) e^{k/z^2}.
Interval SubsampledGaussianRdp::integer_moment(std::int64_t alpha) const {
  const Interval q = exact(q_), one_minus_q = 1 - q, ratio = q / one_minus_q;
  const Interval e_step = exp(exact(1.0) / (exact(z_) * exact(z_)));
  Interval t = pow(one_minus_q, exact_int(alpha));
  Interval growth = exact(1.0);  // e^{k/z^2}
  Interval sum = t;
  for (std::int64_t k = 0; k < alpha; ++k) {
    t *= exact_int(alpha - k) / exact_int(k + 1) * ratio * growth;
    growth *= e_step;
    sum += t;
  }
  return sum;
}

// MTZ 2019, Sec. 3.3 (exact series), truncated after I terms with the tail bound
// |tail| <= P |C(a,I)| (1/(I+1) + 1/(a+1)) (K1 + K2), P = (1-q)^a e^{-z0^2/(2z^2)} z/sqrt(2 pi),
// K1 = max(1, (I+1)/(I-z0)), K2 = max(1, (I+1)/(I+z0-a)), valid for I > max(a, z0, a - z0)
// (docs/rdp_fractional_tail.md). Enclosure of A_alpha.
Interval SubsampledGaussianRdp::fractional_moment(const Real& alpha_r, std::int64_t* terms_used) const {
  const Interval a = point(alpha_r);
  const Interval q = exact(q_), z = exact(z_), z2 = z * z, one_minus_q = 1 - q;
  const Interval z0 = z2 * log(1 / q - 1) + exact(0.5);
  const double z0d = mid_double(z0), ad = alpha_r.convert_to<double>();
  // Terms: C(a,i) [F0_i Phi((z0 - i)/z) + F1_i Phi((j - z0)/z)], j = a - i, with
  // F0_i = q^i (1-q)^{a-i} e^{(i^2-i)/(2z^2)} and F1_i = q^{j} (1-q)^i e^{(j^2-j)/(2z^2)} by recursion.
  const Interval up = q / one_minus_q, down = one_minus_q / q;
  const Interval e_step = exp(1 / z2), f1_shift = exp(-(a - 1) / z2);
  Interval f0 = exp(a * log1p(-q));
  Interval f1 = exp(a * log(q) + (a * a - a) / (2 * z2));
  Interval growth = exact(1.0);  // e^{i/z^2}
  Interval coef = exact(1.0);    // C(a, i), signed
  Interval sum = exact(0.0);
  const Interval p_const = exp(a * log1p(-q) - z0 * z0 / (2 * z2)) * z / sqrt(2 * pi());
  std::int64_t i = 0;
  Interval tail = positive_infinity();
  for (; i < kMaxTerms; ++i) {
    const double id = static_cast<double>(i);
    if (lo(coef) == 0 && hi(coef) == 0) {  // integer order: every later binomial coefficient is 0
      tail = exact(0.0);
      break;
    }
    const Interval I = exact_int(i);
    if (id > ad + 1 && id > z0d + 1 && id + z0d - ad > 1) {
      const Interval k1 = imax(exact(1.0), (I + 1) / (I - z0));
      const Interval k2 = imax(exact(1.0), (I + 1) / (I + z0 - a));
      tail = p_const * abs(coef) * (1 / (I + 1) + 1 / (a + 1)) * (k1 + k2);
      if (certainly_lt(tail, abs(sum) * exact(kTailRelTol))) break;
    }
    const Interval j = a - I;
    sum += coef * (f0 * normal_cdf((z0 - I) / z) + f1 * normal_cdf((j - z0) / z));
    coef *= (a - I) / (I + 1);
    f0 *= up * growth;
    f1 *= down * f1_shift * growth;
    growth *= e_step;
  }
  if (terms_used) *terms_used = i;
  if (!is_finite(tail)) {
    // The tail bound's conditions were never met within kMaxTerms: no certified value.
    return make_interval(Real(0), hi(positive_infinity()));
  }
  return make_interval(lo(sum - tail), hi(sum + tail));
}

Interval SubsampledGaussianRdp::at(const Real& alpha) const {
  Interval A;
  if (alpha == floor(alpha) && alpha <= 5e6) {
    A = integer_moment(alpha.convert_to<std::int64_t>());
  } else {
    A = fractional_moment(alpha);
  }
  if (!is_finite(A)) return positive_infinity();
  // A >= 1 always (D_alpha >= 0): clamp the lower end so the log is defined.
  const Interval a1 = point(alpha) - 1;
  const Interval Ac = make_interval(lo(A) < 1 ? Real(1) : lo(A), hi(A) < 1 ? Real(1) : hi(A));
  return log(Ac) / a1;
}

Interval SubsampledGaussianRdp::at_infinity() const { return positive_infinity(); }

// Float64 versions of the same two formulas, for the order search only.
double SubsampledGaussianRdp::estimate(double a) const {
  const double q = q_, z2 = z_ * z_;
  double log_A = -std::numeric_limits<double>::infinity();
  if (a == std::floor(a) && a <= 5e6) {
    double lt = a * std::log1p(-q);
    const double lr = std::log(q) - std::log1p(-q);
    log_A = lt;
    for (double k = 0; k < a; ++k) {
      lt += std::log((a - k) / (k + 1)) + lr + k / z2;
      log_A = log_add(log_A, lt);
    }
    return log_A / (a - 1);
  }
  // Fractional: Opacus-style two series with signs (log of positive and negative parts kept apart).
  const double z0 = z2 * std::log(1 / q - 1) + 0.5;
  double pos = -std::numeric_limits<double>::infinity(), neg = pos;
  double log_coef = 0;
  int sign = 1;
  for (int i = 0; i < 200000; ++i) {
    const double j = a - i;
    const double l0 = log_coef + i * std::log(q) + j * std::log1p(-q) + (1.0 * i * i - i) / (2 * z2) +
                      log_phi((z0 - i) / z_);
    const double l1 = log_coef + j * std::log(q) + i * std::log1p(-q) + (j * j - j) / (2 * z2) +
                      log_phi((j - z0) / z_);
    const double s = log_add(l0, l1);
    if (sign > 0) pos = log_add(pos, s); else neg = log_add(neg, s);
    if (i > a + 1 && i > z0 && s < std::max(pos, neg) - 45) break;
    const double f = (a - i) / (i + 1.0);
    if (f == 0) break;
    if (f < 0) sign = -sign;
    log_coef += std::log(std::abs(f));
  }
  if (neg >= pos) return 0;  // round-off; never reported
  log_A = pos + std::log1p(-std::exp(neg - pos));
  return std::max(0.0, log_A / (a - 1));
}

}  // namespace dpl
