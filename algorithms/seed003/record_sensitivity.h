// SPDX-License-Identifier: Apache-2.0
// The per-record sensitivity of the quantity a seed-003 algorithm noises, from declared constants only (the
// domain's Lipschitz constant, a clipping threshold), never from the data.
#pragma once

namespace dpl::algorithms::seed003 {

enum class Neighbouring { replace_one, add_remove };

// Seed 003 App. C.2 (and docs/cyffers2023.md sec. 3): a record moves its own noised term by at most `bound` away from a
// data-independent point (||prox_{gamma_p f}(v) - v|| <= L gamma_p, or a clipped vector's norm <= C), so its L2
// sensitivity is 2 min(L gamma_p, C) between replace-one neighbours and min(L gamma_p, C) between add/remove
// neighbours. Upper bound. `lipschitz_times_step` may be HUGE_VAL (unbounded loss); `clip` HUGE_VAL = none.
double record_sensitivity(double lipschitz_times_step, double clip, Neighbouring neighbouring);

}  // namespace dpl::algorithms::seed003
