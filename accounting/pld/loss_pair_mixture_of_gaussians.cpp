// SPDX-License-Identifier: Apache-2.0
#include "accounting/pld/loss_pair_mixture_of_gaussians.h"

#include "accounting/numeric/portable_math.h"
#include "accounting/numeric/infinity.h"
#include "accounting/pld/normal_tails.h"

#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>

namespace dpl {

namespace {

struct Mixture {
  std::vector<long double> s, log_p, p;  // s_i = c_i/sigma (long double quotient of the doubles), log p_i
  long double log_p0 = -INFINITY;        // log of the total probability of c_i = 0 (-inf if none)
  long double p0 = 0;

  // F(z) and F'(z).
  void f(long double z, long double& value, long double& slope) const {
    long double mx = -INFINITY;
    for (std::size_t i = 0; i < s.size(); ++i) mx = std::max(mx, log_p[i] + s[i] * z - s[i] * s[i] / 2);
    long double sum = 0, ds = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      const long double t = portable::exp(log_p[i] + s[i] * z - s[i] * s[i] / 2 - mx);
      sum += t;
      ds += s[i] * t;
    }
    value = mx + portable::log(sum);
    slope = ds / sum;
  }

  // z*(l) with F(z*) = l, for l above the infimum of F; -inf when the root lies below -1e4 (F is then within
  // e^{-1e4 s_min} of its infimum: every survival value below is 1 to long double precision).
  long double root(long double l) const {
    // Start right of the root: F(z) >= log p_j + s_j z - s_j^2/2 for every j, so z0 = min_j (l - log p_j + s_j^2/2)/s_j
    // has F(z0) >= l.
    long double z = INFINITY;
    for (std::size_t i = 0; i < s.size(); ++i)
      if (s[i] > 0) z = std::min(z, (l - log_p[i] + s[i] * s[i] / 2) / s[i]);
    for (int it = 0; it < 500; ++it) {
      long double v = 0, d = 0;
      f(z, v, d);
      if (!(v > l) || !(d > 0)) return z;  // at the root (to rounding)
      const long double step = (v - l) / d;
      const long double next = z - step;
      if (next < -1e4L) return -INFINITY;
      if (!(next < z) || step <= 4e-19L * std::fabs(z)) return next;
      z = next;
    }
    return z;
  }
};

}  // namespace

LossPair mixture_of_gaussians_pair(double sigma, const std::vector<double>& sens, const std::vector<double>& probs,
                                   PairDirection d) {
  if (sens.size() != probs.size() || sens.empty()) throw std::invalid_argument("internal: mixture pair sizes");
  auto m = std::make_shared<Mixture>();
  for (std::size_t i = 0; i < sens.size(); ++i) {
    if (probs[i] <= 0) continue;
    if (sens[i] == 0) {
      m->p0 += probs[i];
      continue;
    }
    m->s.push_back(static_cast<long double>(sens[i]) / sigma);
    m->p.push_back(probs[i]);
    m->log_p.push_back(portable::log(static_cast<long double>(probs[i])));
  }
  if (m->s.empty()) throw std::invalid_argument("internal: mixture pair without a positive sensitivity");
  if (m->p0 > 0) {
    m->s.push_back(0);
    m->p.push_back(m->p0);
    m->log_p0 = portable::log(m->p0);
    m->log_p.push_back(m->log_p0);
  }
  // The infimum of F is log p0 (F -> log p0 as z -> -inf); its double below is a valid support end.
  const double inf_f = m->p0 > 0 ? std::nextafter(static_cast<double>(m->log_p0), -kInf) : -kInf;
  // P- and Q-survival of the remove pair at loss l (l above the infimum), sharing z*.
  auto remove_both = [m](double l, double& sp, double& sq) {
    if (m->p0 > 0 && static_cast<long double>(l) <= m->log_p0) {
      sp = sq = 1.0;
      return;
    }
    const long double z = m->root(l);
    if (z == -INFINITY) {
      sp = sq = 1.0;
      return;
    }
    long double a = 0;
    for (std::size_t i = 0; i < m->s.size(); ++i) a += m->p[i] * normal_upper_tail(z - m->s[i]);
    sp = static_cast<double>(a);
    sq = static_cast<double>(normal_upper_tail(z));
  };
  // Add: P = N(0), Q = the mixture, loss -F(z): L > l iff F(z) < -l iff z < z*(-l).
  auto add_both = [m](double l, double& sp, double& sq) {
    if (m->p0 > 0 && static_cast<long double>(-l) <= m->log_p0) {
      sp = sq = 0.0;
      return;
    }
    const long double z = m->root(-static_cast<long double>(l));
    if (z == -INFINITY) {
      sp = sq = 0.0;
      return;
    }
    long double b = 0;
    for (std::size_t i = 0; i < m->s.size(); ++i) b += m->p[i] * normal_lower_tail(z - m->s[i]);
    sp = static_cast<double>(normal_lower_tail(z));
    sq = static_cast<double>(b);
  };
  LossPair p;
  if (d == PairDirection::remove) {
    p.survival_both = remove_both;
    p.support_lo = inf_f;
    p.support_hi = kInf;
  } else {
    p.survival_both = add_both;
    p.support_lo = -kInf;
    p.support_hi = -inf_f;
  }
  survivals_from_both(p);
  return p;
}

}  // namespace dpl
