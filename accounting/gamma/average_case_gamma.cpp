// SPDX-License-Identifier: Apache-2.0
#include "accounting/gamma/average_case_gamma.h"

#include "accounting/errors.h"
#include "accounting/gamma/certified_gamma.h"
#include "accounting/numeric/portable_math.h"

#include <boost/math/quadrature/gauss_kronrod.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dpl {

namespace {

// The formulas below in one body for Real (MPFR, 200 bits) and double (binary64 estimates); ADL picks the
// multiprecision functions for Real.
template <class T>
T window_t(const T& u, const T& y) {
  using portable::binary64::exp;
  using portable::binary64::expm1;
  const T one_minus = -expm1(T(-u));
  if (y < 0) return T(exp(y) * one_minus);
  if (y > u) return T(exp(T(u - y)) * one_minus);
  return T(-expm1(T(-y)) - expm1(T(-(u - y))));
}

template <class T>
T pointwise_loss_t(const T& u, const T& e, const T& y_in) {
  using portable::binary64::exp;
  using portable::binary64::expm1;
  using portable::binary64::log;
  using portable::binary64::log1p;
  if (y_in <= 0 || y_in >= u) return e;
  const T y = y_in <= u / 2 ? T(y_in) : T(u - y_in);  // symmetry y -> u - y
  if (y < e) return T((e - y) + log(T(window_t(u, y) / T(-expm1(T(-u))))));
  // e^{-y} expm1(e) written as e^{e-y} (1 - e^{-e}) (y >= e here): no overflow at large e in binary64.
  const T diff = exp(T(e - y)) * T(-expm1(T(-e))) + exp(T(-(u - y))) * expm1(T(-e));
  return T(log1p(T(diff / window_t(u, T(y - e)))));
}

template <class T>
T thesis_eq_2_6_t(const T& u, const T& e) {
  using portable::binary64::exp;
  using portable::binary64::expm1;
  using portable::binary64::log;
  const T a = (u - e) / 2;
  // 1 - 2 m1 = [e - expm1(-a) + e^{a-u} - e^{-u}]/u (u - 2a = e), formed without cancellation.
  const T one_minus_2m1 = (e - expm1(T(-a)) + exp(T(a - u)) - exp(T(-u))) / u;
  const T m2 = (2 * a - (exp(T(-e)) - exp(T(-(a + e)))) - (exp(T(a + e - u)) - exp(T(e - u)))) / (2 * u);
  return T(1 + log(T(one_minus_2m1 + 2 * m2 * exp(T(-e)))) / e);
}

}  // namespace

// J(y) = int_0^u e^{-|y-z|} dz: e^y (1 - e^{-u}) for y < 0; 2 - e^{-y} - e^{-(u-y)} inside, evaluated as
// -expm1(-y) - expm1(-(u-y)) (no cancellation for tiny u); e^{-(y-u)} (1 - e^{-u}) above (docs/xiao2019.md). Exact.
Real laplace_window(const Real& u, const Real& y) { return window_t(u, y); }

// Theta(y), symmetric about u/2; outside (0, u) exactly e (Thm 2.2.1). For y <= u/2 the worst shift is +e:
// y < e: (e - y) + log(J(y)/(1 - e^{-u})); y >= e: log1p((J(y) - J(y-e))/J(y-e)) with
// J(y) - J(y-e) = e^{-y} expm1(e) + e^{-(u-y)} expm1(-e) (docs/xiao2019.md). Exact.
Real pointwise_loss(const Real& u, const Real& e, const Real& y) { return pointwise_loss_t(u, e, y); }

// Eq. (2.6) as printed (Xiao 2019 Thm 2.2.2), in closed form with a = (u - e)/2 >= 0 (docs/xiao2019.md):
// m1 = [2a - (1 - e^{-a}) - e^{-u}(e^a - 1)]/(2u), m2 = [2a - (e^{-e} - e^{-(a+e)}) - e^{-u}(e^{a+e} - e^e)]/(2u),
// value log(e^e (1 - 2 m1) + 2 m2)/e = 1 + log((1 - 2 m1) + 2 m2 e^{-e})/e (1 - 2 m1 >= e/u > 0), with every
// exponent <= 0 so that no parameter overflows. The printed formula's value (not a bound).
Real thesis_eq_2_6(const Real& u, const Real& e) { return thesis_eq_2_6_t(u, e); }

// The same printed formula in binary64 (an estimate: the value of a formula that is not a bound anyway).
double thesis_eq_2_6_estimate(double u, double e) { return thesis_eq_2_6_t(u, e); }

GammaResult average_case_gamma(double omega, double beta, double shift, GammaQuadrature quadrature) {
  if (!(omega > 0 && std::isfinite(omega))) throw InputError("--omega=" + std::to_string(omega) + " is out of range: allowed (0, inf)");
  if (!(beta > 0 && std::isfinite(beta))) throw InputError("--beta=" + std::to_string(beta) + " is out of range: allowed (0, inf)");
  if (!(shift > 0 && std::isfinite(shift))) throw InputError("--shift=" + std::to_string(shift) + " is out of range: allowed (0, inf)");
  const Real u = Real(beta) * Real(omega), e = Real(beta) * Real(shift);
  using boost::math::quadrature::gauss_kronrod;
  auto integrand = [&](const Real& y) -> Real { return laplace_window(u, y) / (2 * u) * pointwise_loss(u, e, y); };
  // Extreme shifts (e >= 1e6): the midpoint of the certified closed-form enclosure (relative width ~ 1/e) as the
  // estimate; the adaptive quadrature cannot resolve an integrand of size e on a window of size 1.
  if (e >= 1e6) {
    const GammaEnclosure c = certified_gamma(exact(beta) * exact(omega), exact(beta) * exact(shift));
    GammaResult r;
    r.gamma = mid(c.gamma);
    r.quadrature_error = width(c.gamma) / 2;
    r.thesis_applies = e < u && e > Real("1e-30");  // below, the printed formula cancels at 200 bits
    r.thesis_bound = r.thesis_applies ? thesis_eq_2_6(u, e) : Real(1);
    r.small_shift = -2 * expm1(Real(-u / 2)) / u;
    return r;
  }
  // Past y = e + 100 the integrand is below e^{-100} times its size (see certified_gamma.cpp): integrating
  // further on a huge window (u = 1e300) only costs time.
  const Real half = u / 2 < e + 100 ? u / 2 : e + 100;
  const Real kink = e < half ? e : half;  // y = e: y - e crosses 0 (docs/xiao2019.md)
  Real err1 = 0, err2 = 0;
  // Relative tolerance 1e-40; the depth is capped at 15 (at most 2^15 panels): with depth 30 a tolerance the
  // working precision cannot meet (e.g. u = beta omega < 1e-10) recursed for ever. The error estimate is
  // reported either way.
  const Real tol = Real(quadrature.tolerance);
  // Depth 10 (at most 2^10 panels of 61 points, ~0.2 s): deeper recursion at extreme parameters (u = 1e-300
  // with e = 1) ran for minutes; the error estimate reports what was reached, and gamma_lower/upper are certified.
  const unsigned kMaxDepth = std::min(quadrature.max_depth, 10u);
  Real integral = gauss_kronrod<Real, 61>::integrate(integrand, Real(0), kink, kMaxDepth, tol, &err1);
  if (kink < half) integral += gauss_kronrod<Real, 61>::integrate(integrand, kink, half, kMaxDepth, tol, &err2);
  GammaResult r;
  r.gamma = -expm1(Real(-u)) / u + 2 * integral / e;
  r.quadrature_error = 2 * (abs(err1) + abs(err2)) / e;
  r.thesis_applies = e < u && e > Real("1e-30");  // below, the printed formula cancels at 200 bits
  r.thesis_bound = r.thesis_applies ? thesis_eq_2_6(u, e) : Real(1);
  // gamma_0 = 2 (1 - e^{-u/2})/u (docs/xiao2019.md, the limit e -> 0).
  r.small_shift = -2 * expm1(Real(-u / 2)) / u;
  return r;
}

double realised_coordinate_loss(double x, double lo, double hi, double beta, double shift) {
  if (!(hi >= lo) || !(beta > 0) || !(shift > 0)) throw InputError("realised loss: need hi >= lo, beta > 0, shift > 0");
  const Real u = Real(beta) * Real(hi - lo), e = Real(beta) * Real(shift);
  if (u == 0) return (e).convert_to<double>();  // fixed aggregation: the Laplace mechanism, loss beta s
  return pointwise_loss(u, e, Real(beta) * (Real(x) - Real(lo))).convert_to<double>();
}

// Lemma 2.2.1 / Thm 2.2.1, the same Theta in binary64: every term is in [0, beta s], formed with expm1/log1p and
// overflow-free exponents; its absolute error is a few ulps of max(1, beta s) (tested below 1e-13 max(1, beta s);
// an estimate: the audit recomputes the runs it reports at 200 bits).
double realised_coordinate_loss_estimate(double x, double lo, double hi, double beta, double shift) {
  if (!(hi >= lo) || !(beta > 0) || !(shift > 0)) throw InputError("realised loss: need hi >= lo, beta > 0, shift > 0");
  const double u = beta * (hi - lo), e = beta * shift;
  if (u == 0) return e;
  return pointwise_loss_t(u, e, beta * (x - lo));
}

RunLoss realised_run_loss(const std::vector<double>& released, const std::vector<double>& lo,
                          const std::vector<double>& hi, const std::vector<double>& beta, double shift) {
  if (released.size() != lo.size() || lo.size() != hi.size() || hi.size() != beta.size())
    throw InputError("realised loss: released values, interval ends and rates must have the same length");
  RunLoss r;
  for (std::size_t i = 0; i < released.size(); ++i) {
    r.realised += realised_coordinate_loss(released[i], lo[i], hi[i], beta[i], shift);
    r.worst += beta[i] * shift;
  }
  return r;
}

}  // namespace dpl
