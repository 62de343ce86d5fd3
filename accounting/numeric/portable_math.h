// SPDX-License-Identifier: Apache-2.0
// Elementary functions that give the same bits on every x86-64 CPU.
//
// glibc's long-double expl/logl/expm1l/log1pl/erfcl/sinl/cosl are built on the x87 instructions f2xm1, fyl2x,
// fsin and fcos, whose last bits differ between CPU vendors, and its double exp/log/pow are selected at run time
// (FMA or not) by the CPU. The functions here use only IEEE basic operations (+ - * / and exact scalings) in x87
// long double at its default 64-bit precision, which every x86-64 CPU rounds identically, and constants rounded
// once to long double (portable_math_tables.inc). Error bounds (u_ld = 2^-64, relative, for normal results; the
// analysis is in docs/pld_accountant.md, "Elementary functions") are checked against MPFR by
// tests/accounting/portable_math_test.cpp.
#pragma once

#include <type_traits>

namespace dpl::portable {

// e^x: relative error <= 2 u_ld (results above 2^-16382; below, absolute <= 2^-16445).
long double exp(long double x);
// e^x - 1: relative error <= 8 u_ld.
long double expm1(long double x);
// log x (x > 0): absolute error <= 4 u_ld |log x|, and <= 4 u_ld |log x| + ... : relative error <= 4 u_ld.
long double log(long double x);
// log(1 + x) (x > -1): relative error <= 5 u_ld.
long double log1p(long double x);
// erfc x: relative error <= 130 u_ld for x >= 0 (where the result is normal), <= 131 u_ld for x < 0 (2 - erfc(-x)).
long double erfc(long double x);
// sin and cos of theta in [0, pi/4]: absolute errors <= 2 u_ld.
void sin_cos_octant(long double theta, long double& s, long double& c);

// Double versions: the long-double result rounded once to double (relative error <= u + 8 u_ld for exp, log,
// log1p, expm1; the same value on every CPU). log2 and exp2 return exact results for exact powers of two.
double exp(double x);
double expm1(double x);
double log(double x);
double log1p(double x);
double log2(double x);
double exp2(double x);
// x^y as exp(y log|x|) in long double: relative error <= u + (|y log x| + 8) u_ld. x < 0 takes the sign of an odd
// integer y and gives NaN for a y that is not an integer; 0, infinities and NaN as C's pow.
double pow(double x, double y);
// tanh x = e/(e + 2) with e = expm1(2|x|), the sign of x: relative error <= u + 12 u_ld.
double tanh(double x);
// erfc x: the long-double value rounded once (relative error <= u + 131 u_ld).
double erfc(double x);
// log10 x = log x / ln 10 in long double: relative error <= u + 6 u_ld; exact powers of ten give their integer.
double log10(double x);
// sin x and cos x for |x| < 26353589 (2^24 pi/2): x - n pi/2 reduced with pi/2 in three parts whose products with
// n are exact; absolute error <= u + 4 u_ld. NaN for larger |x| (not supported) and for NaN.
void sin_cos(double x, double& s, double& c);
double sin(double x);
double cos(double x);

// exp, expm1, log and log1p computed in binary64 arithmetic alone (portable_math_binary64.cpp: Tang's table-driven
// methods), about ten times faster than the versions above, for the algorithms' losses and estimates. Relative
// error <= (1 + 2^-4) u for exp, log and log1p, <= 2 u for expm1 (u = 2^-53); subnormal results of exp within
// 2^-1074 absolute.
namespace binary64 {
double exp(double x);
double expm1(double x);
double log(double x);
double log1p(double x);
// Integer arguments take these double versions, as they do in <cmath>.
template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
double exp(I x) { return exp(static_cast<double>(x)); }
template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
double log(I x) { return log(static_cast<double>(x)); }
template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
double log1p(I x) { return log1p(static_cast<double>(x)); }
}  // namespace binary64

}  // namespace dpl::portable
