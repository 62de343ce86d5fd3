// SPDX-License-Identifier: Apache-2.0
// Truncated Poisson sampling (dp_accounting's TruncatedSubsampledGaussianDpEvent): each of N records is sampled with
// probability q, and a sample of more than B records is cut down to a uniformly random B of them.
#pragma once

#include "accounting/numeric/interval.h"

#include <cstdint>

namespace dpl {

// Neighbouring datasets of N and N - 1 records (the record x and N - 1 others). Conditioned on the others' sample S
// (common to both datasets): if |S| < B the batch is S or S + x, the Poisson-subsampled pair (q, sens); if |S| >= B,
// x enters the batch with probability q B/(|S| + 1) <= q B/(B + 1) and then replaces a record of it, a shift of at
// most 2 sens: dominated by the Poisson-subsampled pair (q B/(B + 1), 2 sens) (joint convexity over the replaced
// record). Releasing which case occurred gives the labelled mixture with weights 1 - tau and tau,
// tau = P[Bin(N - 1, q) >= B] (docs/mechanisms.md).
struct TruncatedSampling {
  Interval tau;   // enclosure of P[Bin(N - 1, q) >= B]
  double q_full;  // q B/(B + 1), rounded up
};
// Throws InputError for N above 1e9 (the binomial tail's work).
TruncatedSampling truncated_sampling(double q, std::int64_t batch, std::int64_t n);

}  // namespace dpl
