#include "python/src/background_call.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "core/interrupt.h"

namespace proj::python {

namespace py = pybind11;

BackgroundCall RunInBackground(const std::function<void()>& call) {
  BackgroundCall result;
  std::mutex mutex;
  std::condition_variable finished_signal;
  bool finished = false;
  ClearInterrupt();
  std::thread worker;
  {
    py::gil_scoped_release release;
    worker = std::thread([&] {
      try {
        call();
      } catch (...) {
        result.failure = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mutex);
      finished = true;
      finished_signal.notify_one();
    });
    std::unique_lock<std::mutex> lock(mutex);
    while (!finished_signal.wait_for(lock, std::chrono::milliseconds(50), [&] { return finished; })) {
      lock.unlock();
      {
        py::gil_scoped_acquire acquire;
        if (PyErr_CheckSignals() != 0) {
          const py::error_already_set error;  // fetches and clears Python's error indicator
          if (!result.signal_error) result.signal_error = error.value();
          RequestInterrupt();
        }
      }
      lock.lock();
    }
  }
  worker.join();
  ClearInterrupt();
  return result;
}

}  // namespace proj::python
