// SPDX-License-Identifier: Apache-2.0
#include "accounting/pld/loss_pair_discrete.h"

#include "accounting/numeric/portable_math.h"
#include "accounting/errors.h"
#include "accounting/pld/loss_pair_atoms.h"

#include <cmath>

namespace dpl {

namespace {
// Absolute error bound of a loss computed by a few long-double operations from exact inputs and rounded to double.
double loss_error(long double l) { return static_cast<double>(std::fabs(l)) * 0x1p-52 + 1e-300; }

// An atom from long-double values: the loss rounded to double (its error added), the mass rounded to double
// (relative error u/2 on top of its own).
void add(LossAtoms& atoms, long double loss, long double mass) {
  atoms.add(static_cast<double>(loss), loss_error(loss), static_cast<double>(mass));
}
}  // namespace

// Header: three atoms. Masses A and B to a few u_ld; the loss log1p(k(1-p)/p) to a few u_ld relative.
LossPair k_randomized_response_pair(double p, std::int64_t k) {
  const long double kk = static_cast<long double>(k), pp = p;
  const long double b = pp / kk, a = 1 - pp + b, l = portable::log1p(kk * (1 - pp) / pp);
  LossAtoms atoms(static_cast<double>(-l) - 1, static_cast<double>(l) + 1, 3);
  add(atoms, l, a);
  add(atoms, -l, b);
  if (k > 2) add(atoms, 0.0L, (kk - 2) * b);
  return atoms.finish(0.0);
}

// Header. Masses: tanh(a/2) = -expm1(-a)/(1 + e^{-a}) and e^{-a x} in long double (arguments below ~11400 before
// they underflow): relative error a few u_ld plus u_ld |a x| <= 1e-16 where the mass is a normal double.
LossPair discrete_laplace_pair(double a, std::int64_t s) {
  if (s > 1000000)
    throw NotApplicable("accountant 'pld': discrete_laplace with sens above 1e6 is not supported (one atom per "
                        "integer); use rdp, pure or auto");
  const long double al = a, e_a = portable::exp(-al), top = al * static_cast<long double>(s);
  LossAtoms atoms(static_cast<double>(-top) - 1, static_cast<double>(top) + 1, static_cast<double>(s + 1));
  add(atoms, top, 1 / (1 + e_a));
  add(atoms, -top, portable::exp(-top) / (1 + e_a));
  const long double tanh_half = -portable::expm1(-al) / (1 + e_a);
  for (std::int64_t x = 1; x < s; ++x) {
    const long double l = al * static_cast<long double>(s - 2 * x);
    add(atoms, l, tanh_half * portable::exp(-al * static_cast<long double>(x)));
  }
  return atoms.finish(0.0);
}

// Header. Theta: Jacobi's identity Theta = sqrt(2 pi) sigma (1 + 2 sum_k e^{-2 pi^2 sigma^2 k^2}) for sigma >= 1
// (the sum's terms fall below 1e-30 of the first after k = 3), the direct sum 1 + 2 sum_x e^{-x^2/(2 sigma^2)} below
// (at most ~12 terms); both in long double, a few u_ld. Masses e^{-x^2/(2 sigma^2) - log Theta}: arguments below ~72
// in magnitude, relative error < 3e-17.
LossPair discrete_gaussian_pair(double sigma, std::int64_t s) {
  const long double sg = sigma, two_s2 = 2 * sg * sg;
  const long double pi = 3.141592653589793238462643383279502884L;  // pi rounded to long double at compile time
  long double theta = 0;
  if (sg >= 1) {
    long double sum = 1;
    for (int k = 1; k <= 8; ++k) sum += 2 * portable::exp(-2 * pi * pi * sg * sg * k * k);
    theta = std::sqrt(2 * pi) * sg * sum;
  } else {
    theta = 1;
    for (int x = 1; x <= 64; ++x) theta += 2 * portable::exp(-static_cast<long double>(x) * x / two_s2);
  }
  const long double log_theta = portable::log(theta);
  // X with 2 e^{-(X+1)^2/(2 sigma^2)}/(1 - e^{-(X+1)/sigma^2})/Theta <= 1e-30.
  auto tail = [&](long double x1) { return 2 * portable::exp(-x1 * x1 / two_s2) / -portable::expm1(-x1 / (sg * sg)) / theta; };
  long double x_max = std::ceil(sg * std::sqrt(2 * portable::log(1e30L)));
  while (tail(x_max + 1) > 1e-30L) x_max += std::max(1.0L, std::ceil(sg / 8));
  if (2 * x_max + 1 > 4e7L)
    throw NotApplicable("accountant 'pld': discrete_gaussian with sigma " + std::to_string(sigma) +
                        " needs more than 4e7 atoms (one per integer); use rdp or auto");
  const auto xm = static_cast<std::int64_t>(x_max);
  const long double sl = static_cast<long double>(s);
  const long double lo = sl * (sl - 2 * x_max) / two_s2, hi = sl * (sl + 2 * x_max) / two_s2;
  LossAtoms atoms(static_cast<double>(lo) - 1e-9 - std::abs(static_cast<double>(lo)) * 1e-12,
                  static_cast<double>(hi) + 1e-9 + std::abs(static_cast<double>(hi)) * 1e-12,
                  static_cast<double>(2 * xm + 1));
  for (std::int64_t x = -xm; x <= xm; ++x) {
    const long double xl = static_cast<long double>(x);
    const long double l = sl * (sl - 2 * xl) / two_s2;
    add(atoms, l, portable::exp(-xl * xl / two_s2 - log_theta));
  }
  return atoms.finish(static_cast<double>(tail(x_max + 1) * 1.01L));
}

}  // namespace dpl
