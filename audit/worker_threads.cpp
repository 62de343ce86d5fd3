// SPDX-License-Identifier: Apache-2.0
#include "audit/worker_threads.h"

#include <new>
#include <system_error>
#include <thread>
#include <vector>

namespace dpl::audit {

void run_worker_threads(unsigned threads, const std::function<void(unsigned)>& work,
                        const std::function<void()>& monitor) {
  std::vector<std::thread> pool;
  try {
    pool.reserve(threads);
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(work, t);
  } catch (const std::system_error&) {  // no more threads: the ones started share the queue
  } catch (const std::bad_alloc&) {
  }
  if (pool.empty()) {
    work(0);
    return;
  }
  if (monitor) {
    try {
      monitor();
    } catch (...) {
      for (auto& t : pool) t.join();
      throw;
    }
  }
  for (auto& t : pool) t.join();
}

}  // namespace dpl::audit
