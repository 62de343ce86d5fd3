// SPDX-License-Identifier: Apache-2.0
#include "accounting/pld/pld_parallel.h"

#include "accounting/pld/pld_work_budget.h"

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <thread>

namespace dpl {

namespace {

// One helper thread, started on first use and joined at exit; it runs one task at a time.
class HelperThread {
 public:
  HelperThread() : thread_([this] { loop(); }) {}
  ~HelperThread() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  bool is_current() const { return std::this_thread::get_id() == thread_.get_id(); }
  // Whether the helper has finished its task and waits for the next one.
  bool idle() {
    std::lock_guard<std::mutex> lock(mutex_);
    return done_ && !task_;
  }
  // Starts `task` on the helper thread (the previous task has finished: run_pair waits for it).
  void start(std::function<void()> task) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      task_ = std::move(task);
      done_ = false;
    }
    wake_.notify_all();
  }
  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    finished_.wait(lock, [this] { return done_; });
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [this] { return stop_ || task_; });
      if (stop_) return;
      std::function<void()> task = std::move(task_);
      task_ = nullptr;
      lock.unlock();
      task();  // never throws: run_pair's wrapper catches
      lock.lock();
      done_ = true;
      finished_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  std::function<void()> task_;
  bool done_ = true, stop_ = false;
  std::thread thread_;  // last: started after the other members exist
};

}  // namespace

bool pld_one_thread_forced() {
  const char* v = std::getenv("DPLEDGER_PLD_ONE_THREAD");
  return v != nullptr && std::string(v) == "1";
}

bool pld_scalar_forced() {
  const char* v = std::getenv("DPLEDGER_PLD_SCALAR");
  return v != nullptr && std::string(v) == "1";
}

void run_pair(const std::function<void()>& first, const std::function<void()>& second) {
  static const bool parallel = std::thread::hardware_concurrency() >= 2 && !pld_one_thread_forced();
  if (!parallel) {
    first();
    second();
    return;
  }
  static HelperThread helper;
  // The helper takes one pair at a time: a pair started while it is busy (nested in a pair's task, or from
  // another thread of a library user) runs sequentially. The thread that owns the helper (started the outer pair)
  // may start nested pairs on it once it has finished the outer pair's task (e.g. the halves of an FFT, after the
  // other direction's composition): only the owner starts tasks while the flag is set, so nothing races for it.
  static std::atomic<bool> busy{false};
  static std::atomic<std::thread::id> owner{};
  bool expected = false;
  const bool nested = !helper.is_current() && busy.load() && owner.load() == std::this_thread::get_id() &&
                      helper.idle();
  if (!nested && (helper.is_current() || !busy.compare_exchange_strong(expected, true))) {
    first();
    second();
    return;
  }
  struct Release {
    bool outer;
    ~Release() {
      if (outer) {
        owner = std::thread::id{};
        busy = false;
      }
    }
  } release{!nested};
  if (!nested) owner = std::this_thread::get_id();
  std::exception_ptr first_error, second_error;
  // The helper charges this thread's open work scopes.
  PldWorkScopesHandle scopes = current_pld_work_scopes();
  helper.start([&] {
    try {
      PldWorkScopesAdopted adopt(scopes);
      second();
    } catch (...) {
      second_error = std::current_exception();
    }
  });
  try {
    first();
  } catch (...) {
    first_error = std::current_exception();
  }
  helper.wait();
  if (first_error) std::rethrow_exception(first_error);
  if (second_error) std::rethrow_exception(second_error);
}

}  // namespace dpl
