// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed003/record_sensitivity.h"

#include <algorithm>

namespace dpl::algorithms::seed003 {

// Seed 003 App. C.2: 2 L gamma_p (replace-one), 2C with clipping; the add/remove half. Upper bound.
double record_sensitivity(double lipschitz_times_step, double clip, Neighbouring neighbouring) {
  const double bound = std::min(lipschitz_times_step, clip);
  return neighbouring == Neighbouring::replace_one ? 2 * bound : bound;
}

}  // namespace dpl::algorithms::seed003
