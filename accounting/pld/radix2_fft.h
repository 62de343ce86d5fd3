// SPDX-License-Identifier: Apache-2.0
// The iterative radix-2 Cooley-Tukey FFT (decimation in time) whose round-off the PLD accountant bounds:
// twiddle factors accurate to mu (computed in long double from an octant, rounded once), and the error factor
// of Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed. 2002, Thm 24.2, for exactly this algorithm.
#pragma once

#include <cstddef>
#include <vector>

namespace dpl {

// Split (structure-of-arrays) complex vector of length n.
template <typename T>
struct ComplexArray {
  std::vector<T> re, im;
  void resize(std::size_t n) { re.resize(n); im.resize(n); }
};

// In place: x <- F x (inverse = false, F_jk = e^{-2 pi i jk/n}) or x <- conj(F) x (inverse = true), unnormalised,
// n = x.re.size() a power of two, 1 <= n <= 2^30. Bit-reversal permutation, then log2(n) butterfly stages
// y_top = a + w b, y_bot = a - w b with w b = (wr br - wi bi, wr bi + wi br) in the working precision T, separately
// rounded (no FMA). Independent butterflies run in a cache-friendly order (small stages block by block, large ones
// two per pass) and, in double, several per SIMD instruction: every output is the same sequence of IEEE operations on
// the same operands as stage by stage, so the results are bit-identical to it (tests/accounting/
// radix2_fft_identity_test.cpp) and Thm 24.2 applies unchanged. From 2^15 points on, the blocks' small stages and
// then the column groups' large stages run in two halves, the second on the PLD's helper thread when it is free
// (pld_parallel.h; sequentially otherwise): the same butterflies on the same operands, so the same outputs.
template <typename T>
void radix2_fft(ComplexArray<T>& x, bool inverse);

// radix2_fft<double> with its butterflies on SSE2 lanes even where AVX2 is available (radix2_fft takes AVX2 when the
// CPU has it): bit-identical results; for the tests of the path other CPUs take.
void radix2_fft_sse2(ComplexArray<double>& x, bool inverse);

struct DoubleWord;
// radix2_fft<DoubleWord> one element at a time even where AVX2 is available (the path CPUs without AVX2 take):
// bit-identical results; for the tests.
void radix2_fft_double_word_scalar(ComplexArray<DoubleWord>& x, bool inverse);

// The twiddles of radix2_fft's last stage for length n (a power of two, 2 <= n <= 2^30): re[k] + i im[k] =
// e^{-2 pi i k/n} for k < n/2, the same table entries (|w~ - w| <= mu) radix2_fft uses; valid until the next call
// of radix2_fft or twiddle_table with a larger length on this thread.
template <typename T>
void twiddle_table(std::size_t n, const T*& re, const T*& im);

// The unit roundoff of the working precision T: a bound on the relative error of each of its +, -, x (barring
// underflow): 2^-53 (double), 2^-64 (x87 long double), 8 2^-106 (DoubleWord, accounting/numeric/double_word.h).
template <typename T>
double working_unit_roundoff();
// An absolute bound on the extra error of one multiplication or exact scaling in precision T that underflows (and the
// subnormal spacing of the double a result is rounded to): eta0 = 2^-1074 for double and long double (whose subnormal
// spacing is finer); 8 eta0 for DoubleWord (Dekker's product loses at most 4 eta0/2 in its partial products and
// Algorithm 10 eta0/2 in each of its two rounded products, carried to the result with a factor below 1.01, about
// 3.1 eta0; additions are exact when they underflow; the two parts of a halving lose eta0/2 each).
template <typename T>
double working_underflow_error();
// Whether T is more precise than double (its results are rounded to double once more when stored in a PLD).
template <typename T>
bool is_extended_precision() { return working_unit_roundoff<T>() < 0x1p-53; }

// mu: a bound on |w_computed - w| for every twiddle factor used in precision T (docs/pld_accountant.md).
template <typename T>
double twiddle_error();

// Higham 2002, Thm 24.2 (upper bound on the relative l2 error of radix2_fft in precision T for length n):
// eF = t eta / (1 - t eta), t = log2 n, eta = mu + gamma_4 (sqrt 2 + mu), gamma_4 = 4u/(1 - 4u). Rounded up.
template <typename T>
double fft_error_factor(std::size_t n);

}  // namespace dpl
