#include "core/parallel_for.h"

#include <algorithm>
#include <atomic>
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

}  // namespace proj
