// SPDX-License-Identifier: Apache-2.0
#include "accounting/rdp/rdp_subsampled_gaussian.h"

#include "accounting/numeric/log_space.h"
#include "accounting/numeric/portable_math.h"
#include "accounting/rdp/alternating_moment_sum.h"

#include <array>
#include <cmath>
#include <limits>

namespace dpl {

namespace {

using DI = DoubleInterval;

// Orders above this use the unsampled Gaussian bound (see at()).
constexpr double kMaxSummedOrder = 2e4;
// Above this many series terms we stop and keep the (larger, still rigorous) tail bound.
constexpr std::int64_t kMaxSeriesTerms = 2500;
// The series stops once its proven tail is below this fraction of the sum (invisible at 15 printed digits even
// after 10^6 compositions); the tail is added to the enclosure either way.
constexpr double kTailRelTol = 1e-21;

DoubleInterval I_of(std::int64_t i) { return DoubleInterval::point(static_cast<double>(i)); }

// log Phi(x) in double, without underflow (Mills ratio asymptotics below -30).
double log_phi(double x) {
  if (x > -30) return portable::binary64::log(0.5 * portable::erfc(-x / std::sqrt(2.0)));
  return -x * x / 2 - portable::binary64::log(-x) - 0.5 * portable::binary64::log(2 * M_PI) + portable::binary64::log1p(-1 / (x * x));
}

}  // namespace

SubsampledGaussianRdp::SubsampledGaussianRdp(double q, double sigma, double sens)
    : q_(q), z_(exact(sigma) / exact(sens)), z_down_(lo_down(z_)) {
  dq_ = DI::point(q);
  d1mq_ = DI::point(1) - dq_;
  dz_ = {z_down_, hi_up(z_)};
  dz2_ = dz_ * dz_;
  dlog1mq_ = log1p(DI{-q, -q});
  dlogq_ = log(dq_);
  dz0_ = dz2_ * (dlog1mq_ - dlogq_) + DI::point(0.5);  // z^2 log(1/q - 1) + 1/2
}

// MTZ 2019, Sec. 3.2 (exact): all terms positive; linear domain (the MPFR exponent range is widened in
// interval.cpp), terms by the recursion t_{k+1} = t_k (a-k)/(k+1) q/(1-q) e^{k/z^2}.
Interval SubsampledGaussianRdp::integer_moment(std::int64_t alpha) const {
  const Interval q = exact(q_), one_minus_q = 1 - q, ratio = q / one_minus_q;
  const Interval e_step = exp(exact(1.0) / (z_ * z_));
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

// MTZ 2019, Sec. 3.3 (exact series), truncated before the first term t_I with I > a and |t_I| below
// kTailRelTol |sum|. For i > a the binomial C(a,i) alternates in sign and decreases in magnitude, and both
// q^i (1-q)^{a-i} e^{(i^2-i)/(2z^2)} Phi((z0-i)/z) and its mirror are non-increasing in i (the Gaussian tail
// ratio Phi(-x-h) <= e^{-xh-h^2/2} Phi(-x) cancels the growth exactly at z0); so the terms alternate with
// non-increasing magnitude and the tail is at most |t_I| (Leibniz). Derivation: docs/rdp_fractional_tail.md.
// Enclosure of A_alpha.
Interval SubsampledGaussianRdp::fractional_moment(const Real& alpha_r, std::int64_t* terms_used) const {
  const Interval a = exact_real(alpha_r);
  const Interval q = exact(q_), z = z_, z2 = z * z, one_minus_q = 1 - q;
  const Interval z0 = z2 * log(1 / q - 1) + exact(0.5);
  const double ad = alpha_r.convert_to<double>();
  // Terms: C(a,i) [F0_i Phi((z0 - i)/z) + F1_i Phi((j - z0)/z)], j = a - i, with
  // F0_i = q^i (1-q)^{a-i} e^{(i^2-i)/(2z^2)} and F1_i = q^{j} (1-q)^i e^{(j^2-j)/(2z^2)} by recursion.
  const Interval up = q / one_minus_q, down = one_minus_q / q;
  const Interval e_step = exp(1 / z2), f1_shift = exp(-(a - 1) / z2);
  Interval f0 = exp(a * log1p(-q));
  Interval f1 = exp(a * log(q) + (a * a - a) / (2 * z2));
  Interval growth = exact(1.0);  // e^{i/z^2}
  Interval coef = exact(1.0);    // C(a, i), signed
  Interval sum = exact(0.0);
  std::int64_t i = 0;
  Interval tail = positive_infinity();
  for (; i < kMaxSeriesTerms; ++i) {
    if (lo(coef) == 0 && hi(coef) == 0) {  // integer order: every later binomial coefficient is 0
      tail = exact(0.0);
      break;
    }
    const Interval I = exact_int(i);
    const Interval j = a - I;
    const Interval term = coef * (f0 * normal_cdf((z0 - I) / z) + f1 * normal_cdf((j - z0) / z));
    if (static_cast<double>(i) > ad + 1) {
      tail = abs(term);  // bounds the whole remainder from here on (alternating, non-increasing)
      if (certainly_lt(tail, abs(sum) * exact(kTailRelTol))) break;
    }
    sum += term;
    coef *= (a - I) / (I + 1);
    f0 *= up * growth;
    f1 *= down * f1_shift * growth;
    growth *= e_step;
  }
  if (terms_used) *terms_used = i;
  if (!is_finite(tail)) return make_interval(Real(0), hi(positive_infinity()));  // no certified value
  return make_interval(lo(sum - tail), hi(sum + tail));
}

// MTZ 2019, Sec. 3.2 minus the binomial identity sum_k C(a,k)(1-q)^{a-k}q^k = 1:
// A - 1 = sum_{k>=2} w_k (e^{(k^2-k)/(2z^2)} - 1), w_k = C(a,k)(1-q)^{a-k}q^k the binomial pmf (recursion
// w_{k+1} = w_k (a-k)/(k+1) q/(1-q), never above 1). All terms non-negative: binary64 intervals give A - 1 to
// ~5a ulps relative (docs/rdp_double_precision.md). Enclosure.
std::optional<Interval> SubsampledGaussianRdp::integer_excess_fast(std::int64_t alpha) const {
  const DI ratio = dq_ / d1mq_, two_z2 = DI::point(2) * dz2_;
  DI w = exp(DI::point(static_cast<double>(alpha)) * dlog1mq_);
  DI sum = DI::point(0);
  for (std::int64_t k = 0; k < alpha; ++k) {
    w = w * (DI::point(static_cast<double>(alpha - k)) / DI::point(static_cast<double>(k + 1))) * ratio;  // w_{k+1}
    const double k1 = static_cast<double>(k + 1);
    if (k + 1 >= 2) sum = sum + times_expm1(w, DI::point(k1 * k1 - k1) / two_z2);
  }
  if (!sum.finite()) return std::nullopt;
  return make_interval(Real(sum.lo), Real(sum.hi));
}

// MTZ 2019, Sec. 3.3 minus the binomial series 1 = sum_i C(a,i) q^i (1-q)^{a-i} (q < 1/2), term by term, all in
// binary64 intervals: A - 1 = sum_i C(a,i) [b_i (expm1(c_i) Phi(y_i) - Phi(-y_i)) + F1_i Phi((a-i-z0)/z)] with
// b_i = q^i (1-q)^{a-i}, c_i = (i^2-i)/(2z^2), y_i = (z0-i)/z. No term is near 1, so A - 1 keeps its relative
// accuracy without 200-bit arithmetic. From I = floor(a) + 1 > a on, both series alternate and the magnitudes of
// their terms, |C(a,i)| (F0_i Phi(y_i) + F1_i Phi((a-i-z0)/z)) and |C(a,i)| b_i, are completely monotone in i
// (docs/rdp_fractional_tail.md): each tail is enclosed from its next 20 magnitudes (Cohen, Rodriguez Villegas and
// Zagier 2000, Prop. 1; alternating_moment_sum.h), and A - 1 = (the first I terms) + (tail of the MTZ series) -
// (tail of the binomial series). Enclosure of A - 1; nullopt for q >= 1/2 or when the enclosure fails or is wide
// (the caller then uses fractional_excess_big_terms).
std::optional<Interval> SubsampledGaussianRdp::fractional_excess_fast(double ad) const {
  if (!(q_ < 0.5)) return fractional_excess_big_terms(ad);
  const DI a = DI::point(ad), one = DI::point(1), two_z2 = DI::point(2) * dz2_, ratio = dq_ / d1mq_;
  const auto first_tail = static_cast<std::int64_t>(std::floor(ad)) + 1;
  DI coef = one, sum = DI::point(0);
  // b_i = q^i (1-q)^{a-i} by the recursion b_{i+1} = b_i q/(1-q) from b_0 = e^{a log(1-q)} (a few ulps wide where
  // the log-space form would carry the rounding of log b_i ~ -10 into every term).
  DI b = exp(a * dlog1mq_);
  for (std::int64_t i = 0; i < first_tail; ++i) {
    const DI I = DI::point(static_cast<double>(i)), j = a - I, y = (dz0_ - I) / dz_, minus_y{-y.hi, -y.lo};
    const DI l1 = j * dlogq_ + I * dlog1mq_ + (j * j - j) / two_z2;  // log F1_i
    DI inner = exp_times_normal_cdf(l1, (j - dz0_) / dz_);
    const DI c = (I * I - I) / two_z2;  // c_i >= 0, zero for i = 0, 1
    if (b.lo > 0x1p-960 && c.hi < 600) {
      // Linear space: b_i (expm1(c_i) Phi(y_i) - Phi(-y_i)); expm1 by MPFR below 1, else e^c - 1 (no cancellation).
      DI bracket = DI::point(0) - normal_cdf(minus_y);
      if (i >= 2) bracket = bracket + (c.lo >= 1 ? exp(c) - one : expm1(c)) * normal_cdf(y);
      inner = inner + b * bracket;
    } else {
      // Log space (b_i subnormal or e^{c_i} beyond binary64): e^{log b_i} Phi(-y) and e^{log b_i + log expm1(c_i)} Phi(y).
      const DI lb = I * dlogq_ + j * dlog1mq_;
      inner = inner - exp_times_normal_cdf(lb, minus_y);
      if (i >= 2) inner = inner + exp_times_normal_cdf(lb + log_expm1(c), y);
    }
    const DI term = coef * inner;
    if (!term.finite()) return fractional_excess_big_terms(ad);
    sum = sum + term;
    coef = coef * ((a - I) / (I + one));
    b = b * ratio;
  }
  if (!(coef.lo == 0 && coef.hi == 0)) {  // (at an integer order every later binomial coefficient is 0)
    // The signs alternate from I on, starting with the sign of C(a, I).
    if (!(coef.lo > 0 || coef.hi < 0)) return fractional_excess_big_terms(ad);
    const bool negative = coef.hi < 0;
    std::array<DoubleInterval, kAlternatingTerms> g, beta;
    for (std::int64_t k = 0; k < kAlternatingTerms; ++k) {
      const std::int64_t i = first_tail + k;
      const DI I = DI::point(static_cast<double>(i)), j = a - I, mag = abs(coef);
      const DI l0 = I * dlogq_ + j * dlog1mq_ + (I * I - I) / two_z2;  // log F0_i
      const DI l1 = j * dlogq_ + I * dlog1mq_ + (j * j - j) / two_z2;  // log F1_i
      g[static_cast<std::size_t>(k)] =
          mag * (exp_times_normal_cdf(l0, (dz0_ - I) / dz_) + exp_times_normal_cdf(l1, (j - dz0_) / dz_));
      beta[static_cast<std::size_t>(k)] = mag * b;
      coef = coef * ((a - I) / (I + one));
      b = b * ratio;
    }
    const DI tail = alternating_moment_sum(g) - alternating_moment_sum(beta);
    sum = sum + (negative ? DI{-tail.hi, -tail.lo} : tail);
  }
  // Accept when finite and tight (2^-40 relative: the RDP value then carries ~1e-12 relative from this step; the
  // tail's 20 magnitudes, each a few ulps wide and near A - 1 in size at orders below 2, make it ~1e-13).
  if (!sum.finite() || !(sum.lo > 0) || sum.hi - sum.lo > 0x1p-40 * sum.lo) return fractional_excess_big_terms(ad);
  return make_interval(Real(sum.lo), Real(sum.hi));
}

// MTZ 2019, Sec. 3.3 minus 1: the same series as fractional_moment. The terms before I = floor(a) + 1 that exceed
// 2^-20 (the first few, near 1) are computed in 200-bit MPFI so that A - 1 keeps its relative accuracy; the others in
// binary64 intervals, with F0_i, F1_i carried as logarithms and multiplied by Phi inside MPFR's exponent range (F1_i
// grows like e^{i^2/(2z^2)} while its Phi factor decays as fast). From I on the terms alternate with completely
// monotone magnitudes (docs/rdp_fractional_tail.md): the tail is enclosed from the next 20 magnitudes (Cohen,
// Rodriguez Villegas and Zagier 2000, Prop. 1; alternating_moment_sum.h). Enclosure of A - 1.
std::optional<Interval> SubsampledGaussianRdp::fractional_excess_big_terms(double ad) const {
  constexpr double kBigTerm = 0x1p-20;
  const DI a = DI::point(ad), one = DI::point(1), two_z2 = DI::point(2) * dz2_;
  // 200-bit constants for the big terms.
  const Interval A = exact(ad), q = exact(q_), lq = log(q), l1q = log1p(-q), z2 = z_ * z_;
  const Interval z0 = z2 * (l1q - lq) + exact(0.5);
  Interval coef = exact(1.0), big = exact(-1.0);  // the -1 of A - 1 joins the big terms exactly
  DI coef_d = one, small = DI::point(0);
  const auto first_tail = static_cast<std::int64_t>(std::floor(ad)) + 1;
  // F0_i Phi((z0-i)/z) + F1_i Phi((a-i-z0)/z) (> 0) in binary64 intervals.
  auto bracket = [&](std::int64_t i) {
    const DI I = DI::point(static_cast<double>(i)), j = a - I;
    // log F0_i = i log q + j log(1-q) + (i^2-i)/(2z^2); log F1_i = j log q + i log(1-q) + (j^2-j)/(2z^2).
    const DI l0 = I * dlogq_ + j * dlog1mq_ + (I * I - I) / two_z2;
    const DI l1 = j * dlogq_ + I * dlog1mq_ + (j * j - j) / two_z2;
    return exp_times_normal_cdf(l0, (dz0_ - I) / dz_) + exp_times_normal_cdf(l1, (j - dz0_) / dz_);
  };
  for (std::int64_t i = 0; i < first_tail; ++i) {
    const DI term = coef_d * bracket(i);
    if (!term.finite()) return std::nullopt;
    if (abs(term).hi > kBigTerm) {
      const Interval Ii = exact_int(i), ji = A - Ii;
      const Interval L0 = Ii * lq + ji * l1q + (Ii * Ii - Ii) / (2 * z2);
      const Interval L1 = ji * lq + Ii * l1q + (ji * ji - ji) / (2 * z2);
      big += coef * (exp(L0) * normal_cdf((z0 - Ii) / z_) + exp(L1) * normal_cdf((ji - z0) / z_));
    } else {
      small = small + term;
    }
    coef *= (A - exact_int(i)) / exact_int(i + 1);
    coef_d = coef_d * ((a - I_of(i)) / (I_of(i) + one));
  }
  if (!(coef_d.lo == 0 && coef_d.hi == 0)) {  // (at an integer order every later binomial coefficient is 0)
    if (!(coef_d.lo > 0 || coef_d.hi < 0)) return std::nullopt;
    const bool negative = coef_d.hi < 0;
    std::array<DoubleInterval, kAlternatingTerms> g;
    for (std::int64_t k = 0; k < kAlternatingTerms; ++k) {
      const std::int64_t i = first_tail + k;
      g[static_cast<std::size_t>(k)] = abs(coef_d) * bracket(i);
      coef_d = coef_d * ((a - I_of(i)) / (I_of(i) + one));
    }
    const DI tail = alternating_moment_sum(g);
    small = small + (negative ? DI{-tail.hi, -tail.lo} : tail);
  }
  if (!small.finite()) return std::nullopt;
  return big + make_interval(Real(small.lo), Real(small.hi));
}

// at(), from the fast enclosures of A - 1: the exact series at integer orders, else the smaller of the fractional
// series and the convexity chord. nullopt where an enclosure fails or the RDP value is wider than 1e-12 relative.
std::optional<Interval> SubsampledGaussianRdp::at_fast(double alpha) const {
  // log1p(A - 1) / (a-1) with A >= 1 (the lower end clamped at A - 1 = 0), in binary64 intervals (MPFR's directed
  // 53-bit log1p: a 200-bit log costs ~10 us, and a ledger of 10^4 distinct curves evaluates it ~3 x 10^4 times).
  auto rdp_of = [](const std::optional<Interval>& Am1, double scale) -> std::optional<Interval> {
    if (!Am1 || !is_finite(*Am1)) return std::nullopt;
    const DI x{std::max(0.0, lo_down(*Am1)), std::max(0.0, hi_up(*Am1))};
    const DI r = log1p(x) / (DI::point(scale) - DI::point(1));
    if (!r.finite() || (r.hi > 0 && r.hi - r.lo > r.hi * 1e-12)) return std::nullopt;
    return make_interval(Real(std::max(0.0, r.lo)), Real(r.hi));
  };
  if (alpha == std::floor(alpha) && alpha <= 1e4) return rdp_of(integer_excess_fast(static_cast<std::int64_t>(alpha)), alpha);
  if (alpha > 1e4) return std::nullopt;
  const Interval a1 = exact(alpha) - 1;
  const auto series = rdp_of(fractional_excess_fast(alpha), alpha);
  std::optional<Interval> chord;
  if (alpha < 2) {
    chord = rdp_of(integer_excess_fast(2), 2);
  } else {
    const auto l = static_cast<std::int64_t>(std::floor(alpha));
    const auto el = rdp_of(integer_excess_fast(l), static_cast<double>(l));
    const auto eh = rdp_of(integer_excess_fast(l + 1), static_cast<double>(l + 1));
    if (el && eh) {
      const Interval a = exact(alpha), w = a - exact_int(l);
      chord = ((1 - w) * exact_int(l - 1) * *el + w * exact_int(l) * *eh) / a1;
    }
  }
  if (series && chord) return hi(*series) <= hi(*chord) ? series : chord;
  return series ? series : chord;
}

Interval SubsampledGaussianRdp::at(const Real& alpha) const {
  // Above order 2e4 the sums cost O(alpha) 200-bit operations (seconds at 5e6): the unsampled Gaussian
  // alpha/(2 z^2) (Mironov 2017, Prop. 7; subsampling never increases RDP) is a valid bound, and at such orders the
  // subsampled curve is within O(log(1/q)/alpha) relative of it.
  if (alpha > kMaxSummedOrder) return make_interval(alpha, alpha) / (2 * z_ * z_);
  const Interval a1 = make_interval(alpha, alpha) - 1;
  // A >= 1 always (D_alpha >= 0): clamp the lower end so the log is defined.
  auto rdp_of = [&](const Interval& A, const Interval& scale) {
    if (!is_finite(A)) return positive_infinity();
    const Interval Ac = make_interval(lo(A) < 1 ? Real(1) : lo(A), hi(A) < 1 ? Real(1) : hi(A));
    return log(Ac) / scale;
  };
  if (alpha == floor(alpha) && alpha <= 5e6) return rdp_of(integer_moment(alpha.convert_to<std::int64_t>()), a1);
  // Fractional: the exact series (its tail bound shrinks only polynomially near alpha = 1, so it is capped at
  // kMaxSeriesTerms terms and stays a valid but looser enclosure there), and the chord of (a-1) eps(a) between the
  // neighbouring integer orders (convexity, van Erven and Harremoes 2014, Thm 11; for a < 2, eps(a) <= eps(2)
  // by monotonicity). Both are upper bounds; the smaller upper end is kept.
  const Interval series = rdp_of(fractional_moment(alpha), a1);
  Interval chord;
  if (alpha < 2) {
    chord = rdp_of(integer_moment(2), exact(1.0));
  } else if (alpha <= 5e6) {
    const auto l = floor(alpha).convert_to<std::int64_t>();
    const Interval a = make_interval(alpha, alpha), w = a - exact_int(l);
    const Interval el = rdp_of(integer_moment(l), exact_int(l - 1)), eh = rdp_of(integer_moment(l + 1), exact_int(l));
    chord = ((1 - w) * exact_int(l - 1) * el + w * exact_int(l) * eh) / a1;
  } else {
    return series;
  }
  return hi(series) <= hi(chord) ? series : chord;
}

namespace {

// log(1 + x) for 0 <= x, rounded up: for x <= 1/16 the alternating series truncated after its positive 13th
// term (an upper bound: the terms decrease in magnitude; the omitted part is below x^14/14 < 2^-52 x/14), by
// Horner in binary64 intervals; above, MPFR's log1p rounded up.
double log1p_upper(double x) {
  if (!(x <= 0.0625)) return log1p_up(x);
  constexpr int kTerms = 13;
  const DI X = DI::point(x);
  DI p = DI::point(1) / DI::point(kTerms);
  for (int j = kTerms - 1; j >= 1; --j) {
    const DI c = DI::point(1) / DI::point(j);
    p = (j % 2 ? c : DI{-c.hi, -c.lo}) + X * p;  // (-1)^{j+1}/j + x p
  }
  return (X * p).hi;
}

}  // namespace

// A non-negative binary64 interval times a power of two, m 2^e, renormalised so that m.hi lies in [1/2, 1): sums and
// products of moments far beyond the double range (e^{k^2/(2z^2)} at k ~ 10^3 and z ~ 1) without overflow.
struct ScaledInterval {
  DoubleInterval m{0, 0};
  std::int64_t e = 0;
};

ScaledInterval normalised(ScaledInterval x) {
  if (!(x.m.hi > 0)) return {{0, 0}, 0};
  int k = 0;
  std::frexp(x.m.hi, &k);
  // Scaling by 2^-k is exact unless the lower end becomes subnormal: then 0 (still a lower bound).
  const double lo = std::ldexp(x.m.lo, -k);
  x.m = {lo < std::numeric_limits<double>::min() ? 0.0 : lo, std::ldexp(x.m.hi, -k)};
  x.e += k;
  return x;
}
ScaledInterval operator*(const ScaledInterval& a, const ScaledInterval& b) { return normalised({a.m * b.m, a.e + b.e}); }
ScaledInterval operator+(const ScaledInterval& a, const ScaledInterval& b) {
  if (!(a.m.hi > 0)) return b;
  if (!(b.m.hi > 0)) return a;
  const ScaledInterval& big = a.e >= b.e ? a : b;
  const ScaledInterval& small = a.e >= b.e ? b : a;
  const std::int64_t shift = small.e - big.e;  // <= 0
  // A term below 2^-1000 of the other is added as [0, 2^-1000] (its upper end is below 1 = 2 x big.m.hi's bound).
  const DoubleInterval s = shift < -1000 ? DoubleInterval{0, 0x1p-1000}
                                         : DoubleInterval{std::ldexp(small.m.lo, static_cast<int>(shift)),
                                                          std::ldexp(small.m.hi, static_cast<int>(shift))};
  return normalised({big.m + s, big.e});
}

// MTZ 2019, Sec. 3.2 at an integer order where e^{k/z^2} leaves the double range: A = sum_{k=0}^{a} t_k with t_0 =
// (1-q)^a and t_{k+1} = t_k (a-k)/(k+1) q/(1-q) e^{k/z^2}, all non-negative, in scaled binary64 intervals (e^{1/z^2}
// enclosed once by the Taylor enclosure, its powers by repeated multiplication: ~a ulps). A is then astronomically
// larger than 1, so log A = log m + e log 2 loses nothing to the 1 it contains. Upper bound on log(A)/(a-1), rounded up;
// +inf when the enclosure of log A is wider than 1e-9 relative (A too close to 1 for this form).
double scaled_integer_rdp_upper(std::int64_t a, const DoubleInterval& q, const DoubleInterval& one_minus_q,
                                const DoubleInterval& z2) {
  constexpr DI kLog2{0.69314718055994529, 0.69314718055994540};
  ScaledInterval t = normalised({DI::point(1), 0}), base = normalised({one_minus_q, 0});
  for (std::int64_t e = a; e > 0; e >>= 1, base = base * base)  // (1-q)^a by binary powering
    if (e & 1) t = t * base;
  const ScaledInterval ratio = normalised({q / one_minus_q, 0}), step = normalised({exp(DI::point(1) / z2), 0});
  ScaledInterval growth = normalised({DI::point(1), 0});  // e^{k/z^2}
  ScaledInterval sum = t;
  for (std::int64_t k = 0; k < a; ++k) {
    t = t * normalised({DI::point(static_cast<double>(a - k)) / DI::point(static_cast<double>(k + 1)), 0}) * ratio * growth;
    growth = growth * step;
    sum = sum + t;
  }
  if (!sum.m.finite() || !(sum.m.hi > 0)) return std::numeric_limits<double>::infinity();
  if (!(sum.m.lo > 0)) return std::numeric_limits<double>::infinity();
  const DI log_a = log(sum.m) + DI::point(static_cast<double>(sum.e)) * kLog2;
  if (!(log_a.lo > 0) || log_a.hi - log_a.lo > 1e-9 * log_a.lo) return std::numeric_limits<double>::infinity();
  return (log_a / DI::point(static_cast<double>(a - 1))).hi;
}

// MTZ 2019, Sec. 3.2 as in integer_excess_fast: A - 1 = sum_{k>=2} t_k, t_k = w_k E_k, E_k = e^{(k^2-k)h/2} - 1,
// h = 1/z^2, w_k the binomial pmf. The ratios rho_k = E_{k+1}/E_k do not depend on the order and are enclosed once
// per curve from the single MPFR enclosure of H = e^h - 1, by recursions of non-negative terms: D_k = e^{kh} - 1
// (D_1 = H, D_{k+1} = D_k + H + D_k H), F_k = 1/E_k (F_2 = 1/H), rho_k = 1 + D_k (1 + F_k), F_{k+1} = F_k/rho_k
// (from E_{k+1} = E_k + D_k + E_k D_k). Per order, t_2 = w_2 H and t_{k+1} = t_k (a-k)/(k+1) q/(1-q) rho_k, the
// running sum rescaled by 2^-600 whenever a term passes 2^600 (exact), so neither E_k nor A overflows. Then
// log1p(A - 1)/(a - 1) with MPFR's directed log1p (or log(A - 1) + s log 2 + 2^-500 when rescaled by 2^s). The
// enclosure of e^h carries into e^{(k^2-k)h/2} as ~k^2 ulps (5e-11 relative at k = 256): orders whose A - 1 is
// wider than 1e-9 relative fall back to certified_at. Upper bounds, rounded up (docs/rdp_double_precision.md, Sec. 4).
std::vector<double> SubsampledGaussianRdp::upper_at_integer_orders(const std::vector<std::int64_t>& orders) const {
  constexpr int kRescale = 600;
  std::int64_t top = 2;
  for (const auto a : orders) top = std::max(top, a);
  top = std::min<std::int64_t>(top, 10000);
  const DI h = DI::point(1) / dz2_, H = times_expm1(DI::point(1), h);
  std::vector<DI> rho(static_cast<std::size_t>(top) + 1, DI::point(0));  // rho[k] for 2 <= k < top
  std::int64_t rho_top = 2;                                               // rho[k] known for k < rho_top
  {
    DI D = H + H + H * H, F = DI::point(1) / H;  // D_2, F_2
    for (std::int64_t k = 2; k < top; ++k) {
      const DI r = DI::point(1) + D * (DI::point(1) + F);
      if (!r.finite() || !D.finite() || !(H.lo > 0)) break;
      rho[static_cast<std::size_t>(k)] = r;
      rho_top = k + 1;
      F = F / r;
      D = D + H + D * H;
    }
  }
  const DI ratio = dq_ / d1mq_, down_scale = DI::point(std::ldexp(1.0, -kRescale));
  std::vector<DI> step(rho.size()), inverse(rho.size() + 1);  // step[k] = rho_k q/(1-q); inverse[j] = 1/j
  for (std::size_t k = 2; k < rho.size(); ++k) step[k] = rho[k] * ratio;
  for (std::size_t j = 1; j < inverse.size(); ++j) inverse[j] = DI::point(1) / DI::point(static_cast<double>(j));
  constexpr DoubleInterval kLog2{0.69314718055994529, 0.69314718055994540};
  std::vector<double> out;
  out.reserve(orders.size());
  for (const auto a : orders) {
    std::optional<double> value;
    if (a >= 2 && a <= rho_top) {
      const DI ad = DI::point(static_cast<double>(a));
      DI w0 = DI::point(1), p = d1mq_;  // (1-q)^a by binary powering
      for (std::int64_t e = a; e > 0; e >>= 1, p = p * p)
        if (e & 1) w0 = w0 * p;
      DI t = w0 * ad * ratio * (DI::point(static_cast<double>(a - 1)) / DI::point(2)) * ratio * H;
      DI sum = t;
      std::int64_t scale = 0;  // sum and t are in units of 2^scale
      for (std::int64_t k = 2; k < a; ++k) {
        t = t * step[static_cast<std::size_t>(k)] * DI::point(static_cast<double>(a - k)) *
            inverse[static_cast<std::size_t>(k + 1)];
        if (t.hi > std::ldexp(1.0, kRescale)) {
          t = t * down_scale;
          sum = sum * down_scale;
          scale += kRescale;
        }
        sum = sum + t;
      }
      if (sum.finite() && sum.lo > 0 && sum.hi <= sum.lo * (1 + 1e-9)) {
        const DI a1 = ad - DI::point(1);
        // Upper ends only: log1p and log are increasing, so their upper ends need only sum.hi.
        if (scale == 0) {
          value = (DI::point(log1p_upper(sum.hi)) / a1).hi;
        } else {  // A - 1 = sum 2^scale >= 2^600: log(1 + x) <= log x + 1/x
          const DI l = DI::point(log_up(sum.hi)) + DI::point(static_cast<double>(scale)) * kLog2 +
                       DI::point(std::ldexp(1.0, -500));
          value = (l / a1).hi;
        }
      }
    }
    // Where e^{k/z^2} leaves the double range (the case that ends the ratio recursion above) or the ratios' widths
    // grow too large (orders of several hundred): the scaled sum of A itself, accepted when log A is enclosed to
    // 1e-9 relative (A far above 1). Otherwise certified_at.
    if (!value && a >= 2) {
      const double v = scaled_integer_rdp_upper(a, dq_, d1mq_, dz2_);
      if (std::isfinite(v)) value = v;
    }
    out.push_back(value ? *value : hi_up(certified_at(static_cast<double>(a))));
  }
  return out;
}

Interval SubsampledGaussianRdp::certified_at(double alpha) const {
  const auto fast = at_fast(alpha);
  return fast ? *fast : at(Real(alpha));
}

Interval SubsampledGaussianRdp::at_infinity() const { return positive_infinity(); }

double SubsampledGaussianRdp::evaluation_work(double alpha) const {
  if (alpha > 1e4) return 100;
  if (alpha == std::floor(alpha)) return 10 * alpha;  // batched (scaled where e^{k/z^2} leaves the double range)
  return 300 * (std::floor(alpha) + 22);
}

// Float64 versions of the same two formulas, for the order search only.
double SubsampledGaussianRdp::estimate(double a) const {
  const double q = q_, z = z_down_, z2 = z * z;
  // Above kMaxSummedOrder at() certifies the unsampled Gaussian alpha/(2 z^2) (Mironov 2017, Prop. 7): the estimate
  // follows it there instead of summing ~alpha terms (milliseconds per call in an order search).
  if (a > kMaxSummedOrder) return a / (2 * z2);
  double log_A = -std::numeric_limits<double>::infinity();
  if (a == std::floor(a) && a <= 5e6) {
    double lt = a * portable::binary64::log1p(-q);
    const double lr = portable::binary64::log(q) - portable::binary64::log1p(-q);
    log_A = lt;
    for (double k = 0; k < a; ++k) {
      lt += portable::binary64::log((a - k) / (k + 1)) + lr + k / z2;
      log_A = log_add_exp(log_A, lt);
    }
    return log_A / (a - 1);
  }
  // Fractional: the two series with signs (log of positive and negative parts kept apart) up to I = floor(a) + 1, then
  // the alternating tail from its next 12 magnitudes (completely monotone: alternating_moment_sum.h).
  const double z0 = z2 * portable::binary64::log(1 / q - 1) + 0.5, lq = portable::binary64::log(q), l1q = portable::binary64::log1p(-q);
  double pos = -std::numeric_limits<double>::infinity(), neg = pos;
  double log_coef = 0;
  int sign = 1;
  auto log_magnitude = [&](double i) {  // log |C(a,i)| (F0_i Phi + F1_i Phi)
    const double j = a - i;
    const double l0 = log_coef + i * lq + j * l1q + (i * i - i) / (2 * z2) + log_phi((z0 - i) / z);
    const double l1 = log_coef + j * lq + i * l1q + (j * j - j) / (2 * z2) + log_phi((j - z0) / z);
    return log_add_exp(l0, l1);
  };
  auto add = [&](double s) {
    if (sign > 0) pos = log_add_exp(pos, s); else neg = log_add_exp(neg, s);
  };
  // Next coefficient; false at an integer order once the coefficients vanish.
  auto advance = [&](double i) {
    const double f = (a - i) / (i + 1.0);
    if (f == 0) return false;
    if (f < 0) sign = -sign;
    log_coef += portable::binary64::log(std::abs(f));
    return true;
  };
  const double first_tail = std::floor(a) + 1;
  bool more = true;
  for (double i = 0; i < first_tail && more; ++i) {
    add(log_magnitude(i));
    more = advance(i);
  }
  if (more) {
    const int tail_sign = sign;
    std::array<double, kAlternatingEstimateTerms> g{};
    const double ref = log_magnitude(first_tail);
    for (int k = 0; k < kAlternatingEstimateTerms; ++k) {
      const double i = first_tail + k;
      g[static_cast<std::size_t>(k)] = portable::binary64::exp(log_magnitude(i) - ref);
      advance(i);
    }
    const double tail = alternating_moment_sum_estimate(g);
    sign = tail_sign;
    if (tail > 0 && std::isfinite(ref)) add(ref + portable::binary64::log(tail));
  }
  if (neg >= pos) return 0;  // round-off; never reported
  log_A = pos + portable::binary64::log1p(-portable::binary64::exp(neg - pos));
  return std::max(0.0, log_A / (a - 1));
}

}  // namespace dpl
