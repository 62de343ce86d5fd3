// SPDX-License-Identifier: Apache-2.0
#include "accounting/mechanisms/truncated_poisson_sampling.h"

#include "accounting/errors.h"
#include "accounting/numeric/binomial_tail.h"

#include <algorithm>

namespace dpl {

TruncatedSampling truncated_sampling(double q, std::int64_t batch, std::int64_t n) {
  if (n > 1000000000)
    throw InputError("truncated_gaussian: dataset_size=" + std::to_string(n) + " is out of range: allowed [1, 1e9]");
  TruncatedSampling t;
  t.tau = binomial_upper_tail(n - 1, q, batch);
  const Interval b = exact_int(batch);
  t.q_full = std::min(1.0, hi_up(exact(q) * b / (b + 1)));
  return t;
}

}  // namespace dpl
