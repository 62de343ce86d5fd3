// The real-input FFT squaring of the PLD (a * a from two half-length transforms and the split between them;
// docs/pld_accountant.md, 3, "Real-input squarings") against an exact direct convolution in binary128, on PLD-like
// vectors (Gaussian bumps, masses spanning 1e-300..1, subnormals; sparse vectors of atoms for the largest lengths),
// padded lengths n = 2^2 to 2^16, in double and long double: the actual l1 error is within the returned bound, and
// the bound is not absurdly loose (measured: actual/bound <= 1.3% in double, <= 35% in long double).
#include "accounting/pld/discrete_pld.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace dpl {
namespace {

using Quad = __float128;

// Each output is a sum of at most na non-negative binary128 products of doubles (exact products), relative error
// <= na 2^-113 (Higham 2002, eq. (3.4)); returned in `ref_err` (l1). Only the nonzero entries are multiplied.
std::vector<Quad> direct_square(const std::vector<double>& a, Quad& ref_err) {
  std::vector<std::size_t> nz;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != 0) nz.push_back(i);
  std::vector<Quad> c(2 * a.size() - 1, 0);
  for (std::size_t i : nz)
    for (std::size_t j : nz) c[i + j] += static_cast<Quad>(a[i]) * static_cast<Quad>(a[j]);
  Quad total = 0;
  for (Quad v : c) total += v;
  ref_err = total * static_cast<Quad>(2.0 * static_cast<double>(nz.size() + 1)) * static_cast<Quad>(std::ldexp(1.0, -113));
  return c;
}

double l1_distance(const std::vector<double>& x, const std::vector<Quad>& y) {
  Quad s = 0;
  for (std::size_t k = 0; k < x.size(); ++k) {
    const Quad d = static_cast<Quad>(x[k]) - y[k];
    s += d < 0 ? -d : d;
  }
  return static_cast<double>(s);
}

enum class Shape { bump, wide_range, subnormal, sparse };

// Nonnegative masses summing to about 1 (sparse: about 400 atoms, including both ends).
std::vector<double> pld_like(std::size_t n, Shape shape, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> v(n, 0.0);
  const double centre = 0.3 * static_cast<double>(n), width = 0.05 * static_cast<double>(n) + 1;
  for (std::size_t k = 0; k < n; ++k) {
    const double z = (static_cast<double>(k) - centre) / width;
    switch (shape) {
      case Shape::bump: v[k] = std::exp(-0.5 * z * z) * (0.5 + u(rng)); break;
      case Shape::wide_range: v[k] = std::pow(10.0, -300.0 * u(rng) * u(rng)); break;
      case Shape::subnormal: v[k] = k % 3 == 0 ? 1e-310 * u(rng) : std::exp(-0.5 * z * z); break;
      case Shape::sparse:
        v[k] = k == 0 || k + 1 == n || u(rng) < 400.0 / static_cast<double>(n)
                   ? std::pow(10.0, -300.0 * u(rng) * u(rng) * u(rng)) : 0.0;
        break;
    }
  }
  long double total = 0;
  for (double x : v) total += x;
  for (double& x : v) x = static_cast<double>(x / total);
  if (shape == Shape::subnormal || shape == Shape::sparse) v[n / 2] = 4.9e-324;
  return v;
}

TEST(PldRealSquare, WithinItsBoundAgainstAnExactConvolution) {
  std::mt19937_64 rng(20261126);
  double worst_ratio = 0;
  struct Case { std::size_t na; Shape shape; };
  std::vector<Case> cases;
  for (std::size_t na : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{64}, std::size_t{65}, std::size_t{200}, std::size_t{1000},
                         std::size_t{3000}})
    for (Shape shape : {Shape::bump, Shape::wide_range, Shape::subnormal}) cases.push_back({na, shape});
  cases.push_back({8192, Shape::bump});  // n = 2^14
  for (std::size_t na : {std::size_t{16384}, std::size_t{32768}}) cases.push_back({na, Shape::sparse});  // 2^15, 2^16
  for (const Case& c : cases) {
    const std::vector<double> a = pld_like(c.na, c.shape, rng);
    Quad ref_err = 0;
    const std::vector<Quad> exact = direct_square(a, ref_err);
    for (bool extended : {false, true}) {
      std::vector<double> conv;
      const double bound = fft_square(a, extended, conv);
      ASSERT_EQ(conv.size(), 2 * c.na - 1);
      const double d = l1_distance(conv, exact) + static_cast<double>(ref_err);
      const std::string what = std::to_string(c.na) + " shape " + std::to_string(static_cast<int>(c.shape)) +
                               (extended ? " long double" : " double");
      EXPECT_LE(d, bound) << what;
      // Not absurdly loose: masses sum to 1, so these are relative errors.
      EXPECT_LT(bound, extended ? 1e-14 : 1e-10) << what;
      worst_ratio = std::max(worst_ratio, d / bound);
      std::printf("%s: actual %.3g bound %.3g actual/bound %.3g\n", what.c_str(), d, bound, d / bound);
    }
  }
  RecordProperty("worst_actual_over_bound", std::to_string(worst_ratio));
  std::printf("worst actual/bound: %.3g\n", worst_ratio);
}

TEST(PldRealSquare, SelfCompositionMatchesStepByStep) {
  // A 4-fold self-composition (two squarings by the real-input path, 200 and 399 points) agrees with composing
  // step by step (general products) within the sum of their certified error bounds.
  std::mt19937_64 rng(11);
  DiscretePld a;
  a.h = 0x1p-10;
  a.offset = -100;
  a.p = pld_like(200, Shape::bump, rng);
  a.err_l1 = 1e-15;
  const DiscretePld sq = self_compose(a, 4, 1e-30);
  DiscretePld step = a;
  for (int i = 1; i < 4; ++i) step = compose(step, a, 1e-30);
  const std::int64_t lo = std::min(sq.offset, step.offset),
                     hi = std::max(sq.offset + static_cast<std::int64_t>(sq.p.size()),
                                   step.offset + static_cast<std::int64_t>(step.p.size()));
  auto at = [](const DiscretePld& d, std::int64_t i) {
    const std::int64_t k = i - d.offset;
    return k >= 0 && k < static_cast<std::int64_t>(d.p.size()) ? d.p[static_cast<std::size_t>(k)] : 0.0;
  };
  long double diff = std::abs(static_cast<long double>(sq.p_inf) - step.p_inf);
  for (std::int64_t i = lo; i < hi; ++i) diff += std::abs(static_cast<long double>(at(sq, i)) - at(step, i));
  diff -= 1e-28L;  // the tails moved by truncation
  EXPECT_LE(static_cast<double>(diff), sq.err_l1 + step.err_l1);
  EXPECT_LT(sq.err_l1, 1e-12);
}

}  // namespace
}  // namespace dpl
