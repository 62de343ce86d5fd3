#include "algorithms/seed004/node_sampling_privacy.h"

#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/numeric/interval.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

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

namespace {
std::string shortest(double x) {
  char buf[64];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, x);
    if (std::strtod(buf, nullptr) == x) return buf;
  }
  return std::to_string(x);
}
}  // namespace

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
  out.spec = "gaussian:sigma=" + shortest(per_step.mechanism.sigma) + ",sens=" + shortest(per_step.mechanism.sens) +
             (per_step.subsampled() ? ",q=" + shortest(per_step.q) + ",sampling=" + to_string(per_step.sampling) : "") +
             ",steps=" + std::to_string(per_step.steps);
  return out;
}

}  // namespace dpl::algorithms::seed004
