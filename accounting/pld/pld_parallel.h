// SPDX-License-Identifier: Apache-2.0
// The PLD accountant's two neighbouring directions (remove, add) are independent compositions: they run at once,
// one on the calling thread and one on a persistent helper thread (its FFT twiddle tables and buffers stay
// warm between runs). The results are bit-identical to running them one after the other; the work charged to
// the open PldWorkScopes (pld_work_budget.h) is the same total.
#pragma once

#include <functional>

namespace dpl {

// Runs first() on this thread and second() on the helper thread, and returns when both have finished. An
// exception from either is rethrown after both have finished (first()'s if both threw). Runs them one after the
// other when the machine has one core, when called from the helper thread, or while the helper is busy with
// another pair (nested calls, several calling threads). A nested call from the thread that started the outer pair
// uses the helper once it has finished the outer pair's task (e.g. the halves of a transform, radix2_fft.h).
void run_pair(const std::function<void()>& first, const std::function<void()>& second);

// Diagnostics for checking that every code path prints the same digits (docs/pld_accountant.md, 6):
// DPLEDGER_PLD_ONE_THREAD=1 in the environment runs every pair sequentially (no helper thread);
// DPLEDGER_PLD_SCALAR=1 runs the transforms and pointwise passes one element at a time instead of on AVX2 lanes.
// Both are read once per process.
bool pld_one_thread_forced();
bool pld_scalar_forced();

}  // namespace dpl
