// Progress of a long stage on stderr ("extracting features: 7/11 images"). Thread-safe:
// workers call Advance() as items finish. Prints at most a few times per second, always the
// last item, and nothing when the log level is above kInfo (--quiet).
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>

namespace proj {

class Progress {
 public:
  Progress(std::string stage, int total, std::string unit);
  void Advance(int count = 1);
  int done() const { return done_.load(); }

 private:
  std::string stage_;
  std::string unit_;
  int total_;
  std::atomic<int> done_{0};
  std::mutex mutex_;
  std::chrono::steady_clock::time_point last_print_;
};

}  // namespace proj
