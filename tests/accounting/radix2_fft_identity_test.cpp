// SPDX-License-Identifier: Apache-2.0
// radix2_fft (accounting/pld/radix2_fft.cpp) against the frozen scalar algorithm its error bound is proven for
// (tests/accounting/radix2_fft_reference.h): every output bit for bit (the significand and exponent bytes of each
// element, so the padding of x87 long doubles is ignored), forward and inverse, double, long double and double-word
// (AVX2 lanes and the scalar path), every
// n = 2^0 ... 2^20 on inputs mixing zeros of both signs, subnormals, huge and tiny magnitudes; and a RapidCheck
// property on random lengths and inputs.
#include "accounting/numeric/double_word.h"
#include "accounting/pld/radix2_fft.h"
#include "tests/accounting/radix2_fft_reference.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>

namespace dpl {
namespace {

// Bytes of a T that hold its value (10 of the 16 of an x87 long double).
template <typename T>
constexpr std::size_t value_bytes() {
  return std::numeric_limits<T>::digits == 64 ? 10 : sizeof(T);
}

// Whether two doubles are the same bits, or both NaN (of any sign and payload: the compiler may order the operands of
// a commutative + or x differently in the scalar and the vector code, which changes only which NaN propagates).
bool same_or_both_nan(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b));
}

// Index of the first element whose value bytes differ, or n if none. DoubleWord: part by part, NaNs alike (their
// Dekker splittings overflow to NaN from 2^996 on, so the mixed-magnitude inputs give many).
template <typename T>
std::size_t first_difference(const std::vector<T>& a, const std::vector<T>& b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    if constexpr (std::is_same_v<T, DoubleWord>) {
      if (!same_or_both_nan(a[i].hi, b[i].hi) || !same_or_both_nan(a[i].lo, b[i].lo)) return i;
    } else if (std::memcmp(&a[i], &b[i], value_bytes<T>()) != 0) {
      return i;
    }
  }
  return a.size();
}

// A random value of one of several kinds: ordinary, +-0, subnormal, huge, tiny, any exponent of T's range. For
// DoubleWord: such a double as the high part and a normalised low part below half its ulp (of either sign).
template <typename T>
T random_value(std::mt19937_64& rng);
template <>
DoubleWord random_value<DoubleWord>(std::mt19937_64& rng) {
  const double hi = random_value<double>(rng);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const double lo = rng() % 4 == 0 ? 0.0 : hi * 0x1p-54 * unit(rng);
  DoubleWord x;
  double_word::fast_two_sum(hi, lo, x.hi, x.lo);  // |lo| <= ulp(hi)/2 after it
  return x;
}
template <typename T>
T random_value(std::mt19937_64& rng) {
  std::uniform_real_distribution<long double> unit(-1.0L, 1.0L);
  const long double m = unit(rng);
  const int min_exp = std::numeric_limits<T>::min_exponent, max_exp = std::numeric_limits<T>::max_exponent;
  const int digits = std::numeric_limits<T>::digits;
  switch (rng() % 8) {
    case 0: return static_cast<T>(0.0);
    case 1: return static_cast<T>(-0.0);
    case 2: return static_cast<T>(std::ldexp(m, min_exp - 1 - static_cast<int>(rng() % digits)));  // subnormal
    case 3: return static_cast<T>(std::ldexp(m, max_exp - 1 - static_cast<int>(rng() % 40)));       // huge
    case 4: return static_cast<T>(std::ldexp(m, min_exp + static_cast<int>(rng() % 40)));           // tiny normal
    case 5: return static_cast<T>(std::ldexp(m, min_exp + static_cast<int>(rng() % (max_exp - min_exp))));
    default: return static_cast<T>(m);
  }
}

template <typename T>
ComplexArray<T> random_input(std::size_t n, std::mt19937_64& rng) {
  ComplexArray<T> x;
  x.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    x.re[i] = random_value<T>(rng);
    x.im[i] = random_value<T>(rng);
  }
  return x;
}

// Inputs of moderate magnitude (uniform in [-1, 1]): most outputs finite, unlike the mixed ones (where sums of huge
// values overflow to inf and then NaN in long transforms).
template <typename T>
ComplexArray<T> uniform_input(std::size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  ComplexArray<T> x;
  x.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, DoubleWord>) {  // a double and a low part below half its ulp
      for (T* v : {&x.re[i], &x.im[i]}) double_word::fast_two_sum(unit(rng), unit(rng) * 0x1p-54, v->hi, v->lo);
    } else {
      x.re[i] = static_cast<T>(unit(rng));
      x.im[i] = static_cast<T>(unit(rng));
    }
  }
  return x;
}

std::ostream& operator<<(std::ostream& out, const DoubleWord& x) { return out << "(" << x.hi << " + " << x.lo << ")"; }

template <typename T>
std::string difference(const ComplexArray<T>& got, const ComplexArray<T>& want, bool inverse, const std::string& what) {
  const std::size_t n = want.re.size();
  const std::size_t dr = first_difference(got.re, want.re), di = first_difference(got.im, want.im);
  if (dr == n && di == n) return "";
  const std::size_t i = std::min(dr, di);
  std::ostringstream out;
  out.precision(std::is_same_v<T, DoubleWord> ? 17 : std::numeric_limits<T>::max_digits10);
  out << what << "n " << n << (inverse ? " inverse" : " forward") << ": first difference at index " << i << " ("
      << got.re[i] << ", " << got.im[i] << ") vs (" << want.re[i] << ", " << want.im[i] << "); ";
  return out.str();
}

// Empty string if radix2_fft (and for double its SSE2 path too, which CPUs without AVX2 take) and the reference agree
// bit for bit on x, else where they differ.
template <typename T>
std::string compare(const ComplexArray<T>& x, bool inverse) {
  ComplexArray<T> want = x;
  testing::reference_radix2_fft(want, inverse);
  ComplexArray<T> got = x;
  radix2_fft(got, inverse);
  std::string d = difference(got, want, inverse, "");
  if constexpr (std::is_same_v<T, double>) {
    got = x;
    radix2_fft_sse2(got, inverse);
    d += difference(got, want, inverse, "SSE2 path: ");
  }
  if constexpr (std::is_same_v<T, DoubleWord>) {
    got = x;
    radix2_fft_double_word_scalar(got, inverse);
    d += difference(got, want, inverse, "scalar path: ");
  }
  return d;
}

template <typename T>
void every_length(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int t = 0; t <= 20; ++t) {
    const std::size_t n = std::size_t{1} << t;
    for (bool inverse : {false, true}) {
      EXPECT_EQ(compare(random_input<T>(n, rng), inverse), "") << "mixed magnitudes";
      EXPECT_EQ(compare(uniform_input<T>(n, rng), inverse), "") << "uniform";
    }
  }
}

TEST(Radix2FftIdentity, DoubleEveryLengthBitForBit) { every_length<double>(20261126); }
TEST(Radix2FftIdentity, LongDoubleEveryLengthBitForBit) { every_length<long double>(20261127); }
TEST(Radix2FftIdentity, DoubleWordEveryLengthBitForBit) { every_length<DoubleWord>(20261128); }

TEST(Radix2FftIdentity, UniformOutputsAreMostlyFinite) {
  // The uniform inputs exercise finite arithmetic, not only inf/NaN propagation.
  std::mt19937_64 rng(3);
  ComplexArray<double> x = uniform_input<double>(1 << 20, rng);
  radix2_fft(x, false);
  for (std::size_t i = 0; i < x.re.size(); ++i) ASSERT_TRUE(std::isfinite(x.re[i]) && std::isfinite(x.im[i])) << i;
}

template <typename T>
void random_property() {
  const int t = *rc::gen::inRange(0, 15);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const bool inverse = *rc::gen::arbitrary<bool>();
  const bool mixed = *rc::gen::arbitrary<bool>();
  std::mt19937_64 rng(seed);
  const std::size_t n = std::size_t{1} << t;
  const ComplexArray<T> x = mixed ? random_input<T>(n, rng) : uniform_input<T>(n, rng);
  RC_ASSERT(compare(x, inverse) == std::string());
}

RC_GTEST_PROP(Radix2FftIdentity, DoubleRandomLengthsBitForBit, ()) { random_property<double>(); }
RC_GTEST_PROP(Radix2FftIdentity, LongDoubleRandomLengthsBitForBit, ()) { random_property<long double>(); }
RC_GTEST_PROP(Radix2FftIdentity, DoubleWordRandomLengthsBitForBit, ()) { random_property<DoubleWord>(); }

}  // namespace
}  // namespace dpl
