// SPDX-License-Identifier: Apache-2.0
// Elementary functions from IEEE basic operations only (docs/pld_accountant.md, "Elementary functions").
// No fused multiply-adds: every operation is one separately rounded IEEE operation.
#pragma GCC optimize("fp-contract=off")

#include "accounting/numeric/portable_math.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace dpl::portable {

namespace {

#include "accounting/numeric/portable_math_tables.inc"

static_assert(std::numeric_limits<long double>::digits == 64, "x87 extended precision expected");

constexpr long double kInfLd = std::numeric_limits<long double>::infinity();

// 2^k as a long double, -16382 <= k <= 16383, built from its bits (exact; no libm call).
long double portable_pow2(int k) {
  unsigned char bytes[sizeof(long double)] = {};
  const std::uint64_t mantissa = 0x8000000000000000ULL;
  const std::uint16_t sign_exponent = static_cast<std::uint16_t>(k + 16383);
  std::memcpy(bytes, &mantissa, 8);
  std::memcpy(bytes + 8, &sign_exponent, 2);
  long double v;
  std::memcpy(&v, bytes, sizeof v);
  return v;
}

// The integer nearest to v (ties to even), |v| < 2^62: v + 1.5 2^63 has the exponent 63, so its 64-bit
// significand is 0xC000000000000000 + round(v), read from its bits (the x87 conversion to an integer would
// reload the control word on every call).
std::int64_t portable_round(long double v) {
  const long double s = v + 0x1.8p63L;
  std::uint64_t mantissa;
  std::memcpy(&mantissa, &s, 8);
  return static_cast<std::int64_t>(mantissa - 0xC000000000000000ULL);
}

// v 2^k: exact while the result is normal, one rounding (gradual underflow) below.
long double portable_scale2(long double v, int k) {
  if (k > 16383) return v * portable_pow2(k - 16383) * portable_pow2(16383);
  if (k < -16382) return v * portable_pow2(k + 16382) * portable_pow2(-16382);
  return v * portable_pow2(k);
}

// Argument reduction of exp: x = n ln2/32 + r with n = 32 k + j (0 <= j < 32), |r| <= 0.01085 (ln2/64 plus the
// rounding of x 32/ln2). x - n C1 is exact (C1 = kLn2By32Hi has 44 bits and |n| < 2^20, Cody and Waite 1980);
// the error of r is below 0.011 u_ld |r|-relative plus 2^-94 absolute.
struct ExpReduced {
  int k;
  int j;
  long double r;
};
ExpReduced portable_exp_reduce(long double x) {
  const std::int64_t ni = portable_round(x * kInvLn2By32);
  const auto n = static_cast<long double>(ni);
  const long double r = (x - n * kLn2By32Hi) - n * kLn2By32Lo;
  const int j = static_cast<int>(ni & 31);
  return {static_cast<int>((ni - j) / 32), j, r};
}

// e^r - 1 for |r| <= 2^-6 by its Taylor polynomial of degree 10 (Horner): truncation below 2^-75 |r|, rounding
// below 2.1 u_ld relative.
long double portable_expm1_small(long double r) {
  constexpr long double c3 = 1.0L / 6, c4 = 1.0L / 24, c5 = 1.0L / 120, c6 = 1.0L / 720, c7 = 1.0L / 5040,
                        c8 = 1.0L / 40320, c9 = 1.0L / 362880, c10 = 1.0L / 3628800;
  return r * (1 + r * (0.5L + r * (c3 + r * (c4 + r * (c5 + r * (c6 + r * (c7 + r * (c8 + r * (c9 + r * c10)))))))));
}

// log(1 + f) for |f| <= 1/96 by its Taylor polynomial of degree 13 (Horner): truncation below 2^-90 |f|,
// rounding below 2.1 u_ld relative.
long double portable_log1p_small(long double f) {
  constexpr long double c3 = 1.0L / 3, c5 = 1.0L / 5, c6 = 1.0L / 6, c7 = 1.0L / 7, c9 = 1.0L / 9, c10 = 1.0L / 10,
                        c11 = 1.0L / 11, c12 = 1.0L / 12, c13 = 1.0L / 13;
  return f * (1 + f * (-0.5L + f * (c3 + f * (-0.25L + f * (c5 + f * (-c6 + f * (c7 + f * (-0.125L +
         f * (c9 + f * (-c10 + f * (c11 + f * (-c12 + f * c13))))))))))));
}

// e^{-(i/32)^2}, i = 0..320, by exp of the exact argument: computed once.
struct GaussNodes {
  long double v[321];
  GaussNodes() {
    for (int i = 0; i < 321; ++i) v[i] = exp(-static_cast<long double>(i * i) / 1024);
  }
};
const GaussNodes& gauss_nodes() {
  static const GaussNodes nodes;
  return nodes;
}

// erfc(x) for 0 <= x < 10 from the nearest node x0 = i/32 (|t| = |x - x0| <= 1/64, t exact):
// erfc(x0 + t) = erfc(x0) - (2/sqrt(pi)) e^{-x0^2} J, J = int_0^t e^{-2 x0 s - s^2} ds = t sum_n T_n/(n + 1),
// where e^{-2 x0 s - s^2} = sum_n b_n s^n, T_n = b_n t^n: T_0 = 1, T_1 = -2 x0 t,
// T_{n+1} = -(2 x0 t T_n + 2 t^2 T_{n-1})/(n + 1) (the Hermite recurrence: b_n = (-1)^n H_n(x0)/n!).
// With a = 2 x0 |t| <= 0.3125 the majorant terms are below (a + t^2)^n/n!: 17 terms leave < 2^-70.
long double portable_erfc_nodes(long double x) {
  const auto i = static_cast<int>(portable_round(x * 32));
  const long double x0 = static_cast<long double>(i) / 32;
  const long double t = x - x0;
  const long double a = 2 * x0 * t, b = 2 * t * t;
  constexpr long double inv[18] = {1.0L, 1.0L / 2,  1.0L / 3,  1.0L / 4,  1.0L / 5,  1.0L / 6,
                                   1.0L / 7, 1.0L / 8,  1.0L / 9,  1.0L / 10, 1.0L / 11, 1.0L / 12,
                                   1.0L / 13, 1.0L / 14, 1.0L / 15, 1.0L / 16, 1.0L / 17, 1.0L / 18};
  long double prev = 1, cur = -a, sum = 1 + cur * inv[1];
  for (int n = 1; n < 16; ++n) {
    const long double next = -(a * cur + b * prev) * inv[n];  // T_{n+1}, inv[n] = 1/(n + 1)
    prev = cur;
    cur = next;
    sum += cur * inv[n + 1];
  }
  const long double j = t * sum;
  return kErfcNode[i] - kTwoOverSqrtPi * gauss_nodes().v[i] * j;
}

// erfc(x) for x >= 10 by the asymptotic series e^{-x^2}/(x sqrt(pi)) sum_{m<18} (-1)^m (2m-1)!!/(2x^2)^m, whose
// remainder is bounded by the first neglected term (DLMF 7.12.1 and 7.12(i)): 35!!/200^18 < 2^-70. e^{-x^2} from
// the exact split x^2 = xh^2 + (2 xh xl + xl^2) (xh: x's leading 32 bits), so that its error is not amplified by x^2.
long double portable_erfc_asymptotic(long double x) {
  long double xh = x;
  unsigned char bytes[sizeof(long double)];
  std::memcpy(bytes, &xh, sizeof xh);
  std::memset(bytes, 0, 4);  // clear the low 32 bits of the 64-bit significand
  std::memcpy(&xh, bytes, sizeof xh);
  const long double xl = x - xh;  // exact
  const long double head = xh * xh, tail = (2 * xh) * xl + xl * xl;  // head and the products exact
  const long double y = 1 / (2 * x * x);
  long double s = 1;
  for (int m = 17; m >= 1; --m) s = 1 - static_cast<long double>(2 * m - 1) * y * s;
  return exp(-head) * exp(-tail) * kInvSqrtPi / x * s;
}

}  // namespace

long double exp(long double x) {
  if (std::isnan(x)) return x;
  if (x > 11357.0L) return kInfLd;
  if (x < -11400.0L) return 0.0L;
  const ExpReduced red = portable_exp_reduce(x);
  const long double p = portable_expm1_small(red.r);
  return portable_scale2(kExp2Hi[red.j] + (kExp2Lo[red.j] + kExp2Hi[red.j] * p), red.k);
}

long double expm1(long double x) {
  if (std::isnan(x)) return x;
  if (std::fabs(x) <= 0x1p-6L) return portable_expm1_small(x);
  if (x < -46.0L) return exp(x) - 1;  // e^x < 2^-66: one rounding of a value next to -1
  if (x > 11357.0L) return kInfLd;
  const ExpReduced red = portable_exp_reduce(x);
  const long double p = portable_expm1_small(red.r);
  // 2^k T_hi - 1 is exact for k in {-1, 0, 1} (Sterbenz, or a multiple of 2^-62 below 4), where the result is
  // small; 2^k (T_lo + T_hi p) carries the rest.
  const long double v = portable_scale2(kExp2Hi[red.j], red.k) - 1;
  const long double w = portable_scale2(kExp2Lo[red.j] + kExp2Hi[red.j] * p, red.k);
  return v + w;
}

long double log(long double x) {
  if (std::isnan(x) || x < 0) return std::numeric_limits<long double>::quiet_NaN();
  if (x == 0) return -kInfLd;
  if (std::isinf(x)) return x;
  int e = 0;
  long double m;
  std::uint16_t sign_exponent;
  std::memcpy(&sign_exponent, reinterpret_cast<const unsigned char*>(&x) + 8, 2);
  if (sign_exponent == 0) {
    m = std::frexp(x, &e);  // subnormal: exact, m in [1/2, 1)
  } else {  // normal: m = x 2^-e in [1/2, 1) by setting the exponent field (exact)
    e = static_cast<int>(sign_exponent) - 16382;
    m = x;
    const std::uint16_t half = 16382;
    std::memcpy(reinterpret_cast<unsigned char*>(&m) + 8, &half, 2);
  }
  if (m < 0.75L) {
    m *= 2;
    --e;
  }  // m in [3/4, 3/2): x near 1 has e = 0
  const auto j = static_cast<int>(portable_round(m * 64));  // 48..96
  const long double c = static_cast<long double>(j) / 64;
  const long double f = (m - c) / c;  // m - c exact (Sterbenz); |f| <= 1/96
  const long double el = static_cast<long double>(e);
  const long double hi = el * kLn2Hi + kLogHi[j - 48];  // el * kLn2Hi exact (48 + 15 bits)
  const long double lo = portable_log1p_small(f) + (el * kLn2Lo + kLogLo[j - 48]);
  return hi + lo;
}

long double log1p(long double x) {
  if (std::isnan(x) || x < -1) return std::numeric_limits<long double>::quiet_NaN();
  if (std::fabs(x) <= 0x1p-7L) return portable_log1p_small(x);
  if (std::isinf(x)) return x;
  // u + c = 1 + x exactly (Knuth's TwoSum); log(1 + x) = log u + log1p(c/u), |c/u| <= u_ld, so log1p(c/u) = c/u
  // to within u_ld^2/2.
  const long double u = 1 + x;
  const long double xv = u - 1;
  const long double c = (1 - (u - xv)) + (x - xv);
  if (u == 0) return -kInfLd;
  return log(u) + c / u;
}

long double erfc(long double x) {
  if (std::isnan(x)) return x;
  if (x < 0) return 2 - erfc(-x);  // erfc(-x) = 2 - erfc(x): result in (1, 2], one rounding
  if (x < 10) return portable_erfc_nodes(x);
  if (x > 107) return 0.0L;  // erfc(107) < 2^-16450: below long double's range
  return portable_erfc_asymptotic(x);
}

void sin_cos_octant(long double theta, long double& s, long double& c) {
  // Taylor polynomials to degree 19 and 20 in nested form; theta <= pi/4: truncation below 2^-72.
  const long double z = theta * theta;
  constexpr long double s3 = 1.0L / 6, s5 = 1.0L / 20, s7 = 1.0L / 42, s9 = 1.0L / 72, s11 = 1.0L / 110,
                        s13 = 1.0L / 156, s15 = 1.0L / 210, s17 = 1.0L / 272, s19 = 1.0L / 342;
  s = theta * (1 - z * s3 * (1 - z * s5 * (1 - z * s7 * (1 - z * s9 * (1 - z * s11 * (1 - z * s13 *
      (1 - z * s15 * (1 - z * s17 * (1 - z * s19)))))))));
  constexpr long double c2 = 0.5L, c4 = 1.0L / 12, c6 = 1.0L / 30, c8 = 1.0L / 56, c10 = 1.0L / 90,
                        c12 = 1.0L / 132, c14 = 1.0L / 182, c16 = 1.0L / 240, c18 = 1.0L / 306, c20 = 1.0L / 380;
  c = 1 - z * c2 * (1 - z * c4 * (1 - z * c6 * (1 - z * c8 * (1 - z * c10 * (1 - z * c12 * (1 - z * c14 *
      (1 - z * c16 * (1 - z * c18 * (1 - z * c20)))))))));
}

double exp(double x) { return static_cast<double>(exp(static_cast<long double>(x))); }
double expm1(double x) { return static_cast<double>(expm1(static_cast<long double>(x))); }
double log(double x) { return static_cast<double>(log(static_cast<long double>(x))); }
double log1p(double x) { return static_cast<double>(log1p(static_cast<long double>(x))); }

double log2(double x) {
  int e = 0;
  const double m = std::frexp(x, &e);  // exact
  if (m == 0.5) return static_cast<double>(e - 1);  // an exact power of two
  return static_cast<double>(log(static_cast<long double>(x)) / (kLn2Hi + kLn2Lo));
}

double exp2(double x) {
  if (std::isnan(x)) return x;
  if (x == std::floor(x) && std::fabs(x) < 16000) return static_cast<double>(portable_scale2(1.0L, static_cast<int>(x)));
  return static_cast<double>(exp(static_cast<long double>(x) * (kLn2Hi + kLn2Lo)));
}

double pow(double x, double y) {
  if (y == 0) return 1.0;
  if (x == 1) return 1.0;
  if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<double>::quiet_NaN();
  if (x < 0 || (x == 0 && std::signbit(x))) {
    if (std::isinf(y)) return pow(-x, y);  // |x|^(+-inf): C's pow ignores the sign
    if (y != std::floor(y)) return std::numeric_limits<double>::quiet_NaN();
    const bool odd = std::fabs(y) < 0x1p53 && std::fmod(y, 2.0) != 0;  // fmod is exact
    const double m = pow(-x, y);
    return odd ? -m : m;
  }
  return static_cast<double>(exp(static_cast<long double>(y) * log(static_cast<long double>(x))));
}

double tanh(double x) {
  if (std::isnan(x)) return x;
  const long double ax = std::fabs(static_cast<long double>(x));
  if (ax > 40) return std::signbit(x) ? -1.0 : 1.0;  // 1 - tanh(40) < 2^-114
  const long double e = expm1(2 * ax);
  const auto t = static_cast<double>(e / (e + 2));
  return std::signbit(x) ? -t : t;
}

double erfc(double x) { return static_cast<double>(erfc(static_cast<long double>(x))); }

double log10(double x) { return static_cast<double>(log(static_cast<long double>(x)) * kInvLn10); }

// 2^24 pi/2 rounded down: below it |n| < 2^24 in the reduction of sin_cos.
constexpr double kSinCosLimit = 26353589.0;

void sin_cos(double x, double& s, double& c) {
  if (!(std::fabs(x) < kSinCosLimit)) {
    s = c = std::numeric_limits<double>::quiet_NaN();
    return;
  }
  // x = n pi/2 + r, |r| <= pi/4 (plus the rounding of n): x - n hi is exact by Sterbenz, n hi and n mid exact.
  const auto xl = static_cast<long double>(x);
  const std::int64_t n = portable_round(xl * kTwoOverPi);
  const auto nl = static_cast<long double>(n);
  const long double r = ((xl - nl * kPiBy2Hi) - nl * kPiBy2Mid) - nl * kPiBy2Lo;
  long double sr, cr;
  sin_cos_octant(std::fabs(r), sr, cr);
  if (r < 0) sr = -sr;
  switch (static_cast<int>(n & 3)) {  // sin(r + n pi/2), cos(r + n pi/2)
    case 0: s = static_cast<double>(sr), c = static_cast<double>(cr); break;
    case 1: s = static_cast<double>(cr), c = static_cast<double>(-sr); break;
    case 2: s = static_cast<double>(-sr), c = static_cast<double>(-cr); break;
    default: s = static_cast<double>(-cr), c = static_cast<double>(sr); break;
  }
}

double sin(double x) {
  double s, c;
  sin_cos(x, s, c);
  return s;
}

double cos(double x) {
  double s, c;
  sin_cos(x, s, c);
  return c;
}

}  // namespace dpl::portable
