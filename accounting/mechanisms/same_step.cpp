// SPDX-License-Identifier: Apache-2.0
#include "accounting/mechanisms/same_step.h"

namespace dpl {

namespace {

bool same_step_mechanism(const Mechanism& x, const Mechanism& y) {
  return x.kind == y.kind && x.sigma == y.sigma && x.sens == y.sens && x.b == y.b && x.eps == y.eps &&
         x.delta == y.delta && x.iterations == y.iterations && x.index == y.index && x.contraction == y.contraction &&
         x.x == y.x;
}

}  // namespace

bool same_step(const LedgerEntry& a, const LedgerEntry& b) {
  if (!same_step_mechanism(a.mechanism, b.mechanism) || a.q != b.q || a.sampling != b.sampling ||
      a.typed_without_other_ends != b.typed_without_other_ends || a.optimistic.has_value() != b.optimistic.has_value())
    return false;
  return !a.optimistic || (same_step_mechanism(a.optimistic->mechanism, b.optimistic->mechanism) &&
                           a.optimistic->q == b.optimistic->q);
}

}  // namespace dpl
