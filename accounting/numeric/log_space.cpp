// SPDX-License-Identifier: Apache-2.0
#include "accounting/numeric/log_space.h"

#include <limits>
#include <stdexcept>

namespace dpl {

Interval negative_infinity() { return -positive_infinity(); }

namespace {
bool is_minus_inf(const Interval& x) { return hi(x) == -std::numeric_limits<double>::infinity(); }
}  // namespace

// log(e^a + e^b) = max + log1p(e^{min - max}); exact identity, enclosure by MPFI.
Interval log_add_exp(const Interval& a, const Interval& b) {
  if (is_minus_inf(a)) return b;
  if (is_minus_inf(b)) return a;
  // Evaluate with the larger on top; when intervals overlap, both orders enclose the same value.
  if (certainly_ge(a, b)) return a + log1p(exp(b - a));
  if (certainly_ge(b, a)) return b + log1p(exp(a - b));
  return hull(a + log1p(exp(b - a)), b + log1p(exp(a - b)));
}

Interval log1mexp(const Interval& x) {
  if (hi(x) >= 0) throw std::domain_error("internal: log1mexp needs x < 0");
  if (is_minus_inf(x)) return exact(0.0);
  const Interval minus_log2 = -log2();
  if (certainly_ge(x, minus_log2)) return log(-expm1(x));
  if (certainly_le(x, minus_log2)) return log1p(-exp(x));
  return hull(log(-expm1(x)), log1p(-exp(x)));
}

Interval logexpm1(const Interval& x) { return x + log1mexp(-x); }

// log(e^a - e^b) = a + log1mexp(b - a), for a > b.
Interval log_sub_exp(const Interval& a, const Interval& b) {
  if (is_minus_inf(b)) return a;
  if (!certainly_gt(a, b)) throw std::domain_error("internal: log_sub_exp needs a > b certainly");
  return a + log1mexp(b - a);
}

Interval log_sum_exp(std::span<const Interval> xs) {
  if (xs.empty()) return negative_infinity();
  // Largest upper endpoint as the pivot: sum e^{x_i - pivot} is at most n and never overflows.
  Real pivot = hi(xs[0]);
  for (const auto& x : xs)
    if (hi(x) > pivot) pivot = hi(x);
  if (pivot == -std::numeric_limits<double>::infinity()) return negative_infinity();
  const Interval p = make_interval(pivot, pivot);
  Interval s = exact(0.0);
  for (const auto& x : xs) {
    if (is_minus_inf(x)) continue;
    s += exp(x - p);
  }
  return p + log(s);
}

// log C(n,k) = lgamma(n+1) - lgamma(k+1) - lgamma(n-k+1); exact for k in {0, n}.
Interval log_binomial(std::int64_t n, std::int64_t k) {
  if (k < 0 || k > n) throw std::domain_error("internal: log_binomial needs 0 <= k <= n");
  if (k == 0 || k == n) return exact(0.0);
  return lgamma(exact_int(n + 1)) - lgamma(exact_int(k + 1)) - lgamma(exact_int(n - k + 1));
}

// |C(n,k)| = prod_{j=0}^{k-1} |n - j| / k! for real n; sign = prod sign(n - j).
Interval log_abs_binomial_real(const Interval& n, std::int64_t k, int* sign) {
  if (k < 0) throw std::domain_error("internal: log_abs_binomial_real needs k >= 0");
  Interval acc = exact(0.0);
  int s = 1;
  for (std::int64_t j = 0; j < k; ++j) {
    const Interval f = n - exact_int(j);
    if (contains_zero(f)) {
      if (lo(f) == 0 && hi(f) == 0) {
        if (sign) *sign = 0;
        return negative_infinity();
      }
      throw std::domain_error("internal: binomial factor straddles zero");
    }
    if (certainly_lt(f, exact(0.0))) s = -s;
    acc += log(abs(f));
  }
  acc -= lgamma(exact_int(k + 1));
  if (sign) *sign = s;
  return acc;
}

// erfc(x) = 2 Phi(-x sqrt 2), so log erfc(x) = log 2 + log Phi(-x sqrt 2).
Interval log_erfc(const Interval& x) { return log2() + log_normal_cdf(-x * sqrt(exact(2.0))); }

}  // namespace dpl
