// SPDX-License-Identifier: Apache-2.0
// The audits' worker threads: work(t) on up to `threads` threads that share one queue of runs, so that results do
// not depend on how many start. A thread the system cannot start (a thread limit, or its stack under the memory
// limit) is not an error: the work runs on those that started, or on the calling thread when none did; every thread
// started is joined before this returns, whatever happens.
#pragma once

#include <functional>

namespace dpl::audit {

// `monitor` (if set) runs on the calling thread while the workers run (e.g. progress), and must return once the work
// is done; it is skipped when the work runs on the calling thread itself.
void run_worker_threads(unsigned threads, const std::function<void(unsigned)>& work,
                        const std::function<void()>& monitor = {});

}  // namespace dpl::audit
