// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed001/ratio_series.h"

#include "accounting/errors.h"
#include "accounting/numeric/portable_math.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <vector>

// Proof of the enclosure (f(x) = num(x)/den(x) for real x > 0):
//
// (1) Complete monotonicity. num is completely monotone (CM): a/(1 + b x^c) with b >= 0, 0 <= c <= 1 is the
//     reciprocal of the positive Bernstein function 1 + b x^c, hence CM (Schilling-Song-Vondracek, Bernstein
//     functions, Thm 3.7); a x^c with c <= 0 is CM. 1/den is CM: a + b x^c with a, b >= 0, 0 <= c <= 1 is Bernstein;
//     1/(a x^c) with c >= 0 is CM; constants are CM. Products of CM functions are CM, so f^(n) has the sign (-1)^n
//     on (0, inf), and f^(n)(x) -> 0 as x -> inf for n >= 1 (f^(n) is monotone and f^(n-1) has a finite limit).
//
// (2) Euler-Maclaurin (DLMF 2.10.1) on integers a..b, with m - 1 correction terms:
//       Sum_{k=a}^{b} f(k) = Int_a^b f + (f(a) + f(b))/2 + Sum_{j=1}^{m-1} B_2j/(2j)! (f^(2j-1)(b) - f^(2j-1)(a)) + R,
//       R = Int_a^b (B_2m - B~_2m(x))/(2m)! f^(2m)(x) dx,
//     with B~ the periodic Bernoulli function, |B~_2m(x)| <= |B_2m|. Since f^(2m) >= 0 (by (1)),
//       |R| <= 2|B_2m|/(2m)! Int_a^b f^(2m) = 2|B_2m|/(2m)! |f^(2m-1)(b) - f^(2m-1)(a)|   (b = inf: the b terms are 0).
//     The derivatives at a and b are exact Taylor coefficients (interval power-series arithmetic of
//     (x0 + t)^c = x0^c Sum_n binom(c, n) (t/x0)^n through the schedule's formula).
//
// (3) The integral. For x >= a, f(x) = K x^P g_1(z_1) g_2(z_2) with g(z) = 1/(1 + z), z_r = B_r x^-q_r in
//     [0, z_max], z_max = 0.8 (the cut-off a is chosen for this; B_r >= 0, q_r > 0, at most two factors: one from
//     num = a/(1 + b x^c) = (a/b) x^-c / (1 + x^-c/b), one from 1/den = 1/(a + b x^c) = (1/b) x^-c/(1 + (a/b) x^-c)).
//     S_r = Sum_{i<=n_r} (-z_r)^i satisfies 0 <= S_r <= 1 and |g_r - S_r| = z_r^(n_r+1)/(1 + z_r) <= z_r^(n_r+1),
//     and 0 < g_r <= 1, so |g_1 g_2 - S_1 S_2| <= |g_1 - S_1| g_2 + S_1 |g_2 - S_2| <= z_1^(n_1+1) + z_2^(n_2+1).
//     Hence Int_a^b f = Sum_{i,j} K (-B_1)^i (-B_2)^j Int_a^b x^(P - q_1 i - q_2 j) dx + E with
//       |E| <= Sum_r K B_r^(n_r+1) Int_a^inf x^(P - q_r(n_r+1)) dx
//            = Sum_r K B_r^(n_r+1) a^(P+1-q_r(n_r+1)) / (q_r(n_r+1) - P - 1),
//     each monomial integrated in closed form. All of it is evaluated in MPFI.
//
// (4) Divergence (to = inf): f(x) / (K x^P) -> 1 with K > 0, so the series diverges iff P >= -1 (comparison with
//     Sum k^P); P = exponent(num) - exponent(den) = -(u + w).

namespace dpl::algorithms::seed001 {

namespace {

constexpr int kEulerMaclaurinM = 6;  // corrections j = 1..5, remainder with B_12
constexpr double kZMax = 0.8;
constexpr std::int64_t kMinCutoff = 128;
constexpr std::int64_t kMaxCutoff = 10'000'000;
constexpr std::int64_t kMaxHeadTerms = 5'000'000;
constexpr double kSeriesTolerance = 1e-34;  // relative size of the first dropped power of z

using Series = std::vector<Interval>;

// Bernoulli numbers B_2, ..., B_12.
Interval bernoulli(int two_j) {
  switch (two_j) {
    case 2: return exact(1) / exact(6);
    case 4: return exact(-1) / exact(30);
    case 6: return exact(1) / exact(42);
    case 8: return exact(-1) / exact(30);
    case 10: return exact(5) / exact(66);
    case 12: return exact(-691) / exact(2730);
  }
  throw std::logic_error("internal: Bernoulli number out of table");
}

Series multiply(const Series& x, const Series& y) {
  Series out(x.size(), exact(0));
  for (std::size_t n = 0; n < x.size(); ++n)
    for (std::size_t i = 0; i <= n; ++i) out[n] += x[i] * y[n - i];
  return out;
}

Series reciprocal(const Series& x) {
  Series r(x.size(), exact(0));
  r[0] = 1 / x[0];
  for (std::size_t n = 1; n < x.size(); ++n) {
    Interval acc = exact(0);
    for (std::size_t i = 1; i <= n; ++i) acc += x[i] * r[n - i];
    r[n] = -acc * r[0];
  }
  return r;
}

// Taylor coefficients of t -> s(x0 + t) at t = 0, orders 0..order.
Series taylor(const StepSchedule& s, std::int64_t x0, int order) {
  const Interval x = exact_int(x0);
  const Interval cc = exact(s.c);
  Series pw(order + 1, exact(0));
  pw[0] = s.c == 0 ? exact(1) : exp(cc * log(x));
  for (int n = 1; n <= order; ++n) pw[n] = pw[n - 1] * (cc - (n - 1)) / (exact_int(n) * x);
  Series out(order + 1, exact(0));
  switch (s.form) {
    case ScheduleForm::ratio: {
      Series d(order + 1);
      for (int n = 0; n <= order; ++n) d[n] = exact(s.b) * pw[n];
      d[0] += 1;
      out = reciprocal(d);
      for (auto& v : out) v *= exact(s.a);
      break;
    }
    case ScheduleForm::power:
      for (int n = 0; n <= order; ++n) out[n] = exact(s.a) * pw[n];
      break;
    case ScheduleForm::affine:
      for (int n = 0; n <= order; ++n) out[n] = exact(s.b) * pw[n];
      out[0] += exact(s.a);
      break;
  }
  return out;
}

Series ratio_taylor(const StepSchedule& num, const StepSchedule& den, std::int64_t x0, int order) {
  return multiply(taylor(num, x0, order), reciprocal(taylor(den, x0, order)));
}

struct Factor {
  Interval B;  // >= 0
  double q;    // > 0
  double b_double;
};

// f(x) = K x^P Prod_r 1/(1 + B_r x^-q_r) (step (3) of the proof).
struct Expansion {
  Interval K;
  Interval P;  // exact sum of two doubles
  std::vector<Factor> factors;
};

std::optional<Expansion> expand(const StepSchedule& num, const StepSchedule& den) {
  if (!num.completely_monotone() || !den.reciprocal_completely_monotone()) return std::nullopt;
  Expansion e{exact(1), exact(0), {}};
  switch (num.form) {
    case ScheduleForm::ratio:
      if (num.b > 0 && num.c > 0) {
        e.K = exact(num.a) / exact(num.b);
        e.P = exact(-num.c);
        e.factors.push_back({1 / exact(num.b), num.c, 1 / num.b});
      } else {
        e.K = exact(num.a) / (1 + exact(num.b));
      }
      break;
    case ScheduleForm::power:
      e.K = exact(num.a);
      e.P = exact(num.c);
      break;
    case ScheduleForm::affine:
      if (num.b != 0 && num.c != 0) return std::nullopt;
      e.K = exact(num.a) + exact(num.b);
      break;
  }
  switch (den.form) {
    case ScheduleForm::affine:
      if (den.b > 0 && den.c > 0) {
        e.K /= exact(den.b);
        e.P -= exact(den.c);
        if (den.a > 0) e.factors.push_back({exact(den.a) / exact(den.b), den.c, den.a / den.b});
      } else {
        e.K /= exact(den.a) + exact(den.b);
      }
      break;
    case ScheduleForm::power:
      e.K /= exact(den.a);
      e.P -= exact(den.c);
      break;
    case ScheduleForm::ratio:
      e.K *= (1 + exact(den.b)) / exact(den.a);
      break;
  }
  return e;
}

Interval head_sum(const StepSchedule& num, const StepSchedule& den, std::int64_t from, std::int64_t to) {
  Interval s = exact(0);
  for (std::int64_t k = from; k <= to; ++k) s += num.enclose(k) / den.enclose(k);
  return s;
}

// Int_a^b f(x) dx (b = kInfiniteHorizon for infinity), step (3).
Interval integral(const Expansion& e, std::int64_t a, std::int64_t b) {
  const bool infinite = b == kInfiniteHorizon;
  std::vector<Factor> f = e.factors;
  while (f.size() < 2) f.push_back({exact(0), 1.0, 0.0});
  const double p = mid_double(e.P);
  std::array<int, 2> n{};
  for (int r = 0; r < 2; ++r) {
    if (f[r].b_double == 0) continue;
    const double z = f[r].b_double * portable::pow(static_cast<double>(a), -f[r].q);
    int k = 1;
    while (k < 20000 && (portable::pow(z, k + 1) > kSeriesTolerance || f[r].q * (k + 1) - p - 1 < 1)) ++k;
    n[r] = k;
  }
  const Interval la = log(exact_int(a));
  const Interval lb = infinite ? exact(0) : log(exact_int(b));
  auto powers = [](const Interval& base, int count) {
    std::vector<Interval> v(count + 1, exact(1));
    for (int i = 1; i <= count; ++i) v[i] = v[i - 1] * base;
    return v;
  };
  // (-B_r)^i, a^(-q_r i), b^(-q_r i).
  std::array<std::vector<Interval>, 2> coef, pa, pb;
  for (int r = 0; r < 2; ++r) {
    coef[r] = powers(-f[r].B, n[r]);
    pa[r] = powers(exp(exact(-f[r].q) * la), n[r]);
    pb[r] = powers(infinite ? exact(0) : exp(exact(-f[r].q) * lb), n[r]);
  }
  const Interval y0 = e.P + 1;
  const Interval a_y0 = exp(y0 * la);
  const Interval b_y0 = infinite ? exact(0) : exp(y0 * lb);
  Interval sum = exact(0);
  for (int i = 0; i <= n[0]; ++i) {
    for (int j = 0; j <= n[1]; ++j) {
      const Interval y = y0 - exact(f[0].q) * i - exact(f[1].q) * j;
      Interval mono;
      if (infinite) {
        if (!certainly_lt(y, exact(0))) throw std::logic_error("internal: divergent monomial in a convergent tail");
        mono = -(a_y0 * pa[0][i] * pa[1][j]) / y;
      } else if (lo(y) == 0 && hi(y) == 0) {
        mono = lb - la;
      } else {
        mono = (b_y0 * pb[0][i] * pb[1][j] - a_y0 * pa[0][i] * pa[1][j]) / y;
      }
      sum += coef[0][i] * coef[1][j] * mono;
    }
  }
  Interval err = exact(0);
  for (int r = 0; r < 2; ++r) {
    if (f[r].b_double == 0) continue;
    const Interval denom = exact(f[r].q) * (n[r] + 1) - e.P - 1;
    if (!certainly_gt(denom, exact(0))) throw std::logic_error("internal: truncation exponent");
    err += pow(f[r].B, exact_int(n[r] + 1)) * a_y0 * pow(pa[r][1], exact_int(n[r] + 1)) / denom;
  }
  err *= e.K;
  const Interval result = e.K * sum;
  return make_interval(lo(result - err), hi(result + err));
}

// Sum_{k=a}^{b} f(k) by Euler-Maclaurin, step (2).
Interval euler_maclaurin(const StepSchedule& num, const StepSchedule& den, const Expansion& e, std::int64_t a,
                         std::int64_t b) {
  const bool infinite = b == kInfiniteHorizon;
  const int order = 2 * kEulerMaclaurinM - 1;
  const Series ta = ratio_taylor(num, den, a, order);
  const Series tb = infinite ? Series(order + 1, exact(0)) : ratio_taylor(num, den, b, order);
  Interval s = integral(e, a, b) + (ta[0] + tb[0]) / 2;
  for (int j = 1; j < kEulerMaclaurinM; ++j)
    s += bernoulli(2 * j) / exact_int(2 * j) * (tb[2 * j - 1] - ta[2 * j - 1]);
  const Interval rbound =
      2 * abs(bernoulli(2 * kEulerMaclaurinM)) / exact_int(2 * kEulerMaclaurinM) * abs(tb[order] - ta[order]);
  return make_interval(lo(s - rbound), hi(s + rbound));
}

}  // namespace

SeriesEnclosure certified_ratio_sum(const StepSchedule& num, const StepSchedule& den, std::int64_t from,
                                    std::int64_t to) {
  if (from < 0 || to < from)
    throw InputError("series range [" + std::to_string(from) + ", " +
                     (to == kInfiniteHorizon ? std::string("inf") : std::to_string(to)) +
                     "]: need 0 <= from <= to");
  const bool infinite = to == kInfiniteHorizon;
  SeriesEnclosure out;
  if (infinite) {
    const double p = num.exponent() - den.exponent();
    if (p >= -1) {
      out.value = positive_infinity();
      out.diverges = true;
      out.method = "divergent: terms ~ k^" + std::to_string(p) + " with exponent >= -1";
      return out;
    }
  }
  const auto e = expand(num, den);
  std::int64_t cutoff = std::max<std::int64_t>(from, kMinCutoff);
  if (e) {
    for (const auto& f : e->factors) {
      const double need = std::ceil(portable::pow(f.b_double / kZMax, 1 / f.q));
      if (need > static_cast<double>(kMaxCutoff)) {
        cutoff = kMaxCutoff + 1;
        break;
      }
      cutoff = std::max(cutoff, static_cast<std::int64_t>(need));
    }
  }
  const bool tail_ok = e.has_value() && cutoff <= kMaxCutoff;
  if (!infinite && (to < cutoff || !tail_ok)) {
    if (to - from + 1 > kMaxHeadTerms)
      throw NotApplicable("the series " + num.describe() + " / " + den.describe() + " has " +
                          std::to_string(to - from + 1) +
                          " terms and no certified tail method applies to it (see ratio_series.h)");
    out.value = head_sum(num, den, from, to);
    out.method = "head sum";
    return out;
  }
  if (!tail_ok)
    throw NotApplicable("no certified tail for the infinite series " + num.describe() + " / " + den.describe() +
                        ": needs num completely monotone (ratio with b >= 0 and 0 <= c <= 1, or power with c <= 0) and "
                        "1/den completely monotone (affine with a, b >= 0 and 0 <= c <= 1, or power with c >= 0), "
                        "with a cut-off below 1e7");
  out.cutoff = cutoff;
  const Interval head = cutoff > from ? head_sum(num, den, from, cutoff - 1) : exact(0);
  out.value = head + euler_maclaurin(num, den, *e, cutoff, to);
  out.method = "head sum to " + std::to_string(cutoff - 1) + " + Euler-Maclaurin tail (m = " +
               std::to_string(kEulerMaclaurinM) + ", remainder bounded by complete monotonicity; integral by a "
               "term-by-term power series with a geometric remainder bound)";
  return out;
}

}  // namespace dpl::algorithms::seed001
