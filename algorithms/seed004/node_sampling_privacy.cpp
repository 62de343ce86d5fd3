// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed004/node_sampling_privacy.h"

#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/mechanisms/analytic_gaussian.h"
#include "accounting/numeric/interval.h"
#include "accounting/numeric/portable_math.h"
#include "algorithms/run/shortest_decimal.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace dpl::algorithms::seed004 {

double loss_lipschitz_bound(LossKind loss) {
  if (loss != LossKind::hinge && loss != LossKind::logistic)
    throw NotApplicable("loss=" + to_string(loss) + ": DP-DDA's Assumption 3 needs an L-Lipschitz loss with a bound "
                        "from the data domain; allowed hinge, logistic");
  const double sup_derivative = 1.0;  // hinge: |d/dm| in {0, 1}; logistic: 1/(1 + e^m) < 1
  const double max_row_norm = 1.0;    // declared domain: the set-up scales every feature row to unit l2 norm
  return sup_derivative * max_row_norm;
}

double theorem1_sigma(const Theorem1& p) {
  // Liu-Johansson-Shi Theorem 1: sigma^2 >= 32 iota^2 L^2 T log(2/delta0) / (q^2 eps^2) (upper: rounded up).
  const Interval iota = exact(p.iota), L = exact(p.L);
  const Interval v = exact(p.constant) * iota * iota * L * L * exact_int(p.T) * log(exact_int(2) / exact(p.delta0));
  return hi_up(sqrt(v) / (exact_int(p.q) * exact(p.epsilon)));
}

bool theorem1_conditions_hold(const Theorem1& p) {
  if (!(p.epsilon > 0 && p.epsilon <= 1 && p.delta0 > 0 && p.delta0 <= 1)) return false;
  // T >= 5 eps^2 / (4 iota^2) (Theorem 1), decided exactly in intervals.
  return certainly_ge(exact_int(4) * exact(p.iota) * exact(p.iota) * exact_int(p.T),
                      exact_int(5) * exact(p.epsilon) * exact(p.epsilon));
}

double remark1_running_epsilon(double epsilon, std::int64_t t, std::int64_t T) {
  // Remark 1 (7): eps_hat <= sqrt(3t/(5T)) eps + t eps^2/(5T) (upper: rounded up).
  const Interval e = exact(epsilon), r = exact_int(t) / (exact_int(5) * exact_int(T));
  return hi_up(sqrt(exact_int(3) * r) * e + r * e * e);
}

ProofChain theorem1_proof_chain(const Theorem1& p) {
  // (17)-(18): sum_t (2 iota eps_t)^2 = 32 eps^2/constant; Lemma 3 (KOV) with delta' = sqrt(S) (upper bounds).
  const Interval S = exact_int(32) * exact(p.epsilon) * exact(p.epsilon) / exact(p.constant);
  const Interval dprime = sqrt(S);
  const Interval eps = sqrt(exact_int(2) * S * log(exp(exact_int(1)) + exact_int(1))) + S;
  ProofChain c;
  c.sum_sq = hi_up(S);
  c.epsilon = hi_up(eps);
  if (!certainly_lt(dprime, exact_int(1))) {
    c.delta = 1;
  } else {
    const Interval keep = pow(exact_int(1) - exact(p.iota) * exact(p.delta0), exact_int(p.T));
    c.delta = std::min(1.0, hi_up(exact_int(1) - (exact_int(1) - dprime) * keep));
  }
  return c;
}

double binomial_upper_tail(std::int64_t T, double p, std::int64_t k) {
  if (k > T) return 0;
  if (p >= 1) return 1;
  if (!(static_cast<double>(k) > static_cast<double>(T) * p)) return 1;
  // Hoeffding 1963 Thm 1: P(K >= k) <= exp(-T KL(a || p)), a = k/T; KL certified from below (rounded down).
  const Interval a = exact_int(k) / exact_int(T), P = exact(p);
  Interval kl = a * log(a / P);
  if (k < T) kl += (exact_int(1) - a) * log((exact_int(1) - a) / (exact_int(1) - P));
  return std::min(1.0, hi_up(exp(-exact_int(T) * kl)));
}

ObservableAccounting account_observable_activation(LedgerEntry per_step, std::int64_t T, double p, double delta) {
  ObservableAccounting out;
  out.delta = delta;
  // Smallest k* in [0, T] with P(K >= k* + 1) <= delta/100 (the bound is non-increasing in k).
  const double budget = delta / 100;
  std::int64_t lo = 0, hi = T;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (binomial_upper_tail(T, p, mid + 1) <= budget) hi = mid;
    else lo = mid + 1;
  }
  out.active_bound = lo;
  out.tail = binomial_upper_tail(T, p, lo + 1);
  if (out.active_bound == 0) {
    out.epsilon = 0;
    out.accountant = "none (the node is never active except with probability tail)";
    return out;
  }
  per_step.steps = out.active_bound;
  const double target = std::nextafter(delta - out.tail, 0.0);  // delta_{k*} + tail <= delta
  const AccountingResult r = compose(Ledger{per_step}, Target::for_delta(target), AccountantKind::automatic);
  out.epsilon = hi_up(r.epsilon);
  out.accountant = r.accountant;
  out.spec = "gaussian:sigma=" + shortest_decimal(per_step.mechanism.sigma) + ",sens=" + shortest_decimal(per_step.mechanism.sens) +
             (per_step.subsampled() ? ",q=" + shortest_decimal(per_step.q) + ",sampling=" + to_string(per_step.sampling) : "") +
             ",steps=" + std::to_string(per_step.steps);
  return out;
}

std::optional<double> observable_gaussian_mixture_epsilon(double mu, std::int64_t T, double p, double delta,
                                                          double eps_upper) {
  const double budget = delta / 100;
  std::int64_t lo = 0, hi = T;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (binomial_upper_tail(T, p, mid + 1) <= budget) hi = mid;
    else lo = mid + 1;
  }
  const std::int64_t kmax = lo;
  if (kmax > 20000) return std::nullopt;
  const Interval tail = exact(binomial_upper_tail(T, p, kmax + 1));
  // P(K = k) = exp(lgamma(T+1) - lgamma(k+1) - lgamma(T-k+1) + k log p + (T-k) log(1-p)), certified.
  std::vector<Interval> pmf;
  const Interval P = exact(p), lgT = lgamma(exact_int(T + 1));
  for (std::int64_t k = 0; k <= kmax; ++k) {
    Interval e = lgT - lgamma(exact_int(k + 1)) - lgamma(exact_int(T - k + 1));
    if (k > 0) e += exact_int(k) * log(P);
    if (T - k > 0 && p < 1) e += exact_int(T - k) * log1p(-P);
    pmf.push_back(p < 1 || k == T ? exp(e) : exact_int(0));
  }
  const Interval m = exact(mu);
  auto delta_hi = [&](double eps) {
    Interval sum = tail;
    for (std::int64_t k = 1; k <= kmax; ++k)
      sum += pmf[static_cast<std::size_t>(k)] * analytic_gaussian_delta(m * sqrt(exact_int(k)), exact(eps));
    return hi_up(sum);
  };
  // Search in binary64 (the same formula with std::erfc), then certify the answer (nudged up until certified).
  std::vector<double> pmf_d;
  for (const auto& w : pmf) pmf_d.push_back(mid_double(w));
  const double tail_d = hi_up(tail);
  auto delta_approx = [&](double eps) {
    double sum = tail_d;
    for (std::int64_t k = 1; k <= kmax; ++k) {
      const double mk = mu * std::sqrt(static_cast<double>(k));
      sum += pmf_d[static_cast<std::size_t>(k)] * (0.5 * portable::erfc(-(mk / 2 - eps / mk) / std::sqrt(2.0)) -
                                                   portable::binary64::exp(eps) * 0.5 * portable::erfc((mk / 2 + eps / mk) / std::sqrt(2.0)));
    }
    return sum;
  };
  double a = 0, b = eps_upper;
  for (int it = 0; it < 200 && b - a > 1e-12 * b; ++it) {
    const double c = 0.5 * (a + b);
    if (delta_approx(c) <= delta) b = c;
    else a = c;
  }
  for (double nudge = 1e-9; nudge < 1; nudge *= 10) {
    const double c = std::min(eps_upper, b * (1 + nudge));
    if (delta_hi(c) <= delta) return c;
  }
  if (!(delta_hi(eps_upper) <= delta)) return std::nullopt;
  b = eps_upper;
  return b;
}

}  // namespace dpl::algorithms::seed004
