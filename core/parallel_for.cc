#include "core/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace proj {

int ResolveNumThreads(int num_threads) {
  if (num_threads > 0) return num_threads;
  return std::max(1u, std::thread::hardware_concurrency());
}

void ParallelFor(int begin, int end, int num_threads,
                 const std::function<void(int, int)>& body) {
  if (end <= begin) return;
  const int threads = std::min(ResolveNumThreads(num_threads), end - begin);
  if (threads == 1) {
    for (int i = begin; i < end; ++i) body(i, 0);
    return;
  }
  std::atomic<int> next{begin};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&](int worker) {
    for (int i = next++; i < end; i = next++) {
      try {
        body(i, worker);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
        next = end;
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0);
  for (auto& thread : pool) thread.join();
  if (error) std::rethrow_exception(error);
}

void PipelinedFor(int count, int num_workers, int max_waiting, const std::function<void(int)>& prepare,
                  const std::function<void(int, int)>& run) {
  if (count <= 0) return;
  num_workers = std::max(1, num_workers);
  max_waiting = std::max(1, max_waiting);
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<int> waiting;  // prepared, not started
  bool all_prepared = false;
  bool stop = false;
  std::exception_ptr error;
  auto fail = [&](std::exception_ptr exception) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!error) error = exception;
    stop = true;
    changed.notify_all();
  };
  auto work = [&](int worker) {
    while (true) {
      int item = 0;
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return stop || all_prepared || !waiting.empty(); });
        if (stop || waiting.empty()) return;
        item = waiting.front();
        waiting.pop_front();
        changed.notify_all();
      }
      try {
        run(item, worker);
      } catch (...) {
        fail(std::current_exception());
        return;
      }
    }
  };
  std::vector<std::thread> workers;
  for (int w = 0; w < num_workers; ++w) workers.emplace_back(work, w);
  for (int item = 0; item < count; ++item) {
    {
      std::unique_lock<std::mutex> lock(mutex);
      changed.wait(lock, [&] { return stop || static_cast<int>(waiting.size()) < max_waiting; });
      if (stop) break;
    }
    try {
      prepare(item);
    } catch (...) {
      fail(std::current_exception());
      break;
    }
    std::lock_guard<std::mutex> lock(mutex);
    waiting.push_back(item);
    changed.notify_all();
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    all_prepared = true;
    changed.notify_all();
  }
  for (std::thread& thread : workers) thread.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace proj
